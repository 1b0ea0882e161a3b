import { getTranslations } from 'next-intl/server';

/** While the market loads: the page's shape, and a status for screen readers. */
export default async function MarketLoading() {
  const t = await getTranslations('common');
  return (
    <main className="mk-main" aria-busy="true">
      <p className="mk-visually-hidden" role="status">
        {t('loading')}
      </p>
      <div className="mk-skeleton mk-skeleton-title" />
      <div className="mk-skeleton" />
      <div className="mk-skeleton" />
      <div className="mk-skeleton" />
    </main>
  );
}
