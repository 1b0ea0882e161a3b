import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { buyIntentions, payouts } from '@/db/schema/marketplace';
import { errorFields, log } from '@/server/lib/log';
import { transaction } from '@/server/lib/transaction';
import { payoutStatus, transferPayout } from '@/server/modules/payments';

/**
 * Pays out the due SCHEDULED payouts (due = the show + the partner's payout delay) through the payments
 * provider, each under its own id as the transfer's idempotency key: a run stopped between the transfer
 * and marking the payout PAID repeats the same transfer, never a second one. A seller without an active
 * payout account stays SCHEDULED ("pending payout info") and is paid by a later run once set up.
 */
export async function payDuePayouts(
  // The handle, not a transaction: each payout is paid in its own transaction (and its transfer outside it).
  db: Db,
  limit = 100,
) {
  const due = await db
    .select({
      id: payouts.id,
      partnerId: payouts.partnerId,
      sellerEmail: payouts.sellerEmail,
      amountMinor: payouts.amountMinor,
      currency: payouts.currency,
      paymentId: buyIntentions.paymentId,
    })
    .from(payouts)
    .leftJoin(buyIntentions, eq(buyIntentions.id, payouts.intentionId))
    .where(and(eq(payouts.status, 'SCHEDULED'), lte(payouts.dueAt, sql`now()`)))
    .orderBy(payouts.dueAt)
    .limit(limit);
  const result = { paid: 0, pendingPayoutInfo: 0, failed: 0 };
  for (const p of due) {
    if ((await payoutStatus(p.partnerId, p.sellerEmail, db)) !== 'active') {
      result.pendingPayoutInfo += 1;
      continue;
    }
    try {
      const paid = await transaction(async ({ tx }) => {
        // The guard: the payout row stays locked while its money moves, and must still be SCHEDULED
        // under that lock. A refund or a show cancellation that cancelled it first is seen here (no
        // transfer); one that comes while it is paid waits for this commit, then finds it PAID and
        // leaves it. Another run paying it at this moment is skipped, not waited for.
        const [claimed] = await tx
          .select({ id: payouts.id })
          .from(payouts)
          .where(and(eq(payouts.id, p.id), eq(payouts.status, 'SCHEDULED')))
          .for('no key update', { skipLocked: true });
        if (!claimed) return false;
        if (p.amountMinor > 0) {
          // Recorded outside this transaction under the payout's id as its key: a run that dies before
          // its commit leaves the payout SCHEDULED, and the next run finds this transfer, not a new one.
          const transfer = await transferPayout(
            p.partnerId,
            {
              sellerEmail: p.sellerEmail,
              amountMinor: p.amountMinor,
              currency: p.currency,
              idempotencyKey: p.id,
              ...(p.paymentId ? { paymentId: p.paymentId } : {}),
            },
            db,
          );
          if (transfer.status === 'failed') throw new Error(`transfer ${transfer.id} failed`);
        }
        await tx
          .update(payouts)
          .set({ status: 'PAID', paidAt: sql`now()` })
          .where(eq(payouts.id, p.id));
        return true;
      }, db);
      if (paid) result.paid += 1;
    } catch (err) {
      result.failed += 1;
      log.warn('a payout could not be paid; the next run tries again', { payoutId: p.id, ...errorFields(err) });
    }
  }
  return result;
}
