import { and, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import { type Db, type DbOrTx, getDb, type Tx } from '@/db';
import {
  type PaymentProviderName,
  type PaymentStatus,
  payments,
  refunds,
  sellerAccounts,
  transfers,
} from '@/db/schema/payments';
import { publicBaseUrl } from '@/server/env';
import { AppError, conflict, notFound } from '@/server/lib/errors';
import { newId, sha256Hex } from '@/server/lib/ids';
import { errorFields, log } from '@/server/lib/log';
import { transaction, type Work } from '@/server/lib/transaction';
import {
  notifyPaymentFailed,
  notifyPaymentSucceeded,
  notifyPayoutAccountActivated,
  type PaymentRefusal,
  paymentAttemptRefusal,
} from './events';
import { type PaymentLine, providerFor, providerNameFor } from './provider';
import {
  payoutAccountInput,
  type PayoutAccountInput,
  refundInput,
  type RefundInput,
  startPaymentInput,
  type StartPaymentInput,
  transferInput,
  type TransferInput,
} from './schemas';

export type Payment = typeof payments.$inferSelect;
export type Refund = typeof refunds.$inferSelect;
export type SellerAccount = typeof sellerAccounts.$inferSelect;
export type Transfer = typeof transfers.$inferSelect;

/** Statuses in which a payment can still be paid. */
const OPEN_STATUSES: PaymentStatus[] = ['pending', 'requires_action'];

// ---------------------------------------------------------------------------------------------------
// Payments

/**
 * Opens a payment for a reference and answers where the buyer pays. One open payment per reference:
 * asking again with the same amount answers the open one; another amount is a conflict. An open
 * payment whose time ran out is expired first (its failed listeners run). With `within`, the payment
 * row belongs to the caller's transaction (a buy intention and its payment commit together).
 */
export async function startPayment(
  partnerId: string,
  input: StartPaymentInput,
  within?: Work | Db,
  opts: { lines?: (tx: Tx) => Promise<PaymentLine[]> } = {},
): Promise<{ payment: Payment; url: string }> {
  const data = startPaymentInput.parse(input);
  return transaction(async (work) => {
    const { tx } = work;
    // Asked on the transaction's own connection: called inside a buy intention's transaction, a read on
    // another pool connection waited for a free one while every connection's transaction waited for it
    // (a rush of buyers held all of them: issue 34's bench stood still).
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
  within?: Work | Db,
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
  });
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
  within?: Work | Db,
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
export async function expireDuePayments(limit = 200): Promise<number> {
  const due = await getDb()
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
    if (await closePayment(id, 'expired', 'The checkout expired before it was paid')) expired++;
  }
  return expired;
}

// ---------------------------------------------------------------------------------------------------
// Refunds

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
export async function sendRefund(refund: Refund, payment: Payment): Promise<Refund> {
  let answer: Awaited<ReturnType<typeof askProviderToRefund>>;
  try {
    answer = await askProviderToRefund(refund, payment);
  } catch (err) {
    await settleRefund(refund.id, { status: 'failed', failureReason: (err as Error).message });
    throw err;
  }
  return (await settleRefund(refund.id, answer)) ?? refund;
}

/**
 * Refunds a paid payment (see `reserveRefund`): the refund is reserved under the payment's row lock in
 * its own transaction, then sent to the provider. A provider failure throws a bad gateway.
 */
export async function refundPayment(partnerId: string, input: RefundInput): Promise<Refund> {
  const reserved = await transaction(({ tx }) => reserveRefund(tx, partnerId, input));
  if ('earlier' in reserved) return reserved.earlier;
  return sendRefund(reserved.refund, reserved.payment);
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
export async function resendUnansweredRefunds(limit = 50): Promise<{ resent: number; unanswered: number }> {
  const db = getDb();
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
      await settleRefund(refund.id, await askProviderToRefund(refund, payment));
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
  });
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

// ---------------------------------------------------------------------------------------------------
// Seller payout accounts

/** What a seller's payouts wait for: no account yet, onboarding not finished ("pending payout info"), or none. */
export type PayoutStatus = 'none' | 'pending' | 'active';

/** A seller's payout account with the current provider, or null. */
export async function getPayoutAccount(
  partnerId: string,
  sellerEmail: string,
  db: DbOrTx,
): Promise<SellerAccount | null> {
  const [row] = await db
    .select()
    .from(sellerAccounts)
    .where(
      and(
        eq(sellerAccounts.partnerId, partnerId),
        eq(sellerAccounts.provider, await providerNameFor(partnerId, db)),
        eq(sellerAccounts.sellerEmail, sellerEmail.trim().toLowerCase()),
      ),
    );
  return row ?? null;
}

export async function payoutStatus(partnerId: string, sellerEmail: string, db: DbOrTx): Promise<PayoutStatus> {
  return (await getPayoutAccount(partnerId, sellerEmail, db))?.status ?? 'none';
}

/**
 * Sets up a seller's payout account (once per seller, partner and provider) and answers the onboarding
 * URL while it is pending ("pending payout info"); an active account answers no URL.
 */
export async function setUpPayoutAccount(
  partnerId: string,
  input: PayoutAccountInput,
): Promise<{ account: SellerAccount; onboardingUrl: string | null }> {
  const data = payoutAccountInput.parse(input);
  const email = data.sellerEmail.trim().toLowerCase();
  const provider = providerFor(await providerNameFor(partnerId, getDb()));
  let account = await getPayoutAccount(partnerId, email, getDb());
  if (!account) {
    const id = newId('sac');
    // A stable key: two set-ups at once (or a retry) get the same provider account back.
    const idempotencyKey = `encore-seller-${sha256Hex(`${partnerId}\n${email}`).slice(0, 40)}`;
    const { accountRef } = await provider.createSellerAccount({
      sellerAccountId: id,
      partnerId,
      sellerEmail: email,
      idempotencyKey,
    });
    await getDb()
      .insert(sellerAccounts)
      .values({ id, partnerId, sellerEmail: email, provider: provider.name, accountRef })
      .onConflictDoNothing();
    account = (await getPayoutAccount(partnerId, email, getDb()))!;
  }
  if (account.status === 'active') return { account, onboardingUrl: null };
  const onboardingUrl = await provider.onboardingUrl({
    sellerAccountId: account.id,
    accountRef: account.accountRef,
    returnUrl: data.returnUrl,
    refreshUrl: data.refreshUrl ?? data.returnUrl,
  });
  [account] = await getDb()
    .update(sellerAccounts)
    .set({ returnUrl: data.returnUrl, updatedAt: sql`now()` })
    .where(eq(sellerAccounts.id, account.id))
    .returning();
  return { account, onboardingUrl };
}

/** The sandbox onboarding page's view of an account, by its id alone (the link the seller was given). */
export async function sellerAccountForOnboarding(id: string, db: DbOrTx): Promise<SellerAccount | null> {
  const [row] = await db.select().from(sellerAccounts).where(eq(sellerAccounts.id, id));
  return row ?? null;
}

/**
 * Records what the provider says about an account (onboarding finished, or payouts disabled again).
 * Becoming active runs the activation listeners in the same transaction. Answers the account, or null
 * when no account has that reference.
 */
export async function setSellerAccountActive(
  provider: PaymentProviderName,
  accountRef: string,
  active: boolean,
): Promise<SellerAccount | null> {
  return transaction(async (work) => {
    const [changed] = await work.tx
      .update(sellerAccounts)
      .set({
        status: active ? 'active' : 'pending',
        activatedAt: active ? sql`now()` : null,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(sellerAccounts.provider, provider),
          eq(sellerAccounts.accountRef, accountRef),
          ne(sellerAccounts.status, active ? 'active' : 'pending'),
        ),
      )
      .returning();
    if (changed?.status === 'active') {
      await notifyPayoutAccountActivated(work, changed);
    }
    if (changed) return changed;
    const [row] = await work.tx
      .select()
      .from(sellerAccounts)
      .where(and(eq(sellerAccounts.provider, provider), eq(sellerAccounts.accountRef, accountRef)));
    return row ?? null;
  });
}

// ---------------------------------------------------------------------------------------------------
// Transfers (payouts)

/**
 * Pays a seller out, idempotently by the caller's key: the same key answers the same transfer (a paid
 * one at once; a pending or failed one is tried again, the provider deduping on our transfer id), the
 * same key with another amount, currency or seller is a conflict. A seller without an active payout
 * account is "pending payout info": nothing is recorded and a conflict is thrown. The provider may send
 * less than the amount (Stripe rounds down to what it pays out): what it sent is recorded as `sentMinor`.
 */
export async function transferPayout(partnerId: string, input: TransferInput): Promise<Transfer> {
  const data = transferInput.parse(input);
  const account = await getPayoutAccount(partnerId, data.sellerEmail, getDb());
  if (!account || account.status !== 'active') {
    throw new AppError('CONFLICT', 'The seller is pending payout info: their payout account is not set up yet');
  }
  if (data.paymentId) await getPayment(partnerId, data.paymentId, getDb());
  const db = getDb();
  await db
    .insert(transfers)
    .values({
      id: newId('trf'),
      partnerId,
      sellerAccountId: account.id,
      amountMinor: data.amountMinor,
      currency: data.currency,
      idempotencyKey: data.idempotencyKey,
      paymentId: data.paymentId ?? null,
    })
    .onConflictDoNothing();
  const [transfer] = await db
    .select()
    .from(transfers)
    .where(and(eq(transfers.partnerId, partnerId), eq(transfers.idempotencyKey, data.idempotencyKey)));
  if (
    transfer.sellerAccountId !== account.id ||
    transfer.amountMinor !== data.amountMinor ||
    transfer.currency !== data.currency
  ) {
    throw conflict('This idempotency key was used for another transfer (seller, amount or currency differ)');
  }
  if (transfer.status === 'paid') return transfer;
  let sent: { providerRef: string | null; sentMinor: number };
  try {
    sent = await providerFor(account.provider).transfer({
      transferId: transfer.id,
      accountRef: account.accountRef,
      amountMinor: transfer.amountMinor,
      currency: transfer.currency,
      idempotencyKey: `encore-transfer-${transfer.id}`,
      transferGroup: transfer.paymentId,
    });
  } catch (err) {
    log.warn('a payout transfer failed', { transferId: transfer.id, ...errorFields(err) });
    await db
      .update(transfers)
      .set({ status: 'failed', failureReason: (err as Error).message, updatedAt: sql`now()` })
      .where(and(eq(transfers.id, transfer.id), ne(transfers.status, 'paid')));
    throw err;
  }
  const [paid] = await db
    .update(transfers)
    .set({
      status: 'paid',
      providerRef: sent.providerRef,
      sentMinor: sent.sentMinor,
      failureReason: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(transfers.id, transfer.id), ne(transfers.status, 'paid')))
    .returning();
  if (paid) return paid;
  // A concurrent call with the same key recorded it first: answer its record.
  const [row] = await db.select().from(transfers).where(eq(transfers.id, transfer.id));
  return row;
}
