import type { Metadata } from 'next';
import Form from 'next/form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { SelectField } from '@/components/ui/field';
import { Pagination } from '@/components/ui/pagination';
import { pageInUrl, pageParam, param, type SearchParams } from '@/components/ui/search-params';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { channelListingStatus, channelSaleStatus } from '@/server/modules/channels/schemas';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { ChannelDetails } from '../../../_features/channels/channel-details';
import { ChannelWebhooks } from '../../../_features/channels/channel-webhooks';
import { ApiKeysSection } from '../../../_features/keys/api-keys-section';
import { formatMoney } from '../../../_shared/format';
import { loadPartnerPage, PartnerPageHeader } from '../../../_shared/partner-page';
import { channelPath, channelsPath } from '../../../_shared/paths';
import { ChannelPayouts } from './channel-payouts';

export const metadata: Metadata = { title: 'Channel' };

const PAGE_SIZE = 25;
const CHANNEL_LISTING_STATES = channelListingStatus.options;
const TONE = {
  ACTIVE: 'success',
  RESERVED: 'warning',
  SOLD: 'neutral',
  UNLISTED: 'warning',
  CANCELLED: 'danger',
} as const;
const CHANNEL_SALE_STATES = channelSaleStatus.options;
const SALE_STATE = {
  PENDING_FULFILMENT: { tone: 'warning', label: 'Awaiting fulfilment' },
  FULFILLED: { tone: 'success', label: 'Fulfilled' },
  REFUNDED: { tone: 'danger', label: 'Refunded' },
} as const;

/** One of `states` from the query string, or none (all) for anything else. */
function stateParam<S extends string>(sp: SearchParams, key: string, states: readonly S[]): S | undefined {
  const value = param(sp, key);
  return (states as readonly string[]).includes(value) ? (value as S) : undefined;
}

/**
 * A sale still awaiting its tickets past its deadline (the minute sweep refunds it soon). The page is a
 * server component rendered per request, so reading the clock here is as of that request.
 */
function overdue(sale: { status: string; fulfilBy: string }): boolean {
  return sale.status === 'PENDING_FULFILMENT' && Date.parse(sale.fulfilBy) < Date.now();
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
  );
  void queryClient.prefetchQuery(trpc.partners.keys.list.queryOptions({ partnerId, channelId }));
  void queryClient.prefetchQuery(trpc.channels.payoutSetup.queryOptions({ partnerId, channelId }));
  const { channel, listings, sales } = data;
  // What each section's filter and page links keep of the other section's.
  const listingParams = { status, page: pageInUrl(page)?.toString() };
  const saleParams = { saleStatus, salesPage: pageInUrl(salesPage)?.toString() };
  const salesPageCount = Math.max(1, Math.ceil(sales.total / PAGE_SIZE));

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
      <SectionCard title="Listings" description="Newest first, as the channel pushed them.">
        <div className="card-body">
          <Form action={base} className="toolbar" aria-label="Filter listings">
            <HiddenParams params={saleParams} />
            <SelectField label="State" name="status" defaultValue={status ?? ''} key={status ?? 'all'}>
              <option value="">All states</option>
              {CHANNEL_LISTING_STATES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </SelectField>
            <Button type="submit">Apply</Button>
          </Form>
        </div>
        {listings.items.length === 0 ? (
          <EmptyState
            title={status ? 'No listings in this state' : 'No listings yet'}
            description="The channel pushes them with PUT /v1/channels/listings/{listingId} or POST /v1/channels/listings/bulk."
          />
        ) : (
          <Table
            label="Channel listings"
            columns={['Listing', 'State', 'Event · show', 'Option', 'Tickets', 'Sold', 'Price', 'Updated']}
            bodyTestId="channel-listing-rows"
          >
            {listings.items.map((l) => (
              <tr key={l.id}>
                <td>
                  <code className="mono">{l.listingId}</code>
                </td>
                <td>
                  <Badge tone={TONE[l.status]}>{l.status}</Badge>
                </td>
                <td>
                  {l.eventId} · {l.showId}
                </td>
                <td>
                  {l.ticketOptionId}
                  {l.priceTypeId ? ` / ${l.priceTypeId}` : ''}
                </td>
                <td>
                  {l.quantity}
                  {l.soldWhole ? ' (whole)' : ''}
                </td>
                <td>
                  {l.quantitySold} of {l.quantity}
                </td>
                <td className="nowrap">{formatMoney(l.price, l.currency)}</td>
                <td>
                  <Time value={new Date(l.updatedAt)} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pagination
          page={listings.page}
          pageCount={Math.max(1, Math.ceil(listings.total / PAGE_SIZE))}
          pageSize={PAGE_SIZE}
          total={listings.total}
          basePath={base}
          params={{ status, ...saleParams }}
          noun="listings"
        />
      </SectionCard>
      <SectionCard
        data-testid="channel-sales"
        title="Sales"
        description="Newest first. The channel names the tickets of each before its deadline, or the buyer is refunded."
      >
        <div className="card-body">
          <Form action={base} className="toolbar" aria-label="Filter sales">
            <HiddenParams params={listingParams} />
            <SelectField label="State" name="saleStatus" defaultValue={saleStatus ?? ''} key={saleStatus ?? 'all'}>
              <option value="">All states</option>
              {CHANNEL_SALE_STATES.map((s) => (
                <option key={s} value={s}>
                  {SALE_STATE[s].label}
                </option>
              ))}
            </SelectField>
            <Button type="submit">Apply</Button>
          </Form>
        </div>
        {sales.items.length === 0 ? (
          <EmptyState
            title={saleStatus ? 'No sales in this state' : 'No sales yet'}
            description="When a buyer buys one of this channel's listings it appears here."
          />
        ) : (
          <Table
            label="Channel sales"
            columns={['Sale', 'State', 'Listing', 'Event · show', 'Tickets', 'Buyer', 'Amount', 'Payout', 'Fulfil by']}
            bodyTestId="channel-sale-rows"
          >
            {sales.items.map((s) => (
              <tr key={s.saleId}>
                <td>
                  <code className="mono">{s.saleId}</code>
                </td>
                <td>
                  <Badge tone={SALE_STATE[s.status].tone}>{SALE_STATE[s.status].label}</Badge>
                </td>
                <td>
                  <code className="mono">{s.listingId}</code>
                </td>
                <td>
                  {s.eventId} · {s.showId}
                </td>
                <td>
                  {s.quantity}
                  {s.ticketIds.length > 0 && (
                    <>
                      {' · '}
                      <code className="mono">{s.ticketIds.join(', ')}</code>
                    </>
                  )}
                </td>
                <td>{s.buyerEmail}</td>
                <td className="nowrap">{formatMoney(s.amount, s.currency)}</td>
                <td className="nowrap">{formatMoney(s.payout, s.currency)}</td>
                <td>
                  <Time value={s.fulfilBy} />
                  {overdue(s) && (
                    <>
                      {' '}
                      <Badge tone="danger">overdue</Badge>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pagination
          page={sales.page}
          pageCount={salesPageCount}
          pageSize={PAGE_SIZE}
          total={sales.total}
          basePath={base}
          params={{ ...listingParams, saleStatus }}
          noun="sales"
          pageKey="salesPage"
          label="Sales pagination"
        />
      </SectionCard>
    </>
  );
}

/** Hidden inputs carrying the other section's filter and page through a filter form's GET submit. */
function HiddenParams({ params }: { params: Record<string, string | undefined> }) {
  return (
    <>
      {Object.entries(params).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
    </>
  );
}
