'use client';

import { useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import type { ReactNode } from 'react';
import { EmptyState, EmptyStateWithLink } from '@/components/ui/empty-state';
import { PagedList, type PageInput } from '@/components/ui/pagination';
import { Table } from '@/components/ui/table';
import { Time, TimeCell } from '@/components/ui/time';
import { withParams } from '@/components/ui/url';
import { useTRPC } from '@/components/trpc/client';
import type { AppRouter } from '@/server/trpc/router';
import { formatMoney } from '../../_shared/format';
import { marketPath } from '../../_shared/paths';
import styles from '../../_shared/browser.module.css';
import { SellerName, StatusBadge } from './market-status';
import { PurchaseRows } from './purchase-rows';

type Outputs = inferRouterOutputs<AppRouter>['market'];

export interface ListingListInput extends PageInput {
  partnerId: string;
  status?: Outputs['listings']['items'][number]['status'];
  eventRef?: string;
}
export interface PayoutListInput extends PageInput {
  partnerId: string;
  status?: Outputs['payouts']['items'][number]['status'];
}

/** A list with its empty state: "nothing matches" (with the way back to all) when filtered, else `none`. */
function MarketList({
  partnerId,
  view,
  result,
  params,
  nouns,
  none,
  children,
}: {
  partnerId: string;
  view?: 'purchases' | 'payouts';
  result: Outputs['listings'] | Outputs['purchases'] | Outputs['payouts'];
  params: Record<string, string | undefined>;
  nouns: readonly [string, string];
  none: { title: string; description: string };
  children: ReactNode;
}) {
  const basePath = marketPath(partnerId);
  const filtered = Object.values(params).some(Boolean);
  return (
    <PagedList
      result={result}
      basePath={basePath}
      params={{ view, ...params }}
      nouns={nouns}
      none={
        filtered ? (
          <EmptyStateWithLink
            title={`No ${nouns[1]} match these filters`}
            description="Try another status or event."
            link={{ href: withParams(basePath, { view }), label: 'Clear filters' }}
          />
        ) : (
          <EmptyState title={none.title} description={none.description} />
        )
      }
    >
      {children}
    </PagedList>
  );
}

export function ListingList({ input }: { input: ListingListInput }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.market.listings.queryOptions(input));
  return (
    <MarketList
      partnerId={input.partnerId}
      result={data}
      params={{ status: input.status, event: input.eventRef }}
      nouns={['listing', 'listings']}
      none={{ title: 'No listings yet', description: 'Tickets fans put up for resale appear here.' }}
    >
      <Table
        label="Listings"
        columns={['Listing', 'Status', 'Event', { label: 'Price per ticket', num: true }, 'Seller', 'Listed (UTC)']}
      >
        {data.items.map((l) => (
          <tr key={l.id} id={l.id} data-listing-id={l.id}>
            <td>
              <code className={`mono ${styles.nowrap}`}>{l.id}</code>
              <div className={styles.sub}>
                {l.type === 'PACK' ? 'Pack (sold whole)' : 'Single'}
                {l.ticketIds.length > 0 && <> · {l.ticketIds.join(', ')}</>}
              </div>
            </td>
            <td>
              <StatusBadge status={l.status} />
            </td>
            <td>
              <div className={styles.titleCell}>
                <span>{l.eventTitle}</span>
                <span className={styles.sub}>
                  {l.eventRef} · show {l.showId}
                </span>
              </div>
            </td>
            <td className="num">{formatMoney(l.price, l.currency)}</td>
            <td className={styles.wrap}>
              <SellerName email={l.sellerEmail} channel={l.sellerChannel} />
            </td>
            <td className={styles.nowrap}>
              <Time value={l.createdAt} compact />
              {l.soldAt && (
                <div className={styles.sub}>
                  sold <Time value={l.soldAt} compact />
                </div>
              )}
            </td>
          </tr>
        ))}
      </Table>
    </MarketList>
  );
}

export function PurchaseList({ input }: { input: PageInput & { partnerId: string } }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.market.purchases.queryOptions(input));
  return (
    <MarketList
      partnerId={input.partnerId}
      view="purchases"
      result={data}
      params={{}}
      nouns={['purchase', 'purchases']}
      none={{ title: 'No purchases yet', description: 'Paid purchases of listings appear here, with their refunds.' }}
    >
      <PurchaseRows partnerId={input.partnerId} purchases={data.items} />
    </MarketList>
  );
}

export function PayoutList({ input }: { input: PayoutListInput }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.market.payouts.queryOptions(input));
  return (
    <MarketList
      partnerId={input.partnerId}
      view="payouts"
      result={data}
      params={{ status: input.status }}
      nouns={['payout', 'payouts']}
      none={{ title: 'No payouts yet', description: 'Each sale schedules its seller’s payout here.' }}
    >
      <Table
        label="Payouts"
        columns={['Payout', 'Status', 'Seller', { label: 'Amount', num: true }, 'Due (UTC)', 'Paid (UTC)']}
      >
        {data.items.map((p) => (
          <tr key={p.id} data-payout-id={p.id}>
            <td>
              <code className={`mono ${styles.nowrap}`}>{p.id}</code>
              <div className={styles.sub}>
                for <code className="mono">{p.listingId}</code>
              </div>
            </td>
            <td>
              <StatusBadge status={p.status} />
            </td>
            <td className={styles.wrap}>
              <SellerName email={p.sellerEmail} channel={p.sellerChannel} />
            </td>
            <td className="num">{formatMoney(p.amount, p.currency)}</td>
            <TimeCell value={p.dueAt} />
            <TimeCell value={p.paidAt} fallback="—" />
          </tr>
        ))}
      </Table>
    </MarketList>
  );
}
