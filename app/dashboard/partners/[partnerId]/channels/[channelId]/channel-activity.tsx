import type { inferRouterOutputs } from '@trpc/server';
import { Badge } from '@/components/ui/badge';
import { SectionCard } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { channelListingStatus, channelSaleStatus } from '@/server/modules/channels/schemas';
import type { AppRouter } from '@/server/trpc/router';
import { formatMoney } from '../../../_shared/format';
import { SelectFilter } from '../../../_shared/select-filter';

type Outputs = inferRouterOutputs<AppRouter>['channels'];
type Params = Record<string, string | undefined>;

export const CHANNEL_LISTING_STATES = channelListingStatus.options;
const TONE = {
  ACTIVE: 'success',
  RESERVED: 'warning',
  SOLD: 'neutral',
  UNLISTED: 'warning',
  CANCELLED: 'danger',
} as const;
export const CHANNEL_SALE_STATES = channelSaleStatus.options;
const SALE_STATE = {
  PENDING_FULFILMENT: { tone: 'warning', label: 'Awaiting fulfilment' },
  FULFILLED: { tone: 'success', label: 'Fulfilled' },
  REFUNDED: { tone: 'danger', label: 'Refunded' },
} as const;

/**
 * A sale still awaiting its tickets past its deadline (the minute sweep refunds it soon). The page is a
 * server component rendered per request, so reading the clock here is as of that request.
 */
function overdue(sale: { status: string; fulfilBy: string }): boolean {
  return sale.status === 'PENDING_FULFILMENT' && Date.parse(sale.fulfilBy) < Date.now();
}

/** The channel's listings, filtered by state (`status`), a page at a time. */
export function ListingsSection({
  base,
  listings,
  status,
  saleParams,
  pageSize,
}: {
  base: string;
  listings: Outputs['listings'];
  status: (typeof CHANNEL_LISTING_STATES)[number] | undefined;
  saleParams: Params;
  pageSize: number;
}) {
  return (
    <SectionCard title="Listings" description="Newest first, as the channel pushed them.">
      <div className="card-body">
        <SelectFilter
          action={base}
          label="Filter listings"
          fieldLabel="State"
          name="status"
          value={status}
          all="All states"
          options={CHANNEL_LISTING_STATES.map((s) => ({ value: s, label: s }))}
          keep={saleParams}
        />
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
        pageCount={Math.max(1, Math.ceil(listings.total / pageSize))}
        pageSize={pageSize}
        total={listings.total}
        basePath={base}
        params={{ status, ...saleParams }}
        noun="listings"
      />
    </SectionCard>
  );
}

/** The channel's sales, filtered by state (`saleStatus`), a page at a time (`salesPage`). */
export function SalesSection({
  base,
  sales,
  saleStatus,
  listingParams,
  pageSize,
}: {
  base: string;
  sales: Outputs['sales'];
  saleStatus: (typeof CHANNEL_SALE_STATES)[number] | undefined;
  listingParams: Params;
  pageSize: number;
}) {
  return (
    <SectionCard
      data-testid="channel-sales"
      title="Sales"
      description="Newest first. The channel names the tickets of each before its deadline, or the buyer is refunded."
    >
      <div className="card-body">
        <SelectFilter
          action={base}
          label="Filter sales"
          fieldLabel="State"
          name="saleStatus"
          value={saleStatus}
          all="All states"
          options={CHANNEL_SALE_STATES.map((s) => ({ value: s, label: SALE_STATE[s].label }))}
          keep={listingParams}
        />
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
        pageCount={Math.max(1, Math.ceil(sales.total / pageSize))}
        pageSize={pageSize}
        total={sales.total}
        basePath={base}
        params={{ ...listingParams, saleStatus }}
        noun="sales"
        pageKey="salesPage"
        label="Sales pagination"
      />
    </SectionCard>
  );
}
