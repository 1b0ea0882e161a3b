import { getTranslations } from 'next-intl/server';

/**
 * The loading state of the pages that ask the partner about the fan's tickets (live, never cached):
 * the sell flow, a listing, the resale entry page.
 */
export async function CheckingWithPartner() {
  const t = await getTranslations('common');
  return (
    <main id="main" className="mk-main mk-narrow">
      <section className="mk-card mk-empty" role="status" aria-live="polite" data-testid="loading">
        <p>{t('loading')}</p>
      </section>
    </main>
  );
}
