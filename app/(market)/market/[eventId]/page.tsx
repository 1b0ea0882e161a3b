import type { Metadata } from 'next';
import { notFound, redirect } from 'next/navigation';
import { connection } from 'next/server';
import { getLocale, getTranslations } from 'next-intl/server';
import { safeReturnTo, withReturnTo } from '@/components/market/return-to';
import { fanOf } from '@/components/market/session';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { type Locale, pageTranslator } from '@/server/lib/i18n';
import { deliveryText } from '@/server/lib/promises';
import {
  BUY_PAGE_SIZE,
  buyPageModel,
  buyPageVersion,
  PAGE_VERSION_META,
  sectionLabeler,
  showOnSale,
} from '@/server/modules/fan-pages';
import { param } from '../buy-format';
import { Description } from '../description';
import { WishlistForm } from '../wishlist-form';
import '../buy.css';
import { activeFilters, FilterSheet } from './filter-sheet';
import { EventHero, hrefWith, ListingPages, type Query, ShowLinks } from './market-parts';
import { HeldOffers } from './held-offers';
import { OfferCard } from './offer-card';
import { SeatMap } from './seat-map';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('buy');
  return { title: t('metaTitle') };
}

type Props = { params: Promise<{ eventId: string }>; searchParams: Promise<Query> };

/** The buying flow's first step: the event, its dates, and the show's tickets on sale with every fee shown. */
export default async function MarketPage({ params, searchParams }: Props) {
  await connection();
  const [{ eventId }, query] = await Promise.all([params, searchParams]);
  // Everything drawn below but the fan's own session comes from the model (buy-page-model.ts): its version,
  // stamped into the page, lets a shared cache keep the page without another render while it holds.
  const model = await buyPageModel(eventId, query, getDb());
  if (!model) notFound();
  const [locale, fan] = await Promise.all([getLocale() as Promise<Locale>, fanOf(model.event.partnerId)]);
  // Messages compiled once per process, not per request (page-translator.ts): ~700 of them a render.
  const t = pageTranslator(locale, 'buy');
  const tc = pageTranslator(locale, 'common');
  const { partner, promises, event, show, facets, listings, count, page: current, pageCount, sort, wanted } = model;
  const returnTo = safeReturnTo(param(query, 'returnTo') ?? param(query, 'returnURL'), partner);
  // The public sale URL names a ticket: on sale, its own listing; else a note above the show's other offers.
  const named = model.named;
  if (named?.listingId) redirect(withReturnTo(`/listing/${named.listingId}`, returnTo));
  const filtered = activeFilters(query) > 0;
  // Sections by the seat map's names, on the offers and in the filters as on the map.
  const labelOf = sectionLabeler(model);
  const onSale = show ? showOnSale(show) : false;

  return (
    <MarketShell
      partner={{ id: partner.id, name: partner.name, logoUrl: partner.logoUrl }}
      mode={model.mode}
      returnTo={returnTo}
    >
      <meta name={PAGE_VERSION_META} content={buyPageVersion(model, locale)} />
      {named ? (
        <p className="mk-notice" role="status" data-testid="ticket-not-on-sale">
          {t('ticketNotOnSale')}
        </p>
      ) : null}
      <EventHero event={event} show={show} locale={locale} t={t} />

      {event.shows.length > 1 ? (
        <ShowLinks eventId={eventId} query={query} shows={event.shows} current={show?.showPk} locale={locale} t={t} />
      ) : null}

      <div className="mk-grid">
        <section aria-labelledby="listings-heading">
          {onSale ? <SeatMap eventId={eventId} query={query} model={model} locale={locale} t={t} /> : null}
          <div className="buy-listings-head">
            <h2 id="listings-heading" className="buy-h2">
              {t('listingsHeading')}
            </h2>
            {onSale &&
            (facets.options.length > 1 || facets.zones.length > 0 || facets.quantities.length > 1 || count > 1) ? (
              <FilterSheet
                eventId={eventId}
                query={query}
                showPk={show?.showPk}
                returnTo={returnTo}
                facets={facets}
                sort={sort}
                labelOf={labelOf}
                t={t}
              />
            ) : null}
          </div>
          {show?.status === 'CANCELLED' ? (
            <p className="mk-alert" role="alert" data-testid="show-cancelled">
              {t('cancelled')}
            </p>
          ) : show && !show.resaleEnabled ? (
            <p className="mk-notice">{t('resaleOff')}</p>
          ) : show && model.primarySoldOut ? (
            <p className="mk-notice" data-testid="primary-sold-out">
              {t('primarySoldOut', { partner: partner.name })}
            </p>
          ) : null}

          {onSale && listings.length ? (
            <>
              <p className="mk-muted" aria-live="polite" data-testid="listing-count">
                {t('count', { count })}
                {pageCount > 1
                  ? ` · ${t('showing', { from: (current - 1) * BUY_PAGE_SIZE + 1, to: (current - 1) * BUY_PAGE_SIZE + listings.length })}`
                  : ''}
              </p>
              <ul className="mk-listings" data-testid="market-listings">
                {listings.map((l) => (
                  <OfferCard
                    key={l.id}
                    offer={l}
                    returnTo={returnTo}
                    wanted={wanted}
                    locale={locale}
                    t={t}
                    tc={tc}
                    labelOf={labelOf}
                  />
                ))}
              </ul>
              {pageCount > 1 ? (
                <ListingPages eventId={eventId} query={query} current={current} pageCount={pageCount} t={t} />
              ) : null}
            </>
          ) : onSale && show ? (
            <div className="mk-card mk-empty" data-testid="market-empty">
              <h3>{filtered ? t('emptyFiltered') : t('emptyTitle')}</h3>
              {filtered ? (
                <a
                  className="mk-btn mk-btn-secondary"
                  href={hrefWith(eventId, query, {
                    ticketOptionId: undefined,
                    zone: undefined,
                    section: undefined,
                    qty: undefined,
                  })}
                >
                  {t('clear')}
                </a>
              ) : (
                <>
                  <p className="mk-muted">{t('emptyBody')}</p>
                  <WishlistForm
                    eventId={eventId}
                    showId={show.showPk}
                    email={fan?.email ?? ''}
                    partner={partner.name}
                  />
                </>
              )}
            </div>
          ) : null}
          {onSale ? <HeldOffers model={model} labelOf={labelOf} locale={locale} t={t} /> : null}
        </section>

        <aside className="buy-aside">
          <div className="mk-card buy-trust" data-testid="buy-trust">
            <p>{t('trust', { partner: partner.name })}</p>
            {/* Reissue or transfer, and when the code shows: the partner's settings for this show. */}
            {promises ? <p data-testid="buy-delivery">{deliveryText(locale, promises, model.at)}</p> : null}
          </div>
          {event.description ? (
            <section className="mk-card" aria-labelledby="about-heading">
              <h2 id="about-heading">{t('about')}</h2>
              <Description className="mk-description" html={event.description} />
            </section>
          ) : null}
        </aside>
      </div>
    </MarketShell>
  );
}
