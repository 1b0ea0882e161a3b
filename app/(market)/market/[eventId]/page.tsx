import type { Metadata } from 'next';
import { notFound, redirect } from 'next/navigation';
import { connection } from 'next/server';
import { getLocale, getTranslations } from 'next-intl/server';
import { safeReturnTo, withReturnTo } from '@/components/market/return-to';
import { fanOf } from '@/components/market/session';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { type Locale, pageTranslator } from '@/server/lib/i18n';
import { type BuyerPromiseFacts, deliveryText } from '@/server/lib/promises';
import { shortCache } from '@/server/lib/short-cache';
import { showInventories, type ShowInventory } from '@/server/modules/market-data';
import { buyerPromiseFacts } from '@/server/modules/marketplace';
import {
  BUY_PAGE_OFFERS_MS,
  type MarketSort,
  namedTicketOnSale,
  sharedBuyPage,
  showOnSale,
} from '@/server/modules/fan-pages';
import { getPartner, type Partner } from '@/server/modules/partners';
import { param } from '../buy-format';
import { Description } from '../description';
import { WishlistForm } from '../wishlist-form';
import '../buy.css';
import { activeFilters, FilterSheet } from './filter-sheet';
import { EventHero, hrefWith, ListingPages, type Query, ShowLinks } from './market-parts';
import { OfferCard } from './offer-card';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('buy');
  return { title: t('metaTitle') };
}

/**
 * The partner, the show's primary inventory and its delivery promise: the same for every fan of a show, so
 * made once per BUY_PAGE_OFFERS_MS in this process (a partner's change to its name, logo, return origins or
 * protection settings, or the primary inventory's sold-out flag, shows within that second).
 */
const showContexts = shortCache<[Partner, Map<string, ShowInventory>, BuyerPromiseFacts | null]>(
  'buy-page-context',
  BUY_PAGE_OFFERS_MS,
);
function showContext(partnerId: string, showPk: string | undefined) {
  return showContexts.get(`${partnerId} ${showPk ?? ''}`, () =>
    Promise.all([
      getPartner(partnerId, getDb()),
      showPk ? showInventories([showPk], getDb()) : new Map<string, ShowInventory>(),
      showPk ? buyerPromiseFacts(showPk, getDb()) : null,
    ]),
  );
}

/**
 * Listings per page: a rush show can have thousands; the fan sorts and filters, then pages. 25 fill a few
 * phone screens, and a page of them is half the render (and half the bytes) of the 50 it used to be.
 */
const PAGE_SIZE = 25;
type Props = { params: Promise<{ eventId: string }>; searchParams: Promise<Query> };

/** The buying flow's first step: the event, its dates, and the show's tickets on sale with every fee shown. */
export default async function MarketPage({ params, searchParams }: Props) {
  await connection();
  const [{ eventId }, query] = await Promise.all([params, searchParams]);
  const quantity = Number(param(query, 'qty'));
  const wanted = Number.isInteger(quantity) && quantity > 0 ? quantity : undefined;
  const sort: MarketSort = param(query, 'sort') === 'price_desc' ? 'price_desc' : 'price_asc';
  // Shared by the fans of this show for under a second (offers-cache.ts says how long and why that is correct).
  const page = await sharedBuyPage(
    eventId,
    {
      show: param(query, 'show'),
      ticket: param(query, 'ticket'),
      ticketOptionId: param(query, 'ticketOptionId'),
      zone: param(query, 'zone'),
      quantity: wanted,
      sort,
    },
    getDb(),
  );
  if (!page) notFound();
  const [[partner, inventory, promises], locale, fan] = await Promise.all([
    showContext(page.event.partnerId, page.show?.showPk),
    getLocale() as Promise<Locale>,
    fanOf(page.event.partnerId),
  ]);
  // Messages compiled once per process, not per request (page-translator.ts): ~700 of them a render.
  const t = pageTranslator(locale, 'buy');
  const tc = pageTranslator(locale, 'common');
  const returnTo = safeReturnTo(param(query, 'returnTo') ?? param(query, 'returnURL'), partner.returnOrigins);
  // The public sale URL names a ticket: on sale, its own listing; else a note above the show's other offers.
  const ticketPk = param(query, 'ticket');
  const named = ticketPk ? await namedTicketOnSale(ticketPk, eventId, getDb()) : null;
  if (named?.listingId) redirect(withReturnTo(`/listing/${named.listingId}`, returnTo));
  const { event, show, listings: all, facets } = page;
  const pageCount = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
  const requestedPage = Number(param(query, 'page'));
  const current = Number.isInteger(requestedPage) && requestedPage >= 1 ? Math.min(requestedPage, pageCount) : 1;
  const listings = all.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const filtered = activeFilters(query) > 0;
  const onSale = show ? showOnSale(show) : false;

  return (
    <MarketShell partner={{ id: partner.id, name: partner.name, logoUrl: partner.logoUrl }} returnTo={returnTo}>
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
          <div className="buy-listings-head">
            <h2 id="listings-heading" className="buy-h2">
              {t('listingsHeading')}
            </h2>
            {onSale &&
            (facets.options.length > 1 || facets.zones.length > 0 || facets.quantities.length > 1 || all.length > 1) ? (
              <FilterSheet
                eventId={eventId}
                query={query}
                showPk={show?.showPk}
                returnTo={returnTo}
                facets={facets}
                sort={sort}
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
          ) : show && inventory.get(show.showPk)?.primarySoldOut ? (
            <p className="mk-notice" data-testid="primary-sold-out">
              {t('primarySoldOut', { partner: partner.name })}
            </p>
          ) : null}

          {onSale && listings.length ? (
            <>
              <p className="mk-muted" aria-live="polite" data-testid="listing-count">
                {t('count', { count: all.length })}
                {pageCount > 1
                  ? ` · ${t('showing', { from: (current - 1) * PAGE_SIZE + 1, to: (current - 1) * PAGE_SIZE + listings.length })}`
                  : ''}
              </p>
              <ul className="mk-listings" data-testid="market-listings">
                {listings.map((l) => (
                  <OfferCard key={l.id} offer={l} returnTo={returnTo} wanted={wanted} locale={locale} t={t} tc={tc} />
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
                  href={hrefWith(eventId, query, { ticketOptionId: undefined, zone: undefined, qty: undefined })}
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
        </section>

        <aside className="buy-aside">
          <div className="mk-card buy-trust" data-testid="buy-trust">
            <p>{t('trust', { partner: partner.name })}</p>
            {/* Reissue or transfer, and when the code shows: the partner's settings for this show. */}
            {promises ? <p data-testid="buy-delivery">{deliveryText(locale, promises)}</p> : null}
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
