import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { WebhookMessageDetail } from '../../../_features/webhooks/webhook-message';
import { loadPartnerPage, type PartnerPageProps } from '../../../_shared/partner-page';
import { webhookLogPath, webhookMessagePath } from '../../../_shared/paths';

export const metadata: Metadata = { title: 'Webhook message' };

export default async function WebhookMessagePage({ params }: Pick<PartnerPageProps<{ messageId: string }>, 'params'>) {
  const { partnerId, messageId } = await params;
  // Awaited too: an unknown message (or another partner's) is a 404 page, not an error inside it.
  const { partner } = await loadPartnerPage(partnerId, webhookMessagePath(partnerId, messageId), {}, (queryClient) =>
    queryClient.fetchQuery(trpc.webhooks.messages.get.queryOptions({ partnerId, messageId })),
  );

  return (
    <>
      <PageHeader
        title={
          <>
            Message <code className="mono">{messageId}</code>
          </>
        }
        description={`Webhook for ${partner.name}`}
        back={{ href: webhookLogPath(partnerId), label: 'Delivery log' }}
      />
      <HydrateClient>
        <WebhookMessageDetail partnerId={partnerId} messageId={messageId} />
      </HydrateClient>
    </>
  );
}
