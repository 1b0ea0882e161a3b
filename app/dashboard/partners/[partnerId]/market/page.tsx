import type { Metadata } from 'next';
import { Field, SelectField } from '@/components/ui/field';
import { pageInUrl, pageParam, param } from '@/components/ui/search-params';
import { TableSuspense } from '@/components/ui/table';
import { LISTING_STATUS_VALUES, PAYOUT_STATUSES } from '@/server/modules/ops';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { ListingList, PayoutList, PurchaseList } from '../../_features/market/market-lists';
import { MarketFilters, type MarketView, MARKET_VIEWS, MarketViews } from '../../_features/market/market-views';
import filters from '../../_shared/filters.module.css';
import { loadPartnerPage, PartnerPageHeader, type PartnerPageProps } from '../../_shared/partner-page';
import { marketPath } from '../../_shared/paths';

export const metadata: Metadata = { title: 'Market' };

const PAGE_SIZE = 25;

/** One of `values`, or undefined for anything else in the URL (all statuses). */
function oneOf<T extends string>(values: readonly T[], value: string): T | undefined {
  return (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

const label = (status: string) => status.charAt(0) + status.slice(1).toLowerCase();

function StatusFilter({ value, statuses }: { value?: string; statuses: readonly string[] }) {
  return (
    <SelectField label="Status" name="status" className={filters.filter} defaultValue={value ?? ''} key={value}>
      <option value="">All statuses</option>
      {statuses.map((s) => (
        <option key={s} value={s}>
          {label(s)}
        </option>
      ))}
    </SelectField>
  );
}

export default async function MarketPage({ params, searchParams }: PartnerPageProps) {
  const { partnerId } = await params;
  const sp = await searchParams;
  const view: MarketView =
    oneOf(
      MARKET_VIEWS.map((v) => v.id),
      param(sp, 'view'),
    ) ?? 'listings';
  const page = pageParam(sp);
  const listingStatus = view === 'listings' ? oneOf(LISTING_STATUS_VALUES, param(sp, 'status')) : undefined;
  const payoutStatus = view === 'payouts' ? oneOf(PAYOUT_STATUSES, param(sp, 'status')) : undefined;
  const eventRef = view === 'listings' ? param(sp, 'event', 255) || undefined : undefined;
  const status = listingStatus ?? payoutStatus;

  const { queryClient, partner } = await loadPartnerPage(partnerId, marketPath(partnerId), {
    view: view === 'listings' ? undefined : view,
    status,
    event: eventRef,
    page: pageInUrl(page),
  });
  const paging = { partnerId, page, pageSize: PAGE_SIZE };
  const listingsInput = { ...paging, status: listingStatus, eventRef };
  const payoutsInput = { ...paging, status: payoutStatus };
  if (view === 'listings') void queryClient.prefetchQuery(trpc.market.listings.queryOptions(listingsInput));
  if (view === 'purchases') void queryClient.prefetchQuery(trpc.market.purchases.queryOptions(paging));
  if (view === 'payouts') void queryClient.prefetchQuery(trpc.market.payouts.queryOptions(payoutsInput));

  return (
    <>
      <PartnerPageHeader
        partner={partner}
        title="Market"
        description={
          <>
            Resale on <strong>{partner.name}</strong>: what fans list, what buyers paid (refunds here), and what sellers
            are owed. Newest first.
          </>
        }
        links={['events']}
      />
      <MarketViews partnerId={partnerId} view={view} />
      {view === 'listings' && (
        <MarketFilters partnerId={partnerId} view={view} label="Filter listings" active={Boolean(status || eventRef)}>
          <StatusFilter value={listingStatus} statuses={LISTING_STATUS_VALUES} />
          <Field
            label="Event"
            name="event"
            className={filters.filter}
            defaultValue={eventRef ?? ''}
            key={eventRef}
            placeholder="externalReferenceId"
            maxLength={255}
            autoComplete="off"
          />
        </MarketFilters>
      )}
      {view === 'payouts' && (
        <MarketFilters partnerId={partnerId} view={view} label="Filter payouts" active={Boolean(status)}>
          <StatusFilter value={payoutStatus} statuses={PAYOUT_STATUSES} />
        </MarketFilters>
      )}
      <HydrateClient>
        <TableSuspense key={`${view}|${status}|${eventRef}|${page}`} label={`Loading ${view}`} rows={6} columns={7}>
          {view === 'listings' && <ListingList input={listingsInput} />}
          {view === 'purchases' && <PurchaseList input={paging} />}
          {view === 'payouts' && <PayoutList input={payoutsInput} />}
        </TableSuspense>
      </HydrateClient>
    </>
  );
}
