import { TRPCError } from '@trpc/server';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { Alert } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';
import { TableSkeleton } from '@/components/ui/table';
import { pageParam, param, type SearchParams, withParams } from '@/components/ui/url';
import { requireStaff } from '@/server/auth/session';
import { messageStatus } from '@/server/modules/webhooks';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { WebhookLog, WebhookLogFilters } from '../../_components/webhook-log';
import { actionsQueryInput, webhookLogPath } from '../../_components/webhook-queries';

export const metadata: Metadata = { title: 'Webhook delivery log' };

const PAGE_SIZE = 25;

export default async function WebhookLogPage({
  params,
  searchParams,
}: {
  params: Promise<{ partnerId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { partnerId } = await params;
  const sp = await searchParams;
  const parsedStatus = messageStatus.safeParse(param(sp, 'status'));
  const status = parsedStatus.success ? parsedStatus.data : undefined; // anything else: all statuses
  const action = param(sp, 'action', 100) || undefined; // the schema's limit
  const page = pageParam(sp);

  const basePath = webhookLogPath(partnerId);
  await requireStaff(withParams(basePath, { status, action, page: page > 1 ? page : undefined }));

  const queryClient = getQueryClient();
  const [partner, endpoint] = await Promise.all([
    queryClient.fetchQuery(trpc.partners.get.queryOptions({ partnerId })).catch((err: unknown) => {
      if (err instanceof TRPCError && err.code === 'NOT_FOUND') notFound();
      throw err;
    }),
    queryClient.fetchQuery(trpc.webhooks.endpoint.get.queryOptions({ partnerId })),
  ]);
  const partnerPath = `/dashboard/partners/${encodeURIComponent(partnerId)}`;
  const input = { partnerId, status, action, page, pageSize: PAGE_SIZE };
  void queryClient.prefetchQuery(trpc.webhooks.messages.list.queryOptions(input));
  // Awaited, not streamed: the filters read it with useQuery (no Suspense), so a server render without it
  // and a client render with it (the streamed promise resolved first) gave different <option>s, a
  // hydration error (React #418).
  await queryClient.prefetchQuery(trpc.webhooks.messages.list.queryOptions(actionsQueryInput(partnerId)));

  return (
    <>
      <PageHeader
        title="Webhook delivery log"
        description={
          <>
            Every message for <strong>{partner.name}</strong>, newest first, with each delivery attempt. Pending
            messages are retried until the receiver accepts them.
          </>
        }
        back={{ href: partnerPath, label: partner.name }}
      />
      {/* Why messages are not moving, when it is by design. */}
      {!endpoint && (
        <Alert tone="warning" title="No receiver URL yet">
          Messages wait here until the partner&rsquo;s webhook endpoint is saved in the{' '}
          <Link href={partnerPath}>webhook settings</Link>.
        </Alert>
      )}
      {endpoint && !endpoint.enabled && (
        <Alert tone="warning" title="Delivery is paused">
          Messages wait until delivery is switched on again in the <Link href={partnerPath}>webhook settings</Link>.
        </Alert>
      )}
      <HydrateClient>
        <WebhookLogFilters basePath={basePath} partnerId={partnerId} status={status} action={action} />
        {/* A new key per filter/page shows the skeleton again instead of the previous rows. */}
        <Suspense
          key={`${status}|${action}|${page}`}
          fallback={<TableSkeleton rows={6} columns={7} label="Loading messages" />}
        >
          <WebhookLog input={input} basePath={basePath} />
        </Suspense>
      </HydrateClient>
    </>
  );
}
