import { TRPCError } from '@trpc/server';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/ui/page-header';
import { requireStaff } from '@/server/auth/session';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { WebhookMessageDetail } from '../../../_components/webhook-message';
import { webhookLogPath } from '../../../_components/webhook-queries';

export const metadata: Metadata = { title: 'Webhook message' };

function notFoundOn404(err: unknown): never {
  if (err instanceof TRPCError && err.code === 'NOT_FOUND') notFound();
  throw err;
}

export default async function WebhookMessagePage({
  params,
}: {
  params: Promise<{ partnerId: string; messageId: string }>;
}) {
  const { partnerId, messageId } = await params;
  const logPath = webhookLogPath(partnerId);
  await requireStaff(`${logPath}/${encodeURIComponent(messageId)}`);

  const queryClient = getQueryClient();
  const [partner] = await Promise.all([
    queryClient.fetchQuery(trpc.partners.get.queryOptions({ partnerId })).catch(notFoundOn404),
    // Awaited too: an unknown message (or another partner's) is a 404 page, not an error inside it.
    queryClient.fetchQuery(trpc.webhooks.messages.get.queryOptions({ partnerId, messageId })).catch(notFoundOn404),
  ]);

  return (
    <>
      <PageHeader
        title={
          <>
            Message <code className="mono">{messageId}</code>
          </>
        }
        description={`Webhook for ${partner.name}`}
        back={{ href: logPath, label: 'Delivery log' }}
      />
      <HydrateClient>
        <WebhookMessageDetail partnerId={partnerId} messageId={messageId} />
      </HydrateClient>
    </>
  );
}
