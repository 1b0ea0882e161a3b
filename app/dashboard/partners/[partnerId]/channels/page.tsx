import type { Metadata } from 'next';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { ChannelsSection } from '../../_features/channels/channels-section';
import { loadPartnerPage, PartnerPageHeader, type PartnerPageProps } from '../../_shared/partner-page';
import { channelsPath } from '../../_shared/paths';

export const metadata: Metadata = { title: 'Channels' };

/** A partner's channels: create, disable, and open one for its keys and listings. Encore's staff only. */
export default async function ChannelsPage({ params }: Pick<PartnerPageProps, 'params'>) {
  const { partnerId } = await params;
  const { queryClient, partner } = await loadPartnerPage(partnerId, channelsPath(partnerId), {}, undefined, {
    staffOnly: true,
  });
  await queryClient.prefetchQuery(trpc.channels.list.queryOptions({ partnerId }));
  return (
    <>
      <PartnerPageHeader
        partner={partner}
        title="Channels"
        description="External platforms pushing resale listings into this partner's market (Channels API, sk_ch_ keys)."
      />
      <HydrateClient>
        <ChannelsSection partnerId={partnerId} />
      </HydrateClient>
    </>
  );
}
