import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '@/db';
import { buyIntentions } from '@/db/schema/marketplace';
import { conflict, notFound } from '@/server/lib/errors';
import { fromMinorUnits } from '@/server/lib/money';
import { transaction } from '@/server/lib/transaction';
import { type AuditActor, recordAudit } from '@/server/modules/audit';
import { errorFields, log } from '@/server/lib/log';
import { getPayment, type Payment, reserveRefund, sendRefund } from '@/server/modules/payments';
import { REFUND_PURCHASE_JOB } from './intentions';
import { recordPurchaseRefund } from './refunds';

/**
 * Staff refund a partner's purchase (the dashboard's market page); the lists beside it are staff reads,
 * in ops (market-lists.ts).
 */

const partnerId = z.string().min(1);

const money = (minor: number, currency: string) => fromMinorUnits(minor, currency) ?? 0;
const isRefunded = (payment: Payment | null) =>
  payment !== null &&
  (payment.refundedMinor > 0 || payment.status === 'refunded' || payment.status === 'partially_refunded');

export const refundPurchaseInput = z.object({
  partnerId,
  intentionId: z.string().trim().min(1).max(100),
  reason: z.string().trim().min(1, 'Say why the purchase is refunded').max(500),
  staffEmail: z.email(),
});
export type RefundPurchaseInput = z.input<typeof refundPurchaseInput>;

const staffRefundId = (intentionId: string) => `rfd_${intentionId}_staff`;

/** The staff refund in the audit log, in its deciding transaction: who, the reason and the amount. */
async function recordStaffRefund(
  tx: Tx,
  actor: AuditActor,
  q: { partnerId: string; intentionId: string; reason: string },
  refund: { id: string; amountMinor: number; currency: string },
) {
  await recordAudit(tx, {
    actor,
    partnerId: q.partnerId,
    action: 'purchase.refunded',
    target: { type: 'purchase', id: q.intentionId },
    before: { refunded: false },
    after: {
      refunded: true,
      reason: q.reason,
      refundId: refund.id,
      amountMinor: refund.amountMinor,
      currency: refund.currency,
    },
  });
}

/**
 * Staff refund a completed purchase, once. In one transaction, with the purchase locked (FOR UPDATE): it
 * must be COMPLETED and not refunded yet; the whole payment's refund is reserved under the payment's lock
 * (reserveRefund: the amount guard for the money); and recordPurchaseRefund marks it refunded with a
 * conditional UPDATE, moves the sellers' SCHEDULED payouts to CANCELLED (so payDuePayouts, which claims a
 * payout under its row lock, can no longer pay it; one being paid at this moment is waited for and then
 * reported as paid), mails the buyer and those sellers and queues `ticket.refunded`. Only after the
 * commit is the provider asked for the money; if it fails, a job retries under the same refund id. Of
 * many refunds at once, one gets through and the others are a 409. The listings stay SOLD and the tickets
 * the buyer's: what happens to the tickets is the partner's call on that webhook.
 */
export async function refundPurchase(
  input: RefundPurchaseInput,
  // The handle, not a transaction: the refund commits first, the provider is asked after it.
  db: Db,
  actor?: AuditActor,
) {
  const q = refundPurchaseInput.parse(input);
  const reason = `${q.reason} (by ${q.staffEmail})`;
  const decided = await transaction(async (work) => {
    const { tx } = work;
    const [intention] = await tx
      .select()
      .from(buyIntentions)
      .where(and(eq(buyIntentions.partnerId, q.partnerId), eq(buyIntentions.id, q.intentionId)))
      .for('update');
    if (!intention) throw notFound('Purchase not found');
    if (intention.status !== 'COMPLETED' || !intention.paymentId) {
      throw conflict(`Only a completed purchase can be refunded; this one is ${intention.status.toLowerCase()}`);
    }
    if (intention.refundedAt) throw conflict('This purchase has already been refunded');
    const payment = await getPayment(q.partnerId, intention.paymentId, tx);
    if (isRefunded(payment)) throw conflict('This purchase has already been refunded');
    const reserved = await reserveRefund(tx, q.partnerId, {
      paymentId: payment.id,
      reason,
      refundId: staffRefundId(intention.id),
    });
    if ('earlier' in reserved) throw conflict('This purchase has already been refunded');
    const recorded = await recordPurchaseRefund(work, q.partnerId, intention.id, {
      reason: 'STAFF_REFUND',
      text: q.reason,
      endReason: `Refunded: ${q.reason}`,
      amountMinor: reserved.refund.amountMinor,
    });
    // Under the purchase's lock it was COMPLETED and not refunded: the conditional update cannot miss.
    if (!recorded) throw conflict('This purchase has already been refunded');
    if (actor) await recordStaffRefund(tx, actor, q, reserved.refund);
    return { intention, recorded, ...reserved };
  }, db);

  let refund = decided.refund;
  let retrying = false;
  try {
    refund = await sendRefund(decided.refund, decided.payment, db);
  } catch (err) {
    // The purchase is refunded in our books and everyone told: the money is retried by a job under the
    // same refund id (a failed refund is tried again under it), never a second refund.
    log.warn('a staff refund failed at the provider; a job retries it', {
      intentionId: decided.intention.id,
      refundId: decided.refund.id,
      ...errorFields(err),
    });
    await transaction(async ({ after }) => {
      after.job(REFUND_PURCHASE_JOB, {
        partnerId: q.partnerId,
        paymentId: decided.payment.id,
        reason,
        refundId: decided.refund.id,
      });
    }, db);
    retrying = true;
  }
  return {
    intentionId: decided.intention.id,
    paymentId: decided.payment.id,
    refundId: refund.id,
    refundStatus: retrying ? ('failed' as const) : refund.status,
    /** The provider failed; a job tries again under the same refund id. */
    retrying,
    refunded: money(refund.amountMinor, refund.currency),
    currency: refund.currency,
    cancelledPayouts: decided.recorded.cancelledPayouts,
    /** Payouts already paid to the seller before this refund: to recover from them. */
    paidPayouts: decided.recorded.paidPayouts,
    messageId: decided.recorded.messageId,
  };
}
