import { getDb } from '@/db';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { CheckIcon } from '@/components/market/icons';
import { sandboxOnboarding } from '@/server/modules/payments';
import '../../checkout.css';
import { SandboxPage } from '../../merchant';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('pay');
  return { title: t('payoutsMetaTitle'), robots: { index: false } };
}

/**
 * The sandbox's payout onboarding (what Stripe's Connect onboarding is in production), in the fan's
 * language: the seller "enters" payout details and the account becomes active. Nothing typed here is stored.
 */
export default async function PayoutOnboardingPage({ params }: { params: Promise<{ accountId: string }> }) {
  const found = await sandboxOnboarding((await params).accountId, getDb());
  if (!found) notFound();
  const t = await getTranslations('pay');
  const { account, partnerName } = found;
  return (
    <SandboxPage
      label={t('payoutAccount')}
      partnerName={partnerName}
      testMode={t('testMode')}
      summary={
        <>
          <p className="co-for">{t('payoutsFor')}</p>
          <p className="co-amount" style={{ fontSize: 22 }}>
            {account.sellerEmail}
          </p>
          <ul className="co-lines">
            <li>
              <span>{t('status')}</span>
              <span>{t(`payoutStatus.${account.status}`)}</span>
            </li>
          </ul>
        </>
      }
    >
      {account.status === 'active' ? (
        <section className="co-state co-state-ok" aria-labelledby="state-title">
          <div className="co-state-icon" aria-hidden="true">
            <CheckIcon />
          </div>
          <h1 id="state-title">{t('payoutsActiveTitle')}</h1>
          <p>{t('payoutsActiveBody')}</p>
          {account.returnUrl && (
            <a className="co-button" href={account.returnUrl}>
              {t('continue')}
            </a>
          )}
        </section>
      ) : (
        <section aria-labelledby="payout-title">
          <h1 id="payout-title">{t('payoutTitle')}</h1>
          <form method="post" action={`/api/payments/sandbox/payouts/${account.id}`} className="co-form">
            <div className="co-field">
              <label htmlFor="holder">{t('holder')}</label>
              <input id="holder" name="holder" autoComplete="name" required />
            </div>
            <div className="co-field">
              <label htmlFor="iban">{t('iban')}</label>
              <input id="iban" name="iban" placeholder="NL00 BANK 0123 4567 89" required />
            </div>
            <button className="co-button" type="submit">
              {t('savePayout')}
            </button>
          </form>
          <p className="co-hint">{t('payoutHint')}</p>
        </section>
      )}
    </SandboxPage>
  );
}
