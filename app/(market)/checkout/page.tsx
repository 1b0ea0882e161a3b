import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getLocale, getTranslations } from 'next-intl/server';
import { safeReturnTo, withReturnTo } from '@/components/market/return-to';
import { fanOf } from '@/components/market/session';
import { GuaranteeBlock } from '@/components/market/guarantee';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { env } from '@/server/env';
import { formatShowDate, type Locale } from '@/server/lib/i18n';
import { buyerPromiseFacts, sourcesOf } from '@/server/modules/marketplace';
import { buyerCheckout } from '@/server/modules/fan-pages';
import { getPartner } from '@/server/modules/partners';
import { money, param, seatText } from '../market/buy-format';
import '../market/buy.css';
import { CheckoutForm } from './checkout-form';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('checkout');
  return { title: t('metaTitle'), robots: { index: false } };
}

type Query = Record<string, string | string[] | undefined>;

/**
 * The checkout of the listings chosen on the market page or named by the partner's checkout URL: what the
 * fan buys, every fee, the total, and "Pay". Nothing is held until the fan pays.
 */
export default async function CheckoutListingsPage({ searchParams }: { searchParams: Promise<Query> }) {
  await connection();
  const query = await searchParams;
  const ids = (param(query, 'listings') ?? '').split(',').filter(Boolean);
  const checkout = await buyerCheckout(ids, getDb());
  if (!checkout) notFound();
  const [partner, t, tb, locale, fan, promises] = await Promise.all([
    getPartner(checkout.event.partnerId, getDb()),
    getTranslations('checkout'),
    getTranslations('buy'),
    getLocale() as Promise<Locale>,
    fanOf(checkout.event.partnerId),
    buyerPromiseFacts(checkout.show.showPk, getDb(), sourcesOf(checkout.listings)),
  ]);
  const returnTo = safeReturnTo(param(query, 'returnTo') ?? param(query, 'returnURL'), partner);
  const { event, show } = checkout;
  const marketHref = withReturnTo(`/market/${event.eventPk}?show=${show.showPk}`, returnTo);
  const total = money(checkout.totalMinor, checkout.currency, locale);
  const venue = [show.venue.name, show.venue.address].filter(Boolean).join(' · ');

  return (
    <MarketShell partner={{ id: partner.id, name: partner.name, logoUrl: partner.logoUrl }} returnTo={returnTo} narrow>
      <h1 className="buy-h2">{t('title')}</h1>
      <section className="mk-card" aria-labelledby="summary-heading">
        <h2 id="summary-heading">{event.title}</h2>
        <p className="mk-muted" data-testid="checkout-show">
          {t('show', { date: formatShowDate(show.startsAt, locale, show.venue.timeZone), venue: venue || show.title })}
        </p>
        <ul className="buy-summary-list" aria-label={t('summary')}>
          {checkout.listings.map((l) => (
            <li key={l.id}>
              <strong>{l.optionTitle}</strong>
              {l.priceTypeTitle ? ` · ${l.priceTypeTitle}` : ''} · {tb('quantityExactly', { count: l.ticketCount })}
              <br />
              <span className="mk-muted">{seatText(l.seats, tb)}</span>
              {l.fromChannel ? (
                <>
                  <br />
                  <span className="mk-muted" data-testid="checkout-source">
                    {tb('fromChannelHint')}
                  </span>
                </>
              ) : null}
            </li>
          ))}
        </ul>
        <dl className="mk-breakdown" data-testid="checkout-breakdown">
          <dt>{t('subtotal', { count: checkout.ticketCount })}</dt>
          <dd>{money(checkout.subtotalMinor, checkout.currency, locale)}</dd>
          <dt>{t('fees')}</dt>
          <dd>{money(checkout.feesMinor, checkout.currency, locale)}</dd>
          <dt className="mk-total">{t('total')}</dt>
          <dd className="mk-total" data-testid="checkout-total">
            {total}
          </dd>
        </dl>
      </section>
      {checkout.available ? (
        <section className="mk-card">
          <p className="mk-hint buy-hold">{t('holdInfo', { minutes: env().BUY_INTENTION_MINUTES })}</p>
          <CheckoutForm
            listings={checkout.listings.map((l) => l.id).join(',')}
            fanEmail={fan?.email ?? null}
            returnTo={returnTo}
            payLabel={t('pay', { total })}
            marketHref={marketHref}
          />
        </section>
      ) : (
        <div className="mk-alert" role="alert" data-testid="checkout-unavailable">
          <p>{show.status === 'CANCELLED' || !show.resaleEnabled ? t('showOffSale') : t('unavailable')}</p>
          <a href={marketHref}>{t('backToMarket')}</a>
        </div>
      )}
      {checkout.available && promises ? <GuaranteeBlock facts={promises} /> : null}
    </MarketShell>
  );
}
