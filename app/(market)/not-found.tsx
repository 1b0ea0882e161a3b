import { getTranslations } from 'next-intl/server';
import { brandOfRequest } from '@/components/market/brand';
import { MarketShell } from '@/components/market/shell';
import { WayForward } from '@/components/market/way-forward';

/**
 * Unknown or foreign ids: a page that says nothing of what exists elsewhere, in the brand of the partner
 * the address names (or the fan last signed in with), with the way on: that partner's tickets or sign-in.
 */
export default async function MarketNotFound() {
  const [t, partner] = await Promise.all([getTranslations('notFound'), brandOfRequest()]);
  return (
    <MarketShell partner={partner} narrow>
      <section className="mk-card mk-empty" data-testid="not-found">
        <h1>{t('title')}</h1>
        <p>{t('body')}</p>
        <WayForward partner={partner} />
      </section>
    </MarketShell>
  );
}
