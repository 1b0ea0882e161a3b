import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { buyIntentions, listingItems, payouts } from '@/db/schema/marketplace';
import type { Work } from '@/server/lib/transaction';
import { enqueueWebhook } from '@/server/modules/webhooks';
import { mailPayoutsCancelled, mailPurchaseRefunded } from './mails';

/*
 * A completed purchase refunded afterwards (its show cancelled, or staff), recorded inside the
 * transaction that acts.
 */

export type PurchaseRefundReason = 'SHOW_CANCELLED' | 'STAFF_REFUND';

export interface RecordedRefund {
  intention: typeof buyIntentions.$inferSelect;
  /** The sellers' payouts this refund moved from SCHEDULED to CANCELLED. */
  cancelledPayouts: string[];
  /** Payouts already PAID when the refund came: the seller was paid and the buyer refunded (staff recover it). */
  paidPayouts: string[];
  /** The partner's `ticket.refunded` message, or null when the purchase has no partner ticket yet (a channel's). */
  messageId: string | null;
}

/**
 * Records that a completed purchase is refunded, once: `refunded_at` and `refund_reason` are set by a
 * conditional UPDATE (`WHERE status = 'COMPLETED' AND refunded_at IS NULL`) that touches the row only for
 * the first refund, and only that refund goes on, in the same transaction: the sellers' SCHEDULED payouts
 * are CANCELLED (a conditional UPDATE that waits for a payout being paid and then leaves it PAID, which
 * staff then see), the buyer and each seller whose payout was cancelled are mailed, and the partner gets
 * `ticket.refunded` (outbox). Null when another refund came first (or the purchase is not completed):
 * the caller then does nothing more, and asks no provider for money.
 */
export async function recordPurchaseRefund(
  work: Work,
  partnerId: string,
  intentionId: string,
  why: { reason: PurchaseRefundReason; text: string; endReason?: string; amountMinor?: number },
): Promise<RecordedRefund | null> {
  const { tx } = work;
  const [intention] = await tx
    .update(buyIntentions)
    .set({ refundedAt: sql`now()`, refundReason: why.reason, ...(why.endReason ? { endReason: why.endReason } : {}) })
    .where(
      and(
        eq(buyIntentions.partnerId, partnerId),
        eq(buyIntentions.id, intentionId),
        eq(buyIntentions.status, 'COMPLETED'),
        isNull(buyIntentions.refundedAt),
      ),
    )
    .returning();
  if (!intention) return null;
  const cancelled = await tx
    .update(payouts)
    .set({ status: 'CANCELLED' })
    .where(and(eq(payouts.intentionId, intentionId), eq(payouts.status, 'SCHEDULED')))
    .returning();
  const paid = await tx
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.intentionId, intentionId), eq(payouts.status, 'PAID')));
  const mailReason = why.reason === 'SHOW_CANCELLED' ? 'showCancelled' : 'staff';
  await mailPurchaseRefunded(work, intentionId, mailReason, why.amountMinor);
  await mailPayoutsCancelled(work, cancelled, mailReason);
  const items = await tx
    .select({ ticketId: listingItems.ticketId })
    .from(listingItems)
    .where(and(eq(listingItems.partnerId, partnerId), inArray(listingItems.listingId, intention.listingIds)))
    .orderBy(listingItems.ticketId);
  const messageId = items.length
    ? await enqueueWebhook(work, partnerId, {
        family: 'ticket',
        action: 'ticket.refunded',
        data: {
          ids: items.map((i) => i.ticketId),
          buyerEmail: intention.buyerEmail,
          reason: why.text,
          refundReason: why.reason,
        },
      })
    : null;
  return {
    intention,
    cancelledPayouts: cancelled.map((p) => p.id),
    paidPayouts: paid.map((p) => p.id),
    messageId,
  };
}
