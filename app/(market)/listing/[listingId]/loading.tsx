import { getTranslations } from 'next-intl/server';

/** While the partner is asked about the fan's tickets (live, never cached), say so. */
export default async function Loading() {
  const t = await getTranslations('common');
  return (
    <main id="main" className="mk-main mk-narrow">
      <section className="mk-card mk-empty" role="status" aria-live="polite" data-testid="loading">
        <p>{t('loading')}</p>
      </section>
    </main>
  );
}
