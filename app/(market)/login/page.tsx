import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { MarketShell } from '@/components/market/shell';
import { fanOf } from '@/components/market/session';
import { getDb } from '@/db';
import { safeNextPath } from '@/server/modules/fans';
import { getPartner } from '@/server/modules/partners';
import { LoginForm } from './login-form';
import './login.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('fanSignin');
  return { title: t('metaTitle'), robots: { index: false } };
}

type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * Fan sign-in by e-mail for one partner: `/login?partner=ptr_…&next=/same/site/path&lang=…`. The fan
 * gets a one-time link by mail that signs them in for this partner only and goes on to `next`.
 */
export default async function LoginPage({ searchParams }: { searchParams: Search }) {
  await connection();
  const query = await searchParams;
  const partnerId = one(query.partner) ?? '';
  const partner = partnerId ? await getPartner(partnerId, getDb()).catch(() => null) : null;
  if (!partner) notFound();
  const next = safeNextPath(one(query.next));
  const t = await getTranslations('fanSignin');
  const fan = await fanOf(partner.id);
  return (
    <MarketShell partner={{ id: partner.id, name: partner.name, logoUrl: partner.logoUrl }} narrow>
      <h1 className="login-title">{t('title', { partner: partner.name })}</h1>
      {partner.disabledAt ? (
        <p className="mk-notice" data-testid="login-unavailable">
          {t('unavailable', { partner: partner.name })}
        </p>
      ) : (
        <>
          {fan ? (
            <p className="mk-notice">
              {t('signedIn', { email: fan.email })} <a href={next}>{t('continue')}</a>
            </p>
          ) : null}
          <p className="mk-lead">{t('lead')}</p>
          <LoginForm partnerId={partner.id} partnerName={partner.name} next={next} />
        </>
      )}
    </MarketShell>
  );
}
