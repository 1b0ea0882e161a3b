'use client';

import { useTranslations } from 'next-intl';

/** A fan page that failed to load: say so plainly and offer a retry (the error itself is logged server-side). */
export default function MarketError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations('common');
  return (
    <main id="main" className="mk-main mk-narrow">
      <section className="mk-card mk-empty" role="alert">
        <h1>{t('errorTitle')}</h1>
        <p>{t('errorBody')}</p>
        <button type="button" className="mk-btn" onClick={reset}>
          {t('tryAgain')}
        </button>
      </section>
    </main>
  );
}
