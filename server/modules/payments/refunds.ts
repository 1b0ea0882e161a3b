import { and, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '@/db';
import { payments, refunds } from '@/db/schema/payments';
import { conflict, notFound } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { errorFields, log } from '@/server/lib/log';
import { transaction, type Work } from '@/server/lib/transaction';
import { providerFor } from './providers';
import { refundInput, type RefundInput } from './schemas';
import type { Payment } from './payments';

export type Refund = typeof refunds.$inferSelect;

/**
 * Reserves a refund of a paid payment under the payment's row lock, in the caller's transaction: whole
 * (no amount: everything not refunded yet) or in part, with a reason. Pending and succeeded refunds
 * count as reserved, so two reservations at once never exceed what was paid. With the caller's
 * `refundId`, a refund already reserved (and not failed) under it is answered as `earlier`; one that
 * failed is reserved again under that id. Nothing is asked of the provider here: see `sendRefund`.
 */
export async function reserveRefund(
  tx: Tx,
  partnerId: string,
  input: RefundInput,
): Promise<{ earlier: Refund } | { refund: Refund; payment: Payment }> {
  const data = refundInput.parse(input);
  const [payment] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.partnerId, partnerId), eq(payments.id, data.paymentId)))
    .for('update');
  if (!payment) throw notFound('Payment not found');
  if (data.refundId) {
    const [earlier] = await tx
      .select()
      .from(refunds)
      .where(and(eq(refunds.id, data.refundId), eq(refunds.paymentId, payment.id), ne(refunds.status, 'failed')));
    if (earlier) return { earlier };
  }
  if (payment.status !== 'paid' && payment.status !== 'partially_refunded') {
    throw conflict(`Only a paid payment can be refunded; this one is ${payment.status.replace('_', ' ')}`);
  }
  const [{ reserved }] = await tx
    .select({ reserved: sql<number>`coalesce(sum(${refunds.amountMinor}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, payment.id), ne(refunds.status, 'failed')));
  const left = payment.amountMinor - reserved;
  const amount = data.amountMinor ?? left;
  if (amount <= 0 || amount > left) {
    throw conflict(`At most ${left} ${payment.currency} (minor units) of this payment can still be refunded`);
  }
  const [refund] = await tx
    .insert(refunds)
    .values({
      id: data.refundId ?? newId('rfd'),
      partnerId,
      paymentId: payment.id,
      amountMinor: amount,
      currency: payment.currency,
      reason: data.reason,
    })
    .onConflictDoUpdate({
      // The caller's id of a refund that failed before: asked again, it is tried again under that id.
      target: refunds.id,
      set: { amountMinor: amount, status: 'pending', failureReason: null, updatedAt: sql`now()` },
    })
    .returning();
  return { refund, payment };
}

/** The refund asked of the payment's provider, under the refund's own id (its idempotency key at Stripe). */
function askProviderToRefund(refund: Refund, payment: Payment) {
  return providerFor(payment.provider).refund({
    refundId: refund.id,
    paymentId: payment.id,
    providerPaymentRef: payment.providerPaymentRef,
    amountMinor: refund.amountMinor,
    currency: refund.currency,
    reason: refund.reason,
  });
}

/**
 * Asks the provider for a refund reserved by `reserveRefund` (after its commit, outside any
 * transaction) and records the answer. The provider dedupes on the refund's id, so sending a reserved
 * refund again never refunds twice. A provider failure records the refund as failed (its amount is
 * free again) and throws.
 */
export async function sendRefund(
  refund: Refund,
  payment: Payment,
  // The handle, not a transaction: the provider is asked after the reservation's commit.
  db: Db,
): Promise<Refund> {
  let answer: Awaited<ReturnType<typeof askProviderToRefund>>;
  try {
    answer = await askProviderToRefund(refund, payment);
  } catch (err) {
    await settleRefund(refund.id, { status: 'failed', failureReason: (err as Error).message }, db);
    throw err;
  }
  return (await settleRefund(refund.id, answer, db)) ?? refund;
}

/**
 * Refunds a paid payment (see `reserveRefund`): the refund is reserved under the payment's row lock in
 * its own transaction, then sent to the provider. A provider failure throws a bad gateway.
 */
export async function refundPayment(partnerId: string, input: RefundInput, db: Db): Promise<Refund> {
  const reserved = await transaction(({ tx }) => reserveRefund(tx, partnerId, input), db);
  if ('earlier' in reserved) return reserved.earlier;
  return sendRefund(reserved.refund, reserved.payment, db);
}

/** A refund reserved and never answered by the provider is sent again once it is this old… */
const REFUND_RESEND_AFTER_MINUTES = 10;
/**
 * …and while it is younger than this: Stripe answers a repeated idempotency key with its first answer for
 * 24 hours; past that a resend could refund twice, so an older one is left for staff (it stays `pending`).
 */
const REFUND_RESEND_WITHIN_HOURS = 23;

/**
 * Sends again the refunds that were reserved but never answered: the process stopped between the
 * reservation and the provider's answer, and a rerun of the job with the same refundId finds the pending
 * row and does not send it (reserveRefund). Each due refund is claimed by moving its `updated_at` in one
 * conditional UPDATE (the condition checked again on the locked row), so sweeps running at once send each
 * refund once; the provider call carries the refund's own idempotency key, as the first one did. A call
 * that fails leaves the refund pending for the next sweep. Answers how many were sent and answered.
 */
export async function resendUnansweredRefunds(
  // The handle, not a transaction: the claim commits before the provider is asked.
  db: Db,
  limit = 50,
): Promise<{ resent: number; unanswered: number }> {
  const due = and(
    eq(refunds.status, 'pending'),
    isNull(refunds.providerRef),
    lt(refunds.updatedAt, sql`now() - make_interval(mins => ${REFUND_RESEND_AFTER_MINUTES})`),
    gt(refunds.createdAt, sql`now() - make_interval(hours => ${REFUND_RESEND_WITHIN_HOURS})`),
  );
  const claimed = await db
    .update(refunds)
    .set({ updatedAt: sql`now()` })
    .where(
      and(
        inArray(
          refunds.id,
          db.select({ id: refunds.id }).from(refunds).where(due).orderBy(refunds.createdAt).limit(limit).for('update', {
            skipLocked: true,
          }),
        ),
        due,
      ),
    )
    .returning();
  let resent = 0;
  let unanswered = 0;
  for (const refund of claimed) {
    const [payment] = await db.select().from(payments).where(eq(payments.id, refund.paymentId));
    try {
      await settleRefund(refund.id, await askProviderToRefund(refund, payment), db);
      resent++;
    } catch (err) {
      unanswered++;
      log.warn('an unanswered refund could not be sent again; the next sweep tries', {
        refundId: refund.id,
        ...errorFields(err),
      });
    }
  }
  if (claimed.length) log.info('unanswered refunds sent again', { resent, unanswered });
  return { resent, unanswered };
}

/**
 * Records a refund's outcome (the provider's answer, or a later webhook): a refund that succeeds adds
 * to the payment's refunded amount and makes it `refunded` or `partially_refunded`. Settling twice
 * changes nothing.
 */
export async function settleRefund(
  refundId: string,
  outcome: { status: 'succeeded' | 'pending' | 'failed'; providerRef?: string; failureReason?: string },
  within: Work | Db,
): Promise<Refund | null> {
  return transaction(async ({ tx }) => {
    const [refund] = await tx
      .update(refunds)
      .set({
        status: outcome.status,
        failureReason: outcome.failureReason ?? null,
        updatedAt: sql`now()`,
        ...(outcome.providerRef ? { providerRef: outcome.providerRef } : {}),
      })
      .where(and(eq(refunds.id, refundId), eq(refunds.status, 'pending')))
      .returning();
    if (!refund) return null;
    if (refund.status === 'succeeded') {
      await tx
        .update(payments)
        .set({
          refundedMinor: sql`${payments.refundedMinor} + ${refund.amountMinor}`,
          status: sql`case when ${payments.refundedMinor} + ${refund.amountMinor} >= ${payments.amountMinor} then 'refunded' else 'partially_refunded' end`,
          updatedAt: sql`now()`,
        })
        .where(eq(payments.id, refund.paymentId));
    }
    return refund;
  }, within);
}

/** A refund by the provider's reference (webhooks name refunds that way). */
export async function refundByProviderRef(providerRef: string, db: DbOrTx): Promise<Refund | null> {
  const [row] = await db.select().from(refunds).where(eq(refunds.providerRef, providerRef));
  return row ?? null;
}

/** A payment's refunds, oldest first. */
export async function refundsOf(partnerId: string, paymentId: string, db: DbOrTx): Promise<Refund[]> {
  return db
    .select()
    .from(refunds)
    .where(and(eq(refunds.partnerId, partnerId), eq(refunds.paymentId, paymentId)))
    .orderBy(refunds.createdAt);
}
