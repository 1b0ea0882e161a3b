import { getTranslations } from 'next-intl/server';
import { MarketShell } from '@/components/market/shell';

/** Unknown or foreign ids: a branded page that says nothing of what exists elsewhere. */
export default async function MarketNotFound() {
  const t = await getTranslations('notFound');
  return (
    <MarketShell partner={null} narrow>
      <section className="mk-card mk-empty" data-testid="not-found">
        <h1>{t('title')}</h1>
        <p>{t('body')}</p>
        <a className="mk-btn mk-btn-secondary" href="/me">
          {t('home')}
        </a>
      </section>
    </MarketShell>
  );
}
