import type { payments, sellerAccounts } from '@/db/schema/payments';
import { domainEvent } from '@/server/lib/domain-event';
import type { Work } from '@/server/lib/transaction';

/*
 * The payments module's domain events. The modules above it (the marketplace) subscribe by name in
 * server/wiring.ts (their handlers are in server/modules/<module>/reactions/<event>.ts); payments never
 * imports them. None is required: a payment for a purpose no module follows is still a payment.
 */

type Payment = typeof payments.$inferSelect;
type SellerAccount = typeof sellerAccounts.$inferSelect;

/** What a module above does when a payment is paid (or fails), in the same transaction as the change. */
export type PaymentListener = (work: Work, payment: Payment) => Promise<void>;
/** What a module above does when a seller's payout account becomes active (e.g. release waiting payouts). */
export type PayoutAccountListener = (work: Work, account: SellerAccount) => Promise<void>;

/**
 * Payment succeeded: an open payment became paid (`markPaymentPaid`: the Stripe webhook, the sandbox
 * checkout), once, in the transaction that marks it paid. A listener that throws leaves the payment
 * unpaid and the confirmation fails (a Stripe webhook answers 500 and Stripe sends it again). Listeners
 * look at `purpose`.
 */
const succeeded = domainEvent<Parameters<PaymentListener>>('Payment succeeded', { required: false });

export function onPaymentSucceeded(name: string, listener: PaymentListener): void {
  succeeded.subscribe(name, listener);
}

export function notifyPaymentSucceeded(work: Work, payment: Payment): Promise<void> {
  return succeeded.publish(work, payment);
}

/** Payment failed: an open payment can no longer be paid (`failed` or `expired`), in the transaction that closes it. */
const failed = domainEvent<Parameters<PaymentListener>>('Payment failed', { required: false });

export function onPaymentFailed(name: string, listener: PaymentListener): void {
  failed.subscribe(name, listener);
}

export function notifyPaymentFailed(work: Work, payment: Payment): Promise<void> {
  return failed.publish(work, payment);
}

/** Payout account activated: the provider says a seller's account can be paid, in the transaction recording it. */
const accountActivated = domainEvent<Parameters<PayoutAccountListener>>('Payout account activated', {
  required: false,
});

export function onPayoutAccountActivated(name: string, listener: PayoutAccountListener): void {
  accountActivated.subscribe(name, listener);
}

export function notifyPayoutAccountActivated(work: Work, account: SellerAccount): Promise<void> {
  return accountActivated.publish(work, account);
}

/** Why a payment must not be taken now: a code the checkout words in the fan's language, a reason for staff. */
export interface PaymentRefusal {
  code: 'hold_ended' | 'show_cancelled';
  reason: string;
}
/**
 * What a module above checks before a payment on our own checkout is taken (the buyer's hold still
 * stands), in the paying transaction; it locks what it reads. Null: take it.
 */
export type PaymentAttemptCheck = (work: Work, payment: Payment) => Promise<PaymentRefusal | null>;

/**
 * Payment attempt: a question rather than a notice. Before our own checkout (`takePayment`) charges a
 * card, in its transaction with the payment locked, each check is asked in turn; the first refusal
 * closes the payment failed, uncharged.
 */
const attemptChecks = new Map<string, PaymentAttemptCheck>();

/** Subscribes a check (by name; again: replaces). */
export function onPaymentAttempt(name: string, check: PaymentAttemptCheck): void {
  attemptChecks.set(name, check);
}

/** The first check's refusal of this payment, or null when every check lets it be taken. */
export async function paymentAttemptRefusal(work: Work, payment: Payment): Promise<PaymentRefusal | null> {
  for (const check of attemptChecks.values()) {
    const refusal = await check(work, payment);
    if (refusal) return refusal;
  }
  return null;
}
