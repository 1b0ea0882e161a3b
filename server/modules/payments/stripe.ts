import Stripe from 'stripe';
import { env } from '@/server/env';
import { AppError } from '@/server/lib/errors';
import type { PaymentProvider } from './provider';
import { stripeAccepts, type StripeAmountUse, stripePayoutMinor, toStripeAmount } from './stripe-units';

/*
 * Stripe through the official SDK: Checkout Sessions for buyers, Connect Express accounts for sellers
 * ("separate charges and transfers": the charge carries our payment id as its transfer group, payouts
 * are transfers to the seller's account later), refunds against the PaymentIntent. Every create sends
 * an idempotency key derived from our row id, so a retry never charges, refunds or pays twice.
 * STRIPE_API_BASE points the SDK at another host (tests run a local fake Stripe). Every amount crosses in
 * Stripe's own units (stripe-units.ts: ISK 11000 is 1100000 at Stripe), never in Encore's as they are.
 */

let cached: { key: string; base: string; client: Stripe } | undefined;

/** The SDK client for the configured key and API base. */
export function stripeClient(): Stripe {
  const e = env();
  const key = e.STRIPE_SECRET_KEY;
  if (!key) throw new AppError('INTERNAL', 'Stripe is not configured: STRIPE_SECRET_KEY is not set');
  const base = e.STRIPE_API_BASE ?? '';
  if (cached?.key === key && cached.base === base) return cached.client;
  const url = base ? new URL(base) : null;
  const client = new Stripe(key, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Encore' },
    ...(url
      ? {
          host: url.hostname,
          port: url.port || (url.protocol === 'http:' ? 80 : 443),
          protocol: url.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });
  cached = { key, base, client };
  return client;
}

/** Stripe's failures as ours: its answer is a bad gateway to our callers, with Stripe's message. */
async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new AppError('BAD_GATEWAY', `Stripe refused to ${what}: ${message}`);
  }
}

// Stripe keeps a Checkout Session open between 30 minutes and 24 hours.
const MIN_SESSION_MS = 31 * 60_000;
const MAX_SESSION_MS = 23.5 * 3600_000;

// Stripe's limit on a product's name.
const MAX_NAME = 250;

/**
 * An amount in Stripe's units, or a conflict naming why Stripe would refuse it (asked before Stripe is:
 * nothing is sent that Stripe must turn down). Fees round to Stripe's steps, so Encore's own amounts pass.
 */
function stripeAmount(amountMinor: number, currency: string, use: StripeAmountUse): number {
  try {
    return toStripeAmount(amountMinor, currency, use);
  } catch (err) {
    throw new AppError('CONFLICT', `Stripe would refuse this amount: ${(err as Error).message}`);
  }
}

/**
 * The session's line items in Stripe's units: the caller's lines (they add up to the amount), else one
 * line, the description. A line Stripe would refuse on its own (a KWD price not ending in 0, its fee
 * rounding the total) turns the session into the one line, which Stripe accepts.
 */
function lineItems(p: Parameters<PaymentProvider['startCheckout']>[0]): Stripe.Checkout.SessionCreateParams.LineItem[] {
  const currency = p.currency.toLowerCase();
  const whole = [{ name: p.description, unitAmountMinor: p.amountMinor, quantity: 1 }];
  const given = p.lines?.length ? p.lines : whole;
  const lines = given.every((l) => stripeAccepts(l.unitAmountMinor, p.currency, 'charge')) ? given : whole;
  return lines.map((l) => ({
    quantity: l.quantity,
    price_data: {
      currency,
      unit_amount: stripeAmount(l.unitAmountMinor, p.currency, 'charge'),
      product_data: { name: l.name.slice(0, MAX_NAME) },
    },
  }));
}

/** A Checkout Session for the payment, open as long as Stripe allows around the payment's own expiry. */
async function openCheckoutSession(stripe: Stripe, p: Parameters<PaymentProvider['startCheckout']>[0]) {
  const now = Date.now();
  const expiresAt = new Date(Math.min(Math.max(p.expiresAt.getTime(), now + MIN_SESSION_MS), now + MAX_SESSION_MS));
  const session = await call('open a Checkout Session', () =>
    stripe.checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: p.paymentId,
        customer_email: p.buyerEmail,
        line_items: lineItems(p),
        payment_intent_data: {
          transfer_group: p.paymentId,
          metadata: { encore_payment_id: p.paymentId, encore_partner_id: p.partnerId },
        },
        metadata: { encore_payment_id: p.paymentId, encore_partner_id: p.partnerId },
        success_url: p.successUrl,
        cancel_url: p.cancelUrl,
        expires_at: Math.floor(expiresAt.getTime() / 1000),
      },
      { idempotencyKey: `encore-checkout-${p.paymentId}` },
    ),
  );
  if (!session.url) throw new AppError('BAD_GATEWAY', 'Stripe opened a Checkout Session without a URL');
  return { url: session.url, providerRef: session.id, expiresAt };
}

export function stripeProvider(): PaymentProvider {
  const stripe = stripeClient();
  return {
    name: 'stripe',
    startCheckout: (p) => openCheckoutSession(stripe, p),
    async cancelCheckout(sessionId) {
      await call('expire the checkout', () => stripe.checkout.sessions.expire(sessionId));
    },
    async refund(p) {
      if (!p.providerPaymentRef) {
        throw new AppError('CONFLICT', 'This payment has no Stripe PaymentIntent to refund');
      }
      const refund = await call('refund', () =>
        stripe.refunds.create(
          {
            payment_intent: p.providerPaymentRef!,
            amount: stripeAmount(p.amountMinor, p.currency, 'refund'),
            reason: 'requested_by_customer',
            metadata: { encore_refund_id: p.refundId, encore_payment_id: p.paymentId, reason: p.reason.slice(0, 500) },
          },
          { idempotencyKey: `encore-refund-${p.refundId}` },
        ),
      );
      return { providerRef: refund.id, ...refundOutcome(refund) };
    },
    async createSellerAccount(p) {
      const account = await call('create a Connect account', () =>
        stripe.accounts.create(
          {
            type: 'express',
            email: p.sellerEmail,
            capabilities: { transfers: { requested: true } },
            metadata: { encore_seller_account_id: p.sellerAccountId, encore_partner_id: p.partnerId },
          },
          { idempotencyKey: p.idempotencyKey },
        ),
      );
      return { accountRef: account.id };
    },
    async onboardingUrl(p) {
      const link = await call('create an onboarding link', () =>
        stripe.accountLinks.create({
          account: p.accountRef,
          type: 'account_onboarding',
          return_url: p.returnUrl,
          refresh_url: p.refreshUrl,
        }),
      );
      return link.url;
    },
    async transfer(p) {
      // Rounded down to what Stripe pays out (TWD in whole dollars): never more than is owed.
      const sentMinor = stripePayoutMinor(p.amountMinor, p.currency);
      if (sentMinor === 0) return { providerRef: null, sentMinor };
      const transfer = await call('transfer the payout', () =>
        stripe.transfers.create(
          {
            amount: stripeAmount(sentMinor, p.currency, 'payout'),
            currency: p.currency.toLowerCase(),
            destination: p.accountRef,
            ...(p.transferGroup ? { transfer_group: p.transferGroup } : {}),
            metadata: { encore_transfer_id: p.transferId },
          },
          { idempotencyKey: p.idempotencyKey },
        ),
      );
      return { providerRef: transfer.id, sentMinor };
    },
  };
}

/** A Stripe refund's status in our words. */
export function refundOutcome(refund: Pick<Stripe.Refund, 'status' | 'failure_reason'>): {
  status: 'succeeded' | 'pending' | 'failed';
  failureReason?: string;
} {
  if (refund.status === 'succeeded') return { status: 'succeeded' };
  if (refund.status === 'failed' || refund.status === 'canceled') {
    return { status: 'failed', failureReason: refund.failure_reason ?? refund.status };
  }
  return { status: 'pending' };
}

/** Whether a Connect account can receive payouts (onboarding done, transfers enabled). */
export function accountIsActive(account: Pick<Stripe.Account, 'payouts_enabled' | 'capabilities'>): boolean {
  return account.payouts_enabled === true && account.capabilities?.transfers === 'active';
}
