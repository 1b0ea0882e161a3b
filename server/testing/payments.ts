import { getDb } from '@/db';
import { completeSandboxOnboarding, setUpPayoutAccount } from '@/server/modules/payments';
import { POST as sandboxPay } from '@/app/api/payments/sandbox/[paymentId]/route';

/** The sandbox's card that pays. */
const PAYING_CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Buyer One' };

/** Pays a sandbox payment URL through the real checkout route handler, as the buyer's form post does. */
export async function payOnSandbox(paymentUrl: string, card: Record<string, string> = PAYING_CARD) {
  const paymentId = new URL(paymentUrl).pathname.split('/').pop()!;
  const res = await sandboxPay(
    new Request(`http://encore.test/api/payments/sandbox/${paymentId}`, {
      method: 'POST',
      body: new URLSearchParams(card),
    }),
    { params: Promise.resolve({ paymentId }) },
  );
  return { paymentId, status: res.status, location: res.headers.get('location') };
}

/** Gives the seller a payout account and completes its sandbox onboarding, so their due payouts are paid. */
export async function activePayoutAccount(partnerId: string, sellerEmail: string) {
  const { account } = await setUpPayoutAccount(partnerId, { sellerEmail, returnUrl: 'https://p.example/b' }, getDb());
  await completeSandboxOnboarding(account.id, getDb());
  return account;
}
