import type Stripe from 'stripe';
import type { Db } from '@/db';
import { env } from '@/server/env';
import { errorFields, log } from '@/server/lib/log';
import { closePayment, markPaymentPaid, paymentForCheckout } from './payments';
import { setSellerAccountActive } from './payout-accounts';
import { refundByProviderRef, settleRefund } from './refunds';
import { accountIsActive, refundOutcome, stripeClient } from './stripe';
import { fromStripeAmount } from './stripe-units';

/**
 * The Stripe webhook (app/api/payments/stripe/webhook): the only way a Stripe payment becomes paid.
 * The signature is checked over the raw body with STRIPE_WEBHOOK_SECRET; a missing or bad one answers
 * 400 (never 500). A handled event that fails to apply (the database, a listener) throws, so the route
 * answers 500 and Stripe sends it again; applying an event twice changes nothing.
 */
export async function handleStripeWebhook(
  rawBody: Buffer | string,
  signature: string | null,
  db: Db,
): Promise<{ status: number; body: { received: boolean; error?: string; ignored?: string } }> {
  const secret = env().STRIPE_WEBHOOK_SECRET;
  if (!secret || !env().STRIPE_SECRET_KEY) {
    return { status: 400, body: { received: false, error: 'Stripe webhooks are not configured here' } };
  }
  if (!signature) return { status: 400, body: { received: false, error: 'Missing Stripe-Signature header' } };
  let event: Stripe.Event;
  try {
    event = stripeClient().webhooks.constructEvent(rawBody, signature, secret);
  } catch (err) {
    log.warn('a Stripe webhook failed signature verification', errorFields(err));
    return { status: 400, body: { received: false, error: 'Invalid signature' } };
  }
  const ignored = await applyEvent(event, db);
  return { status: 200, body: ignored ? { received: true, ignored } : { received: true } };
}

/** Applies a verified event; answers why it was ignored, if it was. */
async function applyEvent(event: Stripe.Event, db: Db): Promise<string | undefined> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      // Delayed methods complete the session unpaid; their async_payment_succeeded pays it later.
      if (session.payment_status === 'unpaid') return 'not paid yet';
      const payment = await sessionPayment(session, db);
      if (!payment) return 'unknown payment';
      // Stripe's amount in our units (ISK 1100000 at Stripe is our 11000): compared as a number of ours.
      const paidMinor = session.amount_total === null ? null : fromStripeAmount(session.amount_total, payment.currency);
      if (paidMinor !== payment.amountMinor || session.currency?.toUpperCase() !== payment.currency) {
        log.error('a Stripe Checkout Session was paid with another amount than its payment; not marked paid', {
          paymentId: payment.id,
          sessionId: session.id,
          amountTotal: session.amount_total,
          currency: session.currency,
        });
        return 'amount mismatch';
      }
      const intent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
      await markPaymentPaid(payment.id, { provider: 'stripe', providerPaymentRef: intent ?? null }, db);
      return undefined;
    }
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const payment = await sessionPayment(event.data.object, db);
      if (!payment) return 'unknown payment';
      const expired = event.type === 'checkout.session.expired';
      await closePayment(
        payment.id,
        expired ? 'expired' : 'failed',
        expired ? 'The checkout expired before it was paid' : 'The payment failed',
        db,
      );
      return undefined;
    }
    case 'account.updated': {
      const account = event.data.object;
      const row = await setSellerAccountActive('stripe', account.id, accountIsActive(account), db);
      return row ? undefined : 'unknown account';
    }
    case 'refund.updated':
    case 'refund.failed': {
      const refund = event.data.object;
      const row = await refundByProviderRef(refund.id, db);
      if (!row) return 'unknown refund';
      const outcome = refundOutcome(refund);
      if (outcome.status !== 'pending') await settleRefund(row.id, outcome, db);
      return undefined;
    }
    default:
      return 'event type not handled';
  }
}

/** Our payment behind a Checkout Session (client_reference_id is our id; the session must be its own). */
async function sessionPayment(session: Stripe.Checkout.Session, db: Db) {
  const id = session.client_reference_id ?? session.metadata?.encore_payment_id;
  if (!id) return null;
  const payment = await paymentForCheckout(id, db);
  if (!payment || payment.provider !== 'stripe') return null;
  if (payment.providerRef && payment.providerRef !== session.id) return null;
  return payment;
}
