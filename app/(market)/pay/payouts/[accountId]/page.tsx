import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { payoutStatusLabel, sandboxOnboarding } from '@/server/modules/payments';
import '../../checkout.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Set up payouts', robots: { index: false } };

/**
 * The sandbox's payout onboarding (what Stripe's Connect onboarding is in production): the seller
 * "enters" payout details and the account becomes active. Nothing typed here is stored.
 */
export default async function PayoutOnboardingPage({ params }: { params: Promise<{ accountId: string }> }) {
  const found = await sandboxOnboarding((await params).accountId);
  if (!found) notFound();
  const { account, partnerName } = found;
  return (
    <div className="co">
      <aside className="co-summary" aria-label="Payout account">
        <div>
          <p className="co-merchant">
            <span className="co-logo" aria-hidden="true">
              {partnerName.slice(0, 1).toUpperCase()}
            </span>
            {partnerName}
            <span className="co-badge">Test mode</span>
          </p>
          <p className="co-for">Payouts for</p>
          <p className="co-amount" style={{ fontSize: 22 }}>
            {account.sellerEmail}
          </p>
          <ul className="co-lines">
            <li>
              <span>Status</span>
              <span>{payoutStatusLabel(account.status)}</span>
            </li>
          </ul>
        </div>
      </aside>
      <main className="co-main">
        <div>
          {account.status === 'active' ? (
            <section className="co-state co-state-ok" aria-labelledby="state-title">
              <div className="co-state-icon" aria-hidden="true">
                ✓
              </div>
              <h1 id="state-title">Payouts are set up</h1>
              <p>Money from your sales is paid out to this account.</p>
              {account.returnUrl && (
                <a className="co-button" href={account.returnUrl}>
                  Continue
                </a>
              )}
            </section>
          ) : (
            <section aria-labelledby="payout-title">
              <h1 id="payout-title">Where should we pay you?</h1>
              <form method="post" action={`/api/payments/sandbox/payouts/${account.id}`} className="co-form">
                <div className="co-field">
                  <label htmlFor="holder">Account holder</label>
                  <input id="holder" name="holder" autoComplete="name" required />
                </div>
                <div className="co-field">
                  <label htmlFor="iban">IBAN</label>
                  <input id="iban" name="iban" placeholder="NL00 BANK 0123 4567 89" required />
                </div>
                <button className="co-button" type="submit">
                  Save payout details
                </button>
              </form>
              <p className="co-hint">Sandbox: nothing you type here is stored or checked.</p>
            </section>
          )}
        </div>
      </main>
    </div>
  );
}
