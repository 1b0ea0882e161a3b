/**
 * Payments: buyers' payments (a hosted checkout per payment), refunds, sellers' payout accounts and
 * payouts, behind one provider interface: the embedded sandbox (PAYMENTS_PROVIDER=sandbox, default) or
 * Stripe (Checkout, Connect Express, transfers, refunds; only a signed webhook marks a payment paid).
 * Owns the tables of db/schema/payments.ts. Modules above subscribe to its events (events.ts:
 * `onPaymentSucceeded`, `onPaymentFailed`, `onPayoutAccountActivated`, `onPaymentAttempt`) in server/wiring.ts.
 */
export { onPaymentAttempt, onPaymentSucceeded, type PaymentRefusal } from './events';
export { expirePaymentsJob, resendRefundsJob } from './jobs';
export {
  type CheckoutView,
  completeSandboxAuthentication,
  completeSandboxOnboarding,
  payWithSandboxCard,
  sandboxCheckout,
  sandboxOnboarding,
  type SandboxResult,
} from './sandbox-checkout';
export type { PaymentLine } from './provider';
export { SANDBOX_CARD_ERRORS, SANDBOX_TEST_CARDS, type SandboxCardError } from './schemas';
export {
  getPayment,
  // A provider's confirmation that the money was taken (the Stripe webhook, the sandbox page); exported for
  // tests that confirm as a provider would. Modules above react through onPaymentSucceeded, never call it.
  markPaymentPaid,
  type Payment,
  startPayment,
  stopCheckout,
} from './payments';
export { getPayoutAccount, type PayoutStatus, payoutStatus, setUpPayoutAccount } from './payout-accounts';
export { refundPayment, reserveRefund, sendRefund } from './refunds';
export { transferPayout } from './transfers';
export { handleStripeWebhook } from './stripe-webhook';
export { chargeStepMinor, payoutStepMinor, stripePayoutMinor } from './stripe-units';
export { paymentCountsByStatus } from './counts';
export { wipePaymentsTestData } from './wipe';
