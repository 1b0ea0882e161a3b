import { z } from 'zod';

/*
 * The payments module's input shapes (zod at the module's boundary). Pure zod: client components may
 * import this file. Money is integer minor units plus an ISO 4217 code, as everywhere in Encore.
 */

const currency = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR')
  .refine((c) => Intl.supportedValuesOf('currency').includes(c), 'is not a known ISO 4217 currency');
const minor = z.number().int('must be whole minor units').positive('must be more than zero').max(2_000_000_000);
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

export const startPaymentInput = z.object({
  /** An id chosen by the caller (`pay_…`), so a row of its own that names the payment is written beside it. */
  id: z
    .string()
    .regex(/^pay_[A-Za-z0-9]{6,40}$/)
    .optional(),
  /** What the payment is for, as the module above names it (`buy_intention`), and its id there. */
  purpose: z.string().trim().min(1).max(50),
  reference: z.string().trim().min(1).max(200),
  /** What the buyer pays for, shown on the checkout ("2 × General admission · Night at the Opera"). */
  description: z.string().trim().min(1).max(300),
  amountMinor: minor,
  currency,
  buyerEmail: z.email(),
  /** Where the buyer lands once paid; default: the payment's own page (which shows it paid). */
  successUrl: httpUrl.optional(),
  /** Where "back" on the checkout leads; default: the success URL. */
  cancelUrl: httpUrl.optional(),
  /** How long the checkout stays payable (Stripe keeps a Checkout Session open at least 30 minutes). */
  expiresInMinutes: z
    .number()
    .int()
    .min(5)
    .max(24 * 60)
    .default(30),
});
export type StartPaymentInput = z.input<typeof startPaymentInput>;

export const refundInput = z.object({
  paymentId: z.string().min(1),
  /** Part of the payment to refund; without it, everything not refunded yet. */
  amountMinor: minor.optional(),
  reason: z.string().trim().min(1).max(500),
  /**
   * The caller's own id for this refund (a job that may run twice): while a refund of that id is pending
   * or succeeded, asking again answers it instead of refunding twice.
   */
  refundId: z.string().min(1).max(100).optional(),
});
export type RefundInput = z.input<typeof refundInput>;

export const payoutAccountInput = z.object({
  sellerEmail: z.email(),
  /** Where the seller returns after onboarding (and, at Stripe, when an onboarding link has expired). */
  returnUrl: httpUrl,
  refreshUrl: httpUrl.optional(),
});
export type PayoutAccountInput = z.input<typeof payoutAccountInput>;

export const transferInput = z.object({
  sellerEmail: z.email(),
  amountMinor: minor,
  currency,
  /** The caller's key: the same key answers the same transfer, never a second one. */
  idempotencyKey: z.string().trim().min(1).max(200),
  /** The payment whose funds are paid out, when there is one (Stripe: the transfer group). */
  paymentId: z.string().min(1).optional(),
});
export type TransferInput = z.input<typeof transferInput>;

/** The sandbox checkout's test cards (the ones Stripe's test mode knows too). */
export const SANDBOX_TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  authenticate: '4000002760003184',
} as const;

/** Why a sandbox card form was refused; the checkout page words each one and marks its field. */
export const SANDBOX_CARD_ERRORS = [
  'invalid_number',
  'invalid_expiry',
  'invalid_cvc',
  'invalid_name',
  'unsupported_card',
  'declined',
  'authentication_failed',
  'not_payable',
  // Refused before the card was charged (the buy intention's hold no longer stands): PaymentRefusal codes.
  'hold_ended',
  'show_cancelled',
  // Nothing charged, the fan may try again: the partner could not confirm the seller's tickets in time (its
  // verification endpoint failed or hung), or Encore's database was unreachable for a moment.
  'partner_unavailable',
  'unavailable',
] as const;
export type SandboxCardError = (typeof SANDBOX_CARD_ERRORS)[number];

/** The card form of the sandbox checkout, as posted (spaces and slashes as people type them). */
export const sandboxCardForm = z.object({
  cardNumber: z.string().max(40).default(''),
  expiry: z.string().max(10).default(''),
  cvc: z.string().max(10).default(''),
  name: z.string().max(100).default(''),
});
export type SandboxCardForm = z.input<typeof sandboxCardForm>;
