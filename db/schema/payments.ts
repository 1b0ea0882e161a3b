import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { partnerRef, timestamps } from './columns';

/** Which payment provider a row was made with (PAYMENTS_PROVIDER when it was made). */
export const PAYMENT_PROVIDERS = ['sandbox', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export const PAYMENT_STATUSES = [
  'pending',
  'requires_action',
  'paid',
  'failed',
  'refunded',
  'partially_refunded',
  'expired',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * A buyer's payment for something a module above sells (`purpose` + `reference`, e.g. a buy intention).
 * Amounts are integer minor units of `currency`. A payment is open while `pending` or `requires_action`
 * (one open payment per reference); only the provider's confirmation (the sandbox page, a signed Stripe
 * webhook) makes it `paid`. `providerRef` is the provider's checkout (Stripe: the Checkout Session),
 * `providerPaymentRef` the charge refunds go against (Stripe: the PaymentIntent).
 */
export const payments = pgTable(
  'payments',
  {
    id: text().primaryKey(), // pay_…
    partnerId: partnerRef(),
    purpose: text().notNull(),
    reference: text().notNull(),
    /** What is paid for, as the buyer sees it on the checkout page. */
    description: text().notNull(),
    amountMinor: integer().notNull(),
    currency: text().notNull(),
    buyerEmail: text().notNull(),
    status: text({ enum: PAYMENT_STATUSES }).notNull().default('pending'),
    provider: text({ enum: PAYMENT_PROVIDERS }).notNull(),
    providerRef: text(),
    providerPaymentRef: text(),
    /** Where the buyer pays (the sandbox page, or the provider's hosted checkout). */
    checkoutUrl: text(),
    successUrl: text().notNull(),
    cancelUrl: text().notNull(),
    /** Minor units refunded so far (refunds that succeeded). */
    refundedMinor: integer().notNull().default(0),
    failureReason: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    paidAt: timestamp({ withTimezone: true }),
    ...timestamps(),
  },
  (t) => [
    index('payments_partner_reference_idx').on(t.partnerId, t.purpose, t.reference),
    uniqueIndex('payments_open_reference_idx')
      .on(t.partnerId, t.purpose, t.reference)
      .where(sql`status in ('pending', 'requires_action')`),
    uniqueIndex('payments_provider_ref_idx').on(t.provider, t.providerRef),
    index('payments_open_expiry_idx')
      .on(t.expiresAt)
      .where(sql`status in ('pending', 'requires_action')`),
    check('payments_amount_positive', sql`amount_minor > 0`),
    check('payments_refunded_range', sql`refunded_minor >= 0 and refunded_minor <= amount_minor`),
  ],
);

/**
 * A refund of a payment, whole or part, with its reason. A refund's amount is reserved while it is
 * `pending` (so two refunds at once never exceed the payment); `providerRef` is the provider's answer.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: text().primaryKey(), // rfd_…
    partnerId: partnerRef(),
    paymentId: text()
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    amountMinor: integer().notNull(),
    currency: text().notNull(),
    reason: text().notNull(),
    status: text({ enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    providerRef: text(),
    failureReason: text(),
    ...timestamps(),
  },
  (t) => [
    index('refunds_payment_idx').on(t.paymentId),
    index('refunds_partner_idx').on(t.partnerId, t.createdAt),
    check('refunds_amount_positive', sql`amount_minor > 0`),
  ],
);

/**
 * A seller's payout account with the provider (Stripe: a Connect Express account). `pending` until the
 * seller finishes onboarding ("pending payout info"), then `active`. One per seller e-mail, partner and
 * provider. `returnUrl` is where the sandbox's onboarding page sends the seller back to.
 */
export const sellerAccounts = pgTable(
  'seller_accounts',
  {
    id: text().primaryKey(), // sac_…
    partnerId: partnerRef(),
    sellerEmail: text().notNull(),
    provider: text({ enum: PAYMENT_PROVIDERS }).notNull(),
    accountRef: text().notNull(),
    status: text({ enum: ['pending', 'active'] })
      .notNull()
      .default('pending'),
    returnUrl: text(),
    activatedAt: timestamp({ withTimezone: true }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('seller_accounts_seller_idx').on(t.partnerId, t.provider, t.sellerEmail),
    uniqueIndex('seller_accounts_ref_idx').on(t.provider, t.accountRef),
  ],
);

/**
 * A payout to a seller's account. Idempotent by the caller's key (unique per partner): asking again
 * with the same key answers the same transfer; `providerRef` is the provider's transfer.
 */
export const transfers = pgTable(
  'transfers',
  {
    id: text().primaryKey(), // trf_…
    partnerId: partnerRef(),
    sellerAccountId: text()
      .notNull()
      .references(() => sellerAccounts.id, { onDelete: 'restrict' }),
    amountMinor: integer().notNull(),
    currency: text().notNull(),
    idempotencyKey: text().notNull(),
    /** The payment whose funds are paid out (Stripe: its transfer group), when there is one. */
    paymentId: text().references(() => payments.id, { onDelete: 'set null' }),
    status: text({ enum: ['pending', 'paid', 'failed'] })
      .notNull()
      .default('pending'),
    providerRef: text(),
    /*
     * What the provider sent, in our minor units, once paid (migration 0039): the amount rounded down to
     * what the provider pays out (Stripe: TWD and HUF in whole units, KWD in tens of fils). The rest,
     * amount − sent, stayed with Encore and shows in the reconciliation as payout rounding.
     */
    sentMinor: integer(),
    failureReason: text(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('transfers_idempotency_idx').on(t.partnerId, t.idempotencyKey),
    index('transfers_account_idx').on(t.sellerAccountId, t.createdAt),
    check('transfers_amount_positive', sql`amount_minor > 0`),
  ],
);
