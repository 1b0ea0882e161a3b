import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { type Db, type DbOrTx, type Tx } from '@/db';
import { type PaymentProviderName, type PaymentStatus, payments } from '@/db/schema/payments';
import { publicBaseUrl } from '@/server/env';
import { conflict, notFound } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { errorFields, log } from '@/server/lib/log';
import { transaction, type Work } from '@/server/lib/transaction';
import { notifyPaymentFailed, notifyPaymentSucceeded, type PaymentRefusal, paymentAttemptRefusal } from './events';
import type { PaymentLine } from './provider';
import { providerFor, providerNameFor } from './providers';
import { startPaymentInput, type StartPaymentInput } from './schemas';

export type Payment = typeof payments.$inferSelect;

/** Statuses in which a payment can still be paid. */
const OPEN_STATUSES: PaymentStatus[] = ['pending', 'requires_action'];

/**
 * Opens a payment for a reference and answers where the buyer pays. One open payment per reference:
 * asking again with the same amount answers the open one; another amount is a conflict. An open
 * payment whose time ran out is expired first (its failed listeners run). With `within`, the payment
 * row belongs to the caller's transaction (a buy intention and its payment commit together).
 */
export async function startPayment(
  partnerId: string,
  input: StartPaymentInput,
  within: Work | Db,
  opts: { lines?: (tx: Tx) => Promise<PaymentLine[]> } = {},
): Promise<{ payment: Payment; url: string }> {
  const data = startPaymentInput.parse(input);
  return transaction(async (work) => {
    const { tx } = work;
    // Asked on the transaction's own connection: called inside a buy intention's transaction, a read on
    // another pool connection waited for a free one while every connection's transaction waited for it
    // (a rush of buyers held all of them: the onsale-peak bench stood still).
    const provider = providerFor(await providerNameFor(partnerId, tx));
    const scope = and(
      eq(payments.partnerId, partnerId),
      eq(payments.purpose, data.purpose),
      eq(payments.reference, data.reference),
      inArray(payments.status, OPEN_STATUSES),
    );
    const id = data.id ?? newId('pay');
    const successUrl = data.successUrl ?? `${publicBaseUrl()}/pay/${id}`;
    const insert = () =>
      tx
        .insert(payments)
        .values({
          id,
          partnerId,
          purpose: data.purpose,
          reference: data.reference,
          description: data.description,
          amountMinor: data.amountMinor,
          currency: data.currency,
          buyerEmail: data.buyerEmail,
          provider: provider.name,
          successUrl,
          cancelUrl: data.cancelUrl ?? successUrl,
          expiresAt: new Date(Date.now() + data.expiresInMinutes * 60_000),
          checkoutUrl: provider.localCheckoutUrl?.(id) ?? null,
        })
        .onConflictDoNothing()
        .returning();
    let [row] = await insert();
    if (!row) {
      // An open payment holds the reference: one whose time ran out is expired first, then this one opens.
      const stale = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(and(scope, lt(payments.expiresAt, sql`now()`)));
      for (const s of stale) await closePayment(s.id, 'expired', 'The checkout expired before it was paid', work);
      if (stale.length) [row] = await insert();
    }
    if (!row) {
      // Another start for this reference won the race (or was open already): answer it when it matches.
      const [open] = await tx.select().from(payments).where(scope);
      if (open && open.amountMinor === data.amountMinor && open.currency === data.currency && open.checkoutUrl) {
        return { payment: open, url: open.checkoutUrl };
      }
      throw conflict(
        open
          ? `An open payment (${open.id}) of ${open.amountMinor} ${open.currency} exists for this reference`
          : 'A payment for this reference is being opened; try again',
      );
    }
    if (row.checkoutUrl) return { payment: row, url: row.checkoutUrl };
    const checkout = await provider.startCheckout({
      paymentId: row.id,
      partnerId,
      description: row.description,
      lines: opts.lines ? linesAddingUp(await opts.lines(tx), row) : undefined,
      amountMinor: row.amountMinor,
      currency: row.currency,
      buyerEmail: row.buyerEmail,
      successUrl: row.successUrl,
      cancelUrl: row.cancelUrl,
      expiresAt: row.expiresAt,
    });
    const [payment] = await tx
      .update(payments)
      .set({ providerRef: checkout.providerRef, checkoutUrl: checkout.url, expiresAt: checkout.expiresAt })
      .where(eq(payments.id, row.id))
      .returning();
    return { payment, url: checkout.url };
  }, within);
}

/**
 * The caller's checkout lines when they add up to the payment's amount; else none (the checkout then shows
 * the description as one line: a buyer never reads lines that disagree with what they are charged).
 */
function linesAddingUp(lines: PaymentLine[], payment: Payment): PaymentLine[] | undefined {
  const sum = lines.reduce((n, l) => n + l.unitAmountMinor * l.quantity, 0);
  if (lines.length && sum === payment.amountMinor) return lines;
  log.warn('checkout lines do not add up to the payment: one line sent', {
    paymentId: payment.id,
    sum,
    amountMinor: payment.amountMinor,
  });
  return undefined;
}

/** A partner's payment (another partner's answers 404). */
export async function getPayment(partnerId: string, paymentId: string, db: DbOrTx): Promise<Payment> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.partnerId, partnerId), eq(payments.id, paymentId)));
  if (!row) throw notFound('Payment not found');
  return row;
}

/**
 * The hosted checkout's view of a payment, found by its id alone: the id (~119 random bits) is what the
 * buyer's link carries, like a provider's checkout URL. Internal to the checkout pages.
 */
export async function paymentForCheckout(paymentId: string, db: DbOrTx): Promise<Payment | null> {
  const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
  return row ?? null;
}

/**
 * Marks a payment paid and runs the succeeded listeners, in one transaction. Only an open payment
 * becomes paid: the conditional update makes two confirmations at once (a double submit, a webhook
 * delivered twice) pay it once and run the listeners once; the later one answers null.
 */
export async function markPaymentPaid(
  paymentId: string,
  confirm: { provider: PaymentProviderName; providerPaymentRef?: string | null },
  within: Work | Db,
): Promise<Payment | null> {
  return transaction(async (work) => {
    const [row] = await work.tx
      .update(payments)
      .set({
        status: 'paid',
        paidAt: sql`now()`,
        updatedAt: sql`now()`,
        failureReason: null,
        ...(confirm.providerPaymentRef ? { providerPaymentRef: confirm.providerPaymentRef } : {}),
      })
      .where(
        and(
          eq(payments.id, paymentId),
          eq(payments.provider, confirm.provider),
          inArray(payments.status, OPEN_STATUSES),
        ),
      )
      .returning();
    if (!row) return null;
    await notifyPaymentSucceeded(work, row);
    log.info('payment paid', { paymentId, partnerId: row.partnerId, provider: row.provider });
    return row;
  }, within);
}

/**
 * Takes a payment on a checkout of our own (the sandbox's card form), only if it is still wanted: in one
 * transaction the open payment is locked, the modules above are asked (a buy intention whose hold a show
 * cancellation ended says no), then it is marked paid, or closed as failed with the refusal's reason
 * before any card is charged. Answers null when the payment is not open (paid or closed meanwhile), busy
 * while another submit of it is being taken.
 */
export async function takePayment(
  paymentId: string,
  confirm: { provider: PaymentProviderName; providerPaymentRef?: string | null },
  within: Work | Db,
): Promise<{ paid: Payment } | { refused: PaymentRefusal } | { busy: true } | null> {
  return transaction(async (work) => {
    // SKIP LOCKED: a second submit of the same payment does not wait on the row holding a connection
    // (twenty at once would fill the pool while the first needs one more); it answers busy and waits
    // for the outcome outside any transaction (see the sandbox's charge).
    const [open] = await work.tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, paymentId), inArray(payments.status, OPEN_STATUSES)))
      .for('update', { skipLocked: true });
    if (!open) {
      const [still] = await work.tx
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.id, paymentId), inArray(payments.status, OPEN_STATUSES)));
      return still ? { busy: true as const } : null;
    }
    const refusal = await paymentAttemptRefusal(work, open);
    if (refusal) {
      await closePayment(open.id, 'failed', refusal.reason, work);
      return { refused: refusal };
    }
    const paid = await markPaymentPaid(open.id, confirm, work);
    return paid ? { paid } : null;
  }, within);
}

/**
 * The buyer must no longer pay this reference (a show cancellation ended the hold): after the commit, a
 * provider's hosted checkout that is still open is expired at the provider (Stripe: the Checkout Session),
 * so the card is never asked for. Our own checkout needs nothing: `takePayment` asks again. A payment that
 * still completes at the provider (paid a moment before) is handled by the succeeded listeners as any late
 * payment (refused and refunded).
 */
export async function stopCheckout(work: Work, partnerId: string, purpose: string, reference: string): Promise<void> {
  const open = await work.tx
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.partnerId, partnerId),
        eq(payments.purpose, purpose),
        eq(payments.reference, reference),
        inArray(payments.status, OPEN_STATUSES),
      ),
    );
  for (const p of open) {
    const provider = providerFor(p.provider);
    if (!p.providerRef || !provider.cancelCheckout) continue;
    const ref = p.providerRef;
    work.after.run(async () => {
      try {
        await provider.cancelCheckout!(ref);
      } catch (err) {
        // Already completed or expired at the provider: its webhook tells us which.
        log.warn('a checkout could not be stopped at the provider', { paymentId: p.id, ...errorFields(err) });
      }
    });
  }
}

/** Closes an open payment as `failed` or `expired` and runs the failed listeners, in one transaction. */
export async function closePayment(
  paymentId: string,
  status: 'failed' | 'expired',
  reason: string,
  within: Work | Db,
): Promise<Payment | null> {
  return transaction(async (work) => {
    const [row] = await work.tx
      .update(payments)
      .set({ status, failureReason: reason, updatedAt: sql`now()` })
      .where(and(eq(payments.id, paymentId), inArray(payments.status, OPEN_STATUSES)))
      .returning();
    if (!row) return null;
    await notifyPaymentFailed(work, row);
    return row;
  }, within);
}

/**
 * Expires the sandbox's open payments whose checkout time ran out (Stripe tells us about its own
 * with `checkout.session.expired`). The minute job calls it; each payment closes in its own transaction.
 */
export async function expireDuePayments(db: Db, limit = 200): Promise<number> {
  const due = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        inArray(payments.status, OPEN_STATUSES),
        eq(payments.provider, 'sandbox'),
        lt(payments.expiresAt, sql`now()`),
      ),
    )
    .limit(limit);
  let expired = 0;
  for (const { id } of due) {
    if (await closePayment(id, 'expired', 'The checkout expired before it was paid', db)) expired++;
  }
  return expired;
}
