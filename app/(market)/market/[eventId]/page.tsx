import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getLocale, getTranslations } from 'next-intl/server';
import { safeReturnTo, withReturnTo } from '@/components/market/return-to';
import { fanOf } from '@/components/market/session';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { formatShowDate, type Locale } from '@/server/lib/i18n';
import { deliveryText } from '@/server/lib/promises';
import { showInventories, type ShowInventory } from '@/server/modules/market-data';
import { buyerPromiseFacts, buyPage, type MarketSort, showOnSale } from '@/server/modules/marketplace';
import { getPartner } from '@/server/modules/partners';
import { money, param, seatText } from '../buy-format';
import { Description } from '../description';
import { WishlistForm } from '../wishlist-form';
import '../buy.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('buy');
  return { title: t('metaTitle') };
}

type Query = Record<string, string | string[] | undefined>;

/** Listings per page: a rush show can have thousands; the fan sorts and filters, then pages. */
const PAGE_SIZE = 50;
type Props = { params: Promise<{ eventId: string }>; searchParams: Promise<Query> };

/** This page's URL with some parameters changed (the rest of the fan's query kept). */
function hrefWith(eventId: string, query: Query, changes: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (value && !(k in changes)) q.set(k, value);
  }
  for (const [k, v] of Object.entries(changes)) if (v) q.set(k, v);
  const s = q.toString();
  return `/market/${eventId}${s ? `?${s}` : ''}`;
}

/** The buying flow's first step: the event, its dates, and the show's tickets on sale with every fee shown. */
export default async function MarketPage({ params, searchParams }: Props) {
  await connection();
  const [{ eventId }, query] = await Promise.all([params, searchParams]);
  const quantity = Number(param(query, 'qty'));
  const sort: MarketSort = param(query, 'sort') === 'price_desc' ? 'price_desc' : 'price_asc';
  const page = await buyPage(
    eventId,
    {
      show: param(query, 'show'),
      ticket: param(query, 'ticket'),
      ticketOptionId: param(query, 'ticketOptionId'),
      zone: param(query, 'zone'),
      quantity: Number.isInteger(quantity) && quantity > 0 ? quantity : undefined,
      sort,
    },
    getDb(),
  );
  if (!page) notFound();
  const [partner, t, tc, locale, fan, inventory, promises] = await Promise.all([
    getPartner(page.event.partnerId, getDb()),
    getTranslations('buy'),
    getTranslations('common'),
    getLocale() as Promise<Locale>,
    fanOf(page.event.partnerId),
    page.show ? showInventories([page.show.showPk], getDb()) : new Map<string, ShowInventory>(),
    page.show ? buyerPromiseFacts(page.show.showPk, getDb()) : null,
  ]);
  const returnTo = safeReturnTo(param(query, 'returnTo') ?? param(query, 'returnURL'), partner.returnOrigins);
  const { event, show, listings: all, facets } = page;
  const pageCount = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
  const requestedPage = Number(param(query, 'page'));
  const current = Number.isInteger(requestedPage) && requestedPage >= 1 ? Math.min(requestedPage, pageCount) : 1;
  const listings = all.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const filtered = !!(param(query, 'ticketOptionId') || param(query, 'zone') || param(query, 'qty'));
  const onSale = show ? showOnSale(show) : false;
  const image = show?.images[0];
  const venue = show?.venue;

  return (
    <MarketShell partner={{ id: partner.id, name: partner.name, logoUrl: partner.logoUrl }} returnTo={returnTo}>
      <section className={image ? 'mk-hero' : 'mk-hero buy-hero-text'}>
        {image ? (
          // eslint-disable-next-line @next/next/no-img-element -- the partner's image URL, not ours to optimise
          <img src={image} alt="" width={640} height={360} />
        ) : null}
        <div>
          <h1 data-testid="event-title">{event.title}</h1>
          {show ? (
            <dl className="buy-facts">
              <div>
                <dt>{t('date')}</dt>
                <dd data-testid="show-date">{formatShowDate(show.startsAt, locale, venue?.timeZone)}</dd>
              </div>
              {venue?.name || venue?.address ? (
                <div>
                  <dt>{t('venue')}</dt>
                  <dd data-testid="show-venue">{[venue.name, venue.address].filter(Boolean).join(' · ')}</dd>
                </div>
              ) : null}
            </dl>
          ) : null}
        </div>
      </section>

      {event.shows.length > 1 ? (
        <nav className="buy-shows" aria-labelledby="shows-heading">
          <h2 id="shows-heading">{t('showsHeading')}</h2>
          <ul>
            {event.shows.map((s) => (
              <li key={s.showPk}>
                <a
                  href={hrefWith(eventId, query, {
                    show: s.showPk,
                    zone: undefined,
                    ticketOptionId: undefined,
                    page: undefined,
                  })}
                  aria-current={s.showPk === show?.showPk ? 'page' : undefined}
                  data-testid="show-link"
                >
                  <span>{formatShowDate(s.startsAt, locale, s.venue.timeZone)}</span>
                  {s.status === 'CANCELLED' ? (
                    <span className="mk-badge mk-badge-bad">{t('showCancelled')}</span>
                  ) : null}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}

      <div className="mk-grid">
        <section aria-labelledby="listings-heading">
          <h2 id="listings-heading" className="buy-h2">
            {t('listingsHeading')}
          </h2>
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

          {onSale &&
          (facets.options.length > 1 || facets.zones.length > 0 || facets.quantities.length > 1 || all.length > 1) ? (
            <form
              method="get"
              action={`/market/${eventId}`}
              className="mk-filters buy-filters"
              aria-label={t('filtersHeading')}
            >
              {show ? <input type="hidden" name="show" value={show.showPk} /> : null}
              {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
              <div className="mk-field">
                <label htmlFor="f-option">{t('option')}</label>
                <select id="f-option" name="ticketOptionId" defaultValue={param(query, 'ticketOptionId') ?? ''}>
                  <option value="">{t('allOptions')}</option>
                  {facets.options.map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.title}
                    </option>
                  ))}
                </select>
              </div>
              {facets.zones.length ? (
                <div className="mk-field">
                  <label htmlFor="f-zone">{t('zone')}</label>
                  <select id="f-zone" name="zone" defaultValue={param(query, 'zone') ?? ''}>
                    <option value="">{t('allZones')}</option>
                    {facets.zones.map((z) => (
                      <option key={z} value={z}>
                        {z}
                      </option>
                    ))}
                  </select>
                </div>
              ) : null}
              <div className="mk-field">
                <label htmlFor="f-qty">{t('quantity')}</label>
                <select id="f-qty" name="qty" defaultValue={param(query, 'qty') ?? ''} aria-describedby="f-qty-hint">
                  <option value="">{t('anyQuantity')}</option>
                  {facets.quantities.map((n) => (
                    <option key={n} value={String(n)}>
                      {t('quantityExactly', { count: n })}
                    </option>
                  ))}
                </select>
              </div>
              <div className="mk-field">
                <label htmlFor="f-sort">{t('sort')}</label>
                <select id="f-sort" name="sort" defaultValue={sort}>
                  <option value="price_asc">{t('sortAsc')}</option>
                  <option value="price_desc">{t('sortDesc')}</option>
                </select>
              </div>
              <button type="submit" className="mk-btn mk-btn-secondary" data-testid="apply-filters">
                {t('apply')}
              </button>
              <p id="f-qty-hint" className="mk-hint buy-hint">
                {t('quantityHint')}
              </p>
            </form>
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
                {listings.map((l) => {
                  const perTicket = money(l.perTicketMinor, l.currency, locale);
                  const total = money(l.totalMinor, l.currency, locale);
                  return (
                    <li key={l.id} className="mk-listing buy-listing" data-testid="listing" data-listing-id={l.id}>
                      <div>
                        <p className="mk-listing-title">
                          {l.optionTitle}
                          {l.priceTypeTitle ? <span className="mk-badge buy-badge">{l.priceTypeTitle}</span> : null}
                          {l.fromChannel ? (
                            <span
                              className="mk-badge buy-badge"
                              data-testid="listing-source"
                              title={t('fromChannelHint')}
                            >
                              {t('fromChannel')}
                            </span>
                          ) : null}
                        </p>
                        <p className="mk-listing-seat" data-testid="listing-seat">
                          {seatText(l.seats, t)}
                        </p>
                        <p className="mk-listing-seat">
                          {t('quantityExactly', { count: l.ticketCount })}
                          {l.type === 'PACK' ? ` · ${t('pack')}` : ''}
                        </p>
                        <p className="mk-hint buy-fees" data-testid="listing-fees">
                          {t('priceLine', {
                            price: money(l.priceMinor, l.currency, locale),
                            fee: money(l.feeMinor, l.currency, locale),
                          })}
                        </p>
                      </div>
                      <div className="buy-listing-side">
                        <p className="mk-price" data-testid="listing-price">
                          {perTicket}
                          <small>
                            {tc('perTicket')} · {tc('feesIncluded')}
                          </small>
                          <small>{t('total', { total })}</small>
                        </p>
                        <a
                          className="mk-btn"
                          href={withReturnTo(`/checkout?listings=${l.id}`, returnTo)}
                          aria-label={t('buyLabel', {
                            tickets: t('quantityExactly', { count: l.ticketCount }),
                            option: l.optionTitle,
                            total,
                          })}
                          data-testid="buy"
                        >
                          {t('buy')}
                        </a>
                      </div>
                    </li>
                  );
                })}
              </ul>
              {pageCount > 1 ? (
                <nav className="buy-pages" aria-label={t('pagesLabel')} data-testid="listing-pages">
                  {current > 1 ? (
                    <a
                      className="mk-btn mk-btn-secondary"
                      href={hrefWith(eventId, query, { page: current > 2 ? String(current - 1) : undefined })}
                      rel="prev"
                    >
                      {t('previousPage')}
                    </a>
                  ) : null}
                  <span className="mk-muted">{t('pageOf', { page: current, pages: pageCount })}</span>
                  {current < pageCount ? (
                    <a
                      className="mk-btn mk-btn-secondary"
                      href={hrefWith(eventId, query, { page: String(current + 1) })}
                      rel="next"
                      data-testid="next-page"
                    >
                      {t('nextPage')}
                    </a>
                  ) : null}
                </nav>
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
