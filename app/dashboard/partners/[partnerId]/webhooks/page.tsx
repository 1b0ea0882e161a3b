import type { Metadata } from 'next';
import Link from '@/components/ui/link';
import { Alert } from '@/components/ui/alert';
import { pageInUrl, pageParam, param } from '@/components/ui/search-params';
import { TableSuspense } from '@/components/ui/table';
import { messageStatus } from '@/server/modules/webhooks/schemas';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { actionsQueryInput } from '../../_features/webhooks/queries';
import { WebhookLog, WebhookLogFilters } from '../../_features/webhooks/webhook-log';
import { loadPartnerPage, PartnerPageHeader, type PartnerPageProps } from '../../_shared/partner-page';
import { partnerPath, webhookLogPath } from '../../_shared/paths';

export const metadata: Metadata = { title: 'Webhook delivery log' };

const PAGE_SIZE = 25;

export default async function WebhookLogPage({ params, searchParams }: PartnerPageProps) {
  const { partnerId } = await params;
  const sp = await searchParams;
  const parsedStatus = messageStatus.safeParse(param(sp, 'status'));
  const status = parsedStatus.success ? parsedStatus.data : undefined; // anything else: all statuses
  const action = param(sp, 'action', 100) || undefined; // the schema's limit
  const page = pageParam(sp);

  const {
    queryClient,
    partner,
    data: endpoint,
  } = await loadPartnerPage(
    partnerId,
    webhookLogPath(partnerId),
    { status, action, page: pageInUrl(page) },
    (queryClient) => queryClient.fetchQuery(trpc.webhooks.endpoint.get.queryOptions({ partnerId })),
  );
  const input = { partnerId, status, action, page, pageSize: PAGE_SIZE };
  void queryClient.prefetchQuery(trpc.webhooks.messages.list.queryOptions(input));
  // Awaited, not streamed: the filters read it with useQuery (no Suspense), so a server render without it
  // and a client render with it (the streamed promise resolved first) gave different <option>s, a
  // hydration error (React #418).
  await queryClient.prefetchQuery(trpc.webhooks.messages.list.queryOptions(actionsQueryInput(partnerId)));
  const settings = partnerPath(partnerId);

  return (
    <>
      <PartnerPageHeader
        partner={partner}
        title="Webhook delivery log"
        description={
          <>
            Every message for <strong>{partner.name}</strong>, newest first, with each delivery attempt. Pending
            messages are retried until the receiver accepts them.
          </>
        }
      />
      {/* Why messages are not moving, when it is by design. */}
      {!endpoint && (
        <Alert tone="warning" title="No receiver URL yet">
          Messages wait here until the partner&rsquo;s webhook endpoint is saved in the{' '}
          <Link href={settings}>webhook settings</Link>.
        </Alert>
      )}
      {endpoint && !endpoint.enabled && (
        <Alert tone="warning" title="Delivery is paused">
          Messages wait until delivery is switched on again in the <Link href={settings}>webhook settings</Link>.
        </Alert>
      )}
      <HydrateClient>
        <WebhookLogFilters partnerId={partnerId} status={status} action={action} />
        <TableSuspense key={`${status}|${action}|${page}`} label="Loading messages" rows={6} columns={7}>
          <WebhookLog input={input} />
        </TableSuspense>
      </HydrateClient>
    </>
  );
}
