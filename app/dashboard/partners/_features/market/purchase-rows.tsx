'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { ACTIONS_COLUMN, Table } from '@/components/ui/table';
import { Button } from '@/components/ui/button';
import { formatUtc, Time } from '@/components/ui/time';
import type { inferRouterOutputs } from '@trpc/server';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import type { AppRouter } from '@/server/trpc/router';
import { RefundDialog } from '../../../_shared/refund-dialog';
import { formatMoney } from '../../_shared/format';
import { SellerName, StatusBadge } from './market-status';
import styles from '../../_shared/browser.module.css';

type Purchase = inferRouterOutputs<AppRouter>['market']['purchases']['items'][number];

const REFUND_REASON: Record<string, string> = {
  SHOW_CANCELLED: 'Show cancelled',
  STAFF_REFUND: 'Refunded by staff',
};

const PAYMENT_LABEL: Record<string, string> = {
  paid: 'Paid',
  refunded: 'Refunded',
  partially_refunded: 'Partly refunded',
};

/**
 * The purchases table. "Refund" asks for a reason first (the partner receives it with
 * `ticket.refunded`); the whole payment is refunded and the sellers' scheduled payouts cancelled. Only a
 * role that moves money (`money`) sees it.
 */
export function PurchaseRows({ partnerId, purchases }: { partnerId: string; purchases: Purchase[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [refunding, setRefunding] = useState<Purchase | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const mayRefund = useMay('money');
  const refund = useMutation(
    trpc.market.refund.mutationOptions({
      onSuccess: async (result) => {
        setRefunding(null);
        setDone(
          result.retrying
            ? `${result.intentionId} is refunded in Encore and the partner is notified; the provider failed to return ${formatMoney(result.refunded, result.currency)}, and a job is trying again.`
            : `Refunded ${formatMoney(result.refunded, result.currency)} of ${result.intentionId}; the partner is notified.`,
        );
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.market.purchases.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.market.payouts.pathKey() }),
        ]);
      },
    }),
  );

  function open(p: Purchase) {
    refund.reset();
    setDone(null);
    setRefunding(p);
  }

  return (
    <>
      {done && (
        <p role="status" className="muted">
          {done}
        </p>
      )}
      {/* Compact at 1366 px: ids, listings and times sit under the cell they belong to, so the Refund
          column stays on screen (the action column is the one support came for). */}
      <Table
        label="Purchases"
        columns={[
          'Purchase',
          'Status',
          'Buyer',
          { label: 'Total', num: true },
          'Payment',
          ...(mayRefund ? [ACTIONS_COLUMN] : []),
        ]}
      >
        {purchases.map((p) => (
          <tr key={p.id} id={p.id} data-purchase-id={p.id}>
            <td>
              <code className={`mono ${styles.nowrap}`}>{p.id}</code>
              <div className={`${styles.sub} ${styles.nowrap}`}>
                <Time value={p.createdAt} compact /> UTC
              </div>
              {p.endReason && <div className={styles.sub}>{p.endReason}</div>}
            </td>
            <td>
              <StatusBadge status={p.status} />
              {p.refundReason && (
                <div className={styles.sub} data-testid="refund-reason">
                  {REFUND_REASON[p.refundReason]}
                  {p.refundedAt && <> · {formatUtc(new Date(p.refundedAt))}</>}
                </div>
              )}
              {p.paidPayoutsAfterRefund.length > 0 && (
                <div className={styles.sub} role="note">
                  Seller already paid ({p.paidPayoutsAfterRefund.join(', ')}): recover the payout.
                </div>
              )}
            </td>
            <td className={styles.wrap}>
              <SellerName email={p.buyerEmail} channel={p.buyerChannel} />
              <div className={styles.sub}>
                {p.listingIds.length === 1 ? 'Listing' : 'Listings'} {p.listingIds.join(', ')}
              </div>
            </td>
            <td className="num">
              {formatMoney(p.total, p.currency)}
              {p.refunded > 0 && <div className={styles.sub}>refunded {formatMoney(p.refunded, p.currency)}</div>}
            </td>
            <td>
              <div className={styles.titleCell}>
                {p.paymentStatus ? (
                  <Badge tone={p.paymentStatus === 'paid' ? 'success' : 'warning'}>
                    {PAYMENT_LABEL[p.paymentStatus] ?? p.paymentStatus}
                  </Badge>
                ) : (
                  <span className="muted">No payment</span>
                )}
                {p.paymentId && <code className={`mono ${styles.sub}`}>{p.paymentId}</code>}
              </div>
            </td>
            {mayRefund && (
              <td className="actions">
                {p.refundable && (
                  <Button size="sm" variant="danger" onClick={() => open(p)} aria-label={`Refund ${p.id}`}>
                    Refund
                  </Button>
                )}
              </td>
            )}
          </tr>
        ))}
      </Table>
      <RefundDialog
        open={refunding !== null}
        total={(refunding && formatMoney(refunding.total, refunding.currency)) ?? ''}
        buyerEmail={refunding?.buyerEmail ?? ''}
        refund={refund}
        onSubmit={(reason) => {
          if (refunding) refund.mutate({ partnerId, intentionId: refunding.id, reason });
        }}
        onCancel={() => setRefunding(null)}
      />
    </>
  );
}
