import type { getTranslations } from 'next-intl/server';
import { withReturnTo } from '@/components/market/return-to';
import { formatShowDate, type Locale } from '@/server/lib/i18n';
import type { buyPage, MarketSort } from '@/server/modules/marketplace';
import { money, param, seatText } from '../buy-format';

/*
 * The market page's parts (page.tsx puts them together): the event's hero, the links to its other
 * shows, the filters, one listing, and the pages of a long list.
 */

type T = Awaited<ReturnType<typeof getTranslations<'buy'>>>;
type TCommon = Awaited<ReturnType<typeof getTranslations<'common'>>>;
type Page = NonNullable<Awaited<ReturnType<typeof buyPage>>>;
export type Query = Record<string, string | string[] | undefined>;

/** This page's URL with some parameters changed (the rest of the fan's query kept). */
export function hrefWith(eventId: string, query: Query, changes: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (value && !(k in changes)) q.set(k, value);
  }
  for (const [k, v] of Object.entries(changes)) if (v) q.set(k, v);
  const s = q.toString();
  return `/market/${eventId}${s ? `?${s}` : ''}`;
}

/** The event's title and image, and the chosen show's date and venue. */
export function EventHero({
  event,
  show,
  locale,
  t,
}: {
  event: Page['event'];
  show: Page['show'];
  locale: Locale;
  t: T;
}) {
  const image = show?.images[0];
  const venue = show?.venue;
  return (
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
  );
}

/** The event's shows, each a link to its own listings (the filters of another show dropped). */
export function ShowLinks(props: {
  eventId: string;
  query: Query;
  shows: Page['event']['shows'];
  current: string | undefined;
  locale: Locale;
  t: T;
}) {
  const { eventId, query, shows, current, locale, t } = props;
  return (
    <nav className="buy-shows" aria-labelledby="shows-heading">
      <h2 id="shows-heading">{t('showsHeading')}</h2>
      <ul>
        {shows.map((s) => (
          <li key={s.showPk}>
            <a
              href={hrefWith(eventId, query, {
                show: s.showPk,
                zone: undefined,
                ticketOptionId: undefined,
                page: undefined,
              })}
              aria-current={s.showPk === current ? 'page' : undefined}
              data-testid="show-link"
            >
              <span>{formatShowDate(s.startsAt, locale, s.venue.timeZone)}</span>
              {s.status === 'CANCELLED' ? <span className="mk-badge mk-badge-bad">{t('showCancelled')}</span> : null}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The fan's filters and sort, sent as a plain GET form (works without JavaScript). */
export function MarketFilters(props: {
  eventId: string;
  query: Query;
  showPk: string | undefined;
  returnTo: string | null;
  facets: Page['facets'];
  sort: MarketSort;
  t: T;
}) {
  const { eventId, query, showPk, returnTo, facets, sort, t } = props;
  return (
    <form
      method="get"
      action={`/market/${eventId}`}
      className="mk-filters buy-filters"
      aria-label={t('filtersHeading')}
    >
      {showPk ? <input type="hidden" name="show" value={showPk} /> : null}
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
  );
}

/** One listing on sale: what it is, the price per ticket with every fee, and its buy button. */
export function ListingCard(props: {
  listing: Page['listings'][number];
  returnTo: string | null;
  locale: Locale;
  t: T;
  tc: TCommon;
}) {
  const { listing: l, returnTo, locale, t, tc } = props;
  const perTicket = money(l.perTicketMinor, l.currency, locale);
  const total = money(l.totalMinor, l.currency, locale);
  return (
    <li className="mk-listing buy-listing" data-testid="listing" data-listing-id={l.id}>
      <div>
        <p className="mk-listing-title">
          {l.optionTitle}
          {l.priceTypeTitle ? <span className="mk-badge buy-badge">{l.priceTypeTitle}</span> : null}
          {l.fromChannel ? (
            <span className="mk-badge buy-badge" data-testid="listing-source" title={t('fromChannelHint')}>
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
}

/** Previous and next page of a long list of listings. */
export function ListingPages(props: { eventId: string; query: Query; current: number; pageCount: number; t: T }) {
  const { eventId, query, current, pageCount, t } = props;
  return (
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
  );
}
