import type { Metadata } from 'next';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { env } from '@/server/env';
import { AppError } from '@/server/lib/errors';
import { supportContact } from '@/server/lib/promises';
import { supportFacts } from '@/server/modules/marketplace';
import { getPartner } from '@/server/modules/partners';
import { DEFAULT_UNLOCK_HOURS, protectionOf } from '@/server/modules/protection';
import './terms.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('terms');
  return { title: t('metaTitle') };
}

/** The partner the fan came from (`?partner=`), or null for the generic page (unknown or disabled too). */
async function partnerOrNull(id: string | undefined) {
  if (!id) return null;
  try {
    const partner = await getPartner(id, getDb());
    return partner.disabledAt ? null : partner;
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
    throw err;
  }
}

/**
 * Encore's resale terms, short and true to the code: holds (BUY_INTENTION_MINUTES), automatic refunds
 * (show cancellation, ownership lost at payment, a channel's late hand-over), reissue or transfer and the
 * unlock time (the partner's default hours), payouts (show date plus the partner's delay), and whom to ask:
 * the partner's support contact when the page names a partner that set one, else Encore's SUPPORT_EMAIL.
 */
export default async function TermsPage({ searchParams }: { searchParams: Promise<{ partner?: string | string[] }> }) {
  await connection();
  const raw = (await searchParams).partner;
  const partner = await partnerOrNull(Array.isArray(raw) ? raw[0] : raw);
  const [t, support, protection] = await Promise.all([
    getTranslations('terms'),
    partner ? supportFacts(partner.id, getDb()) : null,
    partner ? protectionOf(partner.id, getDb()) : null,
  ]);
  const contact = supportContact(
    support ?? { support: { url: null, email: null }, encoreSupportEmail: env().SUPPORT_EMAIL },
  );
  const name = contact.by === 'partner' && partner ? partner.name : 'Encore';
  const sections = [
    ['buyingTitle', t('buying', { minutes: env().BUY_INTENTION_MINUTES })],
    ['refundsTitle', t('refunds')],
    ['ticketTitle', t('ticket', { hours: protection?.defaultUnlockHours ?? DEFAULT_UNLOCK_HOURS })],
    ['sellingTitle', t('selling')],
  ] as const;
  return (
    <MarketShell partner={partner ? { id: partner.id, name: partner.name, logoUrl: partner.logoUrl } : null} narrow>
      <article className="terms" data-testid="terms">
        <h1 className="terms-title">{t('title')}</h1>
        <p className="mk-lead">{partner ? t('lead', { partner: partner.name }) : t('leadGeneric')}</p>
        {sections.map(([title, body]) => (
          <section key={title} className="mk-card" aria-labelledby={`terms-${title}`}>
            <h2 id={`terms-${title}`}>{t(title)}</h2>
            <p>{body}</p>
          </section>
        ))}
        <section className="mk-card" aria-labelledby="terms-support" data-testid="terms-support">
          <h2 id="terms-support">{t('supportTitle')}</h2>
          <p>
            {t('support', { name })}{' '}
            {contact.url ? (
              <a href={contact.url} rel="noopener noreferrer" target="_blank">
                {contact.url}
              </a>
            ) : null}
            {contact.url && contact.email ? ' · ' : null}
            {contact.email ? <a href={`mailto:${contact.email}`}>{contact.email}</a> : null}
          </p>
        </section>
      </article>
    </MarketShell>
  );
}
