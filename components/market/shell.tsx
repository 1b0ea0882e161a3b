import { getTranslations } from 'next-intl/server';
import { Suspense } from 'react';
import { getDb } from '@/db';
import { modeOfPartner } from '@/server/modules/partners';
import { LanguageSwitch } from './language-switch';
import { fanOf } from './session';

export interface ShellPartner {
  id: string;
  name: string;
  logoUrl?: string | null;
}

/**
 * The frame of every fan page: the partner's name and logo (fans came from the partner's site and must
 * recognise it), the way back to it, the language switch, who is signed in, and Encore's trust line.
 * `narrow` pages (checkout, sign-in) keep one reading column.
 */
export async function MarketShell({
  partner,
  returnTo,
  narrow = false,
  mode: knownMode,
  children,
}: {
  partner: ShellPartner | null;
  returnTo?: string | null;
  narrow?: boolean;
  /** The partner's mode when the page read it already (the buy page's model); else read here. */
  mode?: 'live' | 'test';
  children: React.ReactNode;
}) {
  const t = await getTranslations('common');
  const [fan, mode] = partner
    ? await Promise.all([fanOf(partner.id), knownMode ?? modeOfPartner(partner.id, getDb())])
    : [null, 'live' as const];
  return (
    <div className="mk-page">
      <a className="mk-skip" href="#main">
        {t('skip')}
      </a>
      {mode === 'test' ? (
        // A page of a partner's test data (test mode): said on every page, before anything else.
        <div className="mk-test-ribbon" role="note" aria-label={t('testMode')} data-testid="test-mode-ribbon">
          <strong>{t('testMode')}</strong> <span>{t('testModeNote')}</span>
        </div>
      ) : null}
      <header className="mk-header">
        <div className="mk-header-inner">
          <div className="mk-partner" data-testid="partner-brand">
            {partner?.logoUrl ? (
              // eslint-disable-next-line @next/next/no-img-element -- a partner's own URL, not ours to optimise
              <img className="mk-partner-logo" src={partner.logoUrl} alt="" width={32} height={32} />
            ) : (
              <span className="mk-partner-mark" aria-hidden="true">
                {(partner?.name ?? 'E').slice(0, 1).toUpperCase()}
              </span>
            )}
            <span className="mk-partner-name">{partner?.name ?? t('encore')}</span>
          </div>
          <Suspense fallback={null}>
            <LanguageSwitch />
          </Suspense>
        </div>
        {returnTo && partner ? (
          <div className="mk-header-inner mk-backbar">
            <a className="mk-back" href={returnTo} data-testid="return-to">
              <span aria-hidden="true">←</span> {t('backTo', { partner: partner.name })}
            </a>
          </div>
        ) : null}
      </header>
      <main id="main" className={narrow ? 'mk-main mk-narrow' : 'mk-main'}>
        {children}
      </main>
      <footer className="mk-footer">
        <div className="mk-footer-inner">
          {partner ? <p>{t('secure', { partner: partner.name })}</p> : null}
          {fan ? (
            <form action="/auth/signout" method="post" className="mk-fan">
              <span data-testid="fan-email">{t('signedInAs', { email: fan.email })}</span>
              <button type="submit" className="mk-link-button">
                {t('signOut')}
              </button>
            </form>
          ) : null}
          <p className="mk-muted">{partner ? t('resaleBy', { partner: partner.name }) : t('encore')}</p>
        </div>
      </footer>
    </div>
  );
}
