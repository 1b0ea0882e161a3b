import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { payments } from '@/db/schema/payments';
import { getPartner } from '@/server/modules/partners';
import { SANDBOX_TEST_CARDS, type SandboxCardError, sandboxCardForm, type SandboxCardForm } from './schemas';
import { closePayment, type Payment, paymentForCheckout, takePayment } from './payments';
import { type SellerAccount, sellerAccountForOnboarding, setSellerAccountActive } from './payout-accounts';

/*
 * The sandbox's hosted checkout (app/(market)/pay/[paymentId], posting to
 * app/api/payments/sandbox/[paymentId]): test cards only, as Stripe's test mode knows them. 4242… pays,
 * 4000 0000 0000 0002 is declined (the payment stays payable), 4000 0027 6000 3184 asks for a second
 * step (authenticate → paid, fail → payable again). Only sandbox payments are served here.
 */

/** What the checkout shows. */
export type CheckoutState = 'payable' | 'requires_action' | 'paid' | 'refunded' | 'expired' | 'failed';

export interface CheckoutView {
  payment: Payment;
  partnerName: string;
  state: CheckoutState;
}

function stateOf(p: Payment, now = Date.now()): CheckoutState {
  switch (p.status) {
    case 'pending':
    case 'requires_action':
      if (p.expiresAt.getTime() <= now) return 'expired';
      return p.status === 'pending' ? 'payable' : 'requires_action';
    case 'paid':
      return 'paid';
    case 'refunded':
    case 'partially_refunded':
      return 'refunded';
    case 'expired':
      return 'expired';
    default:
      return 'failed';
  }
}

/** The checkout page's view of a sandbox payment, or null (unknown, or another provider's). */
export async function sandboxCheckout(paymentId: string, db: Db): Promise<CheckoutView | null> {
  const payment = await paymentForCheckout(paymentId, db);
  if (!payment || payment.provider !== 'sandbox') return null;
  const partner = await getPartner(payment.partnerId, db);
  return { payment, partnerName: partner.name, state: stateOf(payment) };
}

export type SandboxResult =
  | { outcome: 'paid'; payment: Payment }
  | { outcome: 'requires_action'; payment: Payment }
  | { outcome: 'error'; error: SandboxCardError; payment: Payment | null };

const luhn = (digits: string) => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
};

/** Checks the card form the way a checkout does; answers the card number's digits or the first problem. */
function checkCard(form: SandboxCardForm, now = new Date()): { number: string } | { error: SandboxCardError } {
  const card = sandboxCardForm.parse(form);
  const number = card.cardNumber.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) return { error: 'invalid_number' };
  const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(card.expiry);
  const month = m ? Number(m[1]) : 0;
  const year = m ? (m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2])) : 0;
  if (!m || month < 1 || month > 12 || year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) {
    return { error: 'invalid_expiry' };
  }
  if (!/^\d{3,4}$/.test(card.cvc.trim())) return { error: 'invalid_cvc' };
  if (!card.name.trim()) return { error: 'invalid_name' };
  return { number };
}

/** A payment the sandbox may still take money for: open and in time (late ones are expired here). */
async function payable(paymentId: string, db: Db): Promise<Payment | null> {
  const payment = await paymentForCheckout(paymentId, db);
  if (!payment || payment.provider !== 'sandbox') return null;
  const state = stateOf(payment);
  if (state === 'expired' && (payment.status === 'pending' || payment.status === 'requires_action')) {
    await closePayment(payment.id, 'expired', 'The checkout expired before it was paid', db);
  }
  return state === 'payable' || state === 'requires_action' ? payment : null;
}

/**
 * The answer for a payment that cannot be paid (any more): one paid meanwhile (a double submit, a second
 * tab) leads where a paid payment leads; anything else is not payable.
 */
async function settled(paymentId: string, db: Db): Promise<SandboxResult> {
  const now = await paymentForCheckout(paymentId, db);
  if (now?.provider !== 'sandbox') return { outcome: 'error', error: 'not_payable', payment: null };
  return now.status === 'paid'
    ? { outcome: 'paid', payment: now }
    : { outcome: 'error', error: 'not_payable', payment: now };
}

/**
 * A double submit: another request is taking this payment. Its outcome is waited for without holding a
 * connection (a few seconds at most), then answered as that request's is.
 */
async function settledAfter(paymentId: string, db: Db, deadline = Date.now() + 15_000): Promise<SandboxResult> {
  for (;;) {
    const now = await paymentForCheckout(paymentId, db);
    const open = now?.status === 'pending' || now?.status === 'requires_action';
    if (!open || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return settled(paymentId, db);
}

/**
 * "Charges the card": the payment is taken only if the modules above still want it (takePayment asks
 * them in its transaction); a refusal (the show was cancelled, the hold ended) closes it unpaid.
 */
async function charge(paymentId: string, providerPaymentRef: string, db: Db): Promise<SandboxResult> {
  const taken = await takePayment(paymentId, { provider: 'sandbox', providerPaymentRef }, db);
  if (taken && 'busy' in taken) return settledAfter(paymentId, db);
  if (taken && 'refused' in taken) {
    return { outcome: 'error', error: taken.refused.code, payment: await paymentForCheckout(paymentId, db) };
  }
  return taken ? { outcome: 'paid', payment: taken.paid } : settled(paymentId, db);
}

/** Pays a sandbox payment with a test card. */
export async function payWithSandboxCard(paymentId: string, form: SandboxCardForm, db: Db): Promise<SandboxResult> {
  const payment = await payable(paymentId, db);
  if (!payment) return settled(paymentId, db);
  const card = checkCard(form);
  if ('error' in card) return { outcome: 'error', error: card.error, payment };
  switch (card.number) {
    case SANDBOX_TEST_CARDS.succeeds:
      return charge(payment.id, 'sbx_card_4242', db);
    case SANDBOX_TEST_CARDS.declined:
      return { outcome: 'error', error: 'declined', payment };
    case SANDBOX_TEST_CARDS.authenticate: {
      const [row] = await db
        .update(payments)
        .set({ status: 'requires_action', updatedAt: sql`now()` })
        .where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')))
        .returning();
      return { outcome: 'requires_action', payment: row ?? payment };
    }
    default:
      return { outcome: 'error', error: 'unsupported_card', payment };
  }
}

/** The second step of the 3-D Secure test card: the buyer authenticates (paid) or fails (payable again). */
export async function completeSandboxAuthentication(
  paymentId: string,
  authenticated: boolean,
  db: Db,
): Promise<SandboxResult> {
  const payment = await payable(paymentId, db);
  if (!payment || payment.status !== 'requires_action') return settled(paymentId, db);
  if (authenticated) return charge(payment.id, 'sbx_card_3184', db);
  const [row] = await db
    .update(payments)
    .set({ status: 'pending', updatedAt: sql`now()` })
    .where(and(eq(payments.id, payment.id), eq(payments.status, 'requires_action')))
    .returning();
  return { outcome: 'error', error: 'authentication_failed', payment: row ?? payment };
}

/** The sandbox onboarding page's view of a seller account (sandbox accounts only). */
export async function sandboxOnboarding(
  accountId: string,
  db: Db,
): Promise<{ account: SellerAccount; partnerName: string } | null> {
  const account = await sellerAccountForOnboarding(accountId, db);
  if (!account || account.provider !== 'sandbox') return null;
  return { account, partnerName: (await getPartner(account.partnerId, db)).name };
}

/** The seller finishes the sandbox onboarding: the account becomes active. Answers where they return to. */
export async function completeSandboxOnboarding(accountId: string, db: Db): Promise<SellerAccount | null> {
  const found = await sandboxOnboarding(accountId, db);
  if (!found) return null;
  return setSellerAccountActive('sandbox', found.account.accountRef, true, db);
}
