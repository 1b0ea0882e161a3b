import type { Metadata } from 'next';
import { pageInUrl, pageParam, param, type SearchParams } from '@/components/ui/search-params';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { ChannelDetails } from '../../../_features/channels/channel-details';
import { ChannelWebhooks } from '../../../_features/channels/channel-webhooks';
import { ApiKeysSection } from '../../../_features/keys/api-keys-section';
import { loadPartnerPage, PartnerPageHeader } from '../../../_shared/partner-page';
import { channelPath, channelsPath } from '../../../_shared/paths';
import { ChannelPayouts } from './channel-payouts';
import { CHANNEL_LISTING_STATES, CHANNEL_SALE_STATES, ListingsSection, SalesSection } from './channel-activity';

export const metadata: Metadata = { title: 'Channel' };

const PAGE_SIZE = 25;
/** One of `states` from the query string, or none (all) for anything else. */
function stateParam<S extends string>(sp: SearchParams, key: string, states: readonly S[]): S | undefined {
  const value = param(sp, key);
  return (states as readonly string[]).includes(value) ? (value as S) : undefined;
}

/** The sales' page number (`salesPage`: `page` is the listings'); anything unreadable is page 1. */
function salesPageParam(sp: SearchParams): number {
  return pageParam({ page: sp.salesPage });
}

type Props = {
  params: Promise<{ partnerId: string; channelId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * One channel: details, payout setup, its keys, and its listings and sales, each filtered by state, a page
 * at a time (`status`/`page` for listings, `saleStatus`/`salesPage` for sales; each keeps the other's).
 */
export default async function ChannelPage({ params, searchParams }: Props) {
  const { partnerId, channelId } = await params;
  const sp = await searchParams;
  const status = stateParam(sp, 'status', CHANNEL_LISTING_STATES);
  const page = pageParam(sp);
  const saleStatus = stateParam(sp, 'saleStatus', CHANNEL_SALE_STATES);
  const salesPage = salesPageParam(sp);
  const base = channelPath(partnerId, channelId);
  const { queryClient, partner, data } = await loadPartnerPage(
    partnerId,
    base,
    { status, page: pageInUrl(page), saleStatus, salesPage: pageInUrl(salesPage) },
    async (qc) => {
      const [channel, listings, sales] = await Promise.all([
        qc.fetchQuery(trpc.channels.get.queryOptions({ partnerId, channelId })),
        qc.fetchQuery(trpc.channels.listings.queryOptions({ partnerId, channelId, status, page, pageSize: PAGE_SIZE })),
        qc.fetchQuery(
          trpc.channels.sales.queryOptions({
            partnerId,
            channelId,
            status: saleStatus,
            page: salesPage,
            pageSize: PAGE_SIZE,
          }),
        ),
      ]);
      return { channel, listings, sales };
    },
    { staffOnly: true },
  );
  void queryClient.prefetchQuery(trpc.partners.keys.list.queryOptions({ partnerId, channelId }));
  void queryClient.prefetchQuery(trpc.channels.payoutSetup.queryOptions({ partnerId, channelId }));
  const { channel, listings, sales } = data;
  // What each section's filter and page links keep of the other section's.
  const listingParams = { status, page: pageInUrl(page)?.toString() };
  const saleParams = { saleStatus, salesPage: pageInUrl(salesPage)?.toString() };

  return (
    <>
      <PartnerPageHeader
        partner={partner}
        title={channel.name}
        description={
          <>
            A channel of {partner.name}. <a href={channelsPath(partnerId)}>All channels</a>
          </>
        }
      />
      <HydrateClient>
        <ChannelDetails partnerId={partnerId} channelId={channelId} />
        <ChannelPayouts partnerId={partnerId} channelId={channelId} />
        <ApiKeysSection
          partnerId={partnerId}
          kind="channels"
          channelId={channelId}
          title="Channels API keys"
          description="Keys starting with sk_ch_ open only the Channels API, as this channel. Several may be active while the channel rotates them."
        />
        <ChannelWebhooks partnerId={partnerId} channelId={channelId} />
      </HydrateClient>
      <ListingsSection base={base} listings={listings} status={status} saleParams={saleParams} pageSize={PAGE_SIZE} />
      <SalesSection
        base={base}
        sales={sales}
        saleStatus={saleStatus}
        listingParams={listingParams}
        pageSize={PAGE_SIZE}
      />
    </>
  );
}
