import type { PaymentProviderName } from '@/db/schema/payments';

/**
 * A line of a hosted checkout (Stripe Checkout's line items): what the buyer reads the amount is made of.
 * The caller's lines add up to the payment's amount; without them the checkout shows one line, the description.
 */
export interface PaymentLine {
  name: string;
  unitAmountMinor: number;
  quantity: number;
}

/**
 * The one interface payments go through. The service keeps the truth in our tables; a provider only
 * does what the money needs outside them and answers with its own references. Nothing here marks a
 * payment paid: that comes from the provider's confirmation (the sandbox page, a signed Stripe webhook).
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /**
   * Where the buyer pays, when the checkout is a page of Encore's own that needs nothing opened at the
   * provider (the sandbox): the payment is then written once, with its URL, and startCheckout is not called.
   */
  localCheckoutUrl?(paymentId: string): string;
  /** Opens a hosted checkout for a payment: where the buyer pays, and the provider's reference. */
  startCheckout(p: {
    paymentId: string;
    partnerId: string;
    description: string;
    /** The amount line by line (adding up to amountMinor), else absent. */
    lines?: PaymentLine[];
    amountMinor: number;
    currency: string;
    buyerEmail: string;
    successUrl: string;
    cancelUrl: string;
    expiresAt: Date;
  }): Promise<{ url: string; providerRef: string | null; expiresAt: Date }>;
  /**
   * Closes a hosted checkout that is still open so it can no longer be paid (Stripe: expires the
   * Checkout Session). Absent where the checkout is our own page (the sandbox asks before it charges).
   */
  cancelCheckout?(providerRef: string): Promise<void>;
  /** Refunds part or all of a paid payment. `pending`: the provider settles it later (a webhook tells). */
  refund(p: {
    refundId: string;
    paymentId: string;
    providerPaymentRef: string | null;
    amountMinor: number;
    currency: string;
    reason: string;
  }): Promise<{ providerRef: string; status: 'succeeded' | 'pending' | 'failed'; failureReason?: string }>;
  /** Creates a seller's payout account (it starts pending: the seller has to finish onboarding). */
  createSellerAccount(p: {
    sellerAccountId: string;
    partnerId: string;
    sellerEmail: string;
    idempotencyKey: string;
  }): Promise<{ accountRef: string }>;
  /** A link that takes the seller through onboarding (short-lived at Stripe: ask again when needed). */
  onboardingUrl(p: {
    sellerAccountId: string;
    accountRef: string;
    returnUrl: string;
    refreshUrl: string;
  }): Promise<string>;
  /**
   * Pays an amount out to a seller's account; the provider dedupes on `idempotencyKey`. `sentMinor`: what
   * it sent, in Encore's minor units (Stripe rounds a payout down to what it pays out: TWD in whole
   * dollars); no reference when that is nothing.
   */
  transfer(p: {
    transferId: string;
    accountRef: string;
    amountMinor: number;
    currency: string;
    idempotencyKey: string;
    transferGroup: string | null;
  }): Promise<{ providerRef: string | null; sentMinor: number }>;
}
