import { formatShowDate, type Locale, type PageT } from '@/server/lib/i18n';
import { type buyPage, buyPageHref } from '@/server/modules/fan-pages';

/*
 * The market page's parts (page.tsx puts them together): the event's header, the links to its other
 * shows, and the pages of a long list (the filters: filter-sheet.tsx; one offer: offer-card.tsx).
 */

type T = PageT<'buy'>;
type Page = NonNullable<Awaited<ReturnType<typeof buyPage>>>;
export type Query = Record<string, string | string[] | undefined>;

/** This page's URL with some parameters changed (the rest of the fan's query kept). */
export const hrefWith = buyPageHref;

/**
 * The event's compact header: a small image, the title, and the chosen show's date and venue, so that on
 * a phone the offers start within the first screen.
 */
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
    <section className={image ? 'buy-head' : 'buy-head buy-head-text'} data-testid="event-head">
      {image ? (
        // eslint-disable-next-line @next/next/no-img-element -- the partner's image URL, not ours to optimise
        <img src={image} alt="" width={160} height={90} />
      ) : null}
      <div>
        <h1 data-testid="event-title">{event.title}</h1>
        {show ? (
          <dl className="buy-head-facts">
            <div>
              <dt className="sr-only">{t('date')}</dt>
              <dd data-testid="show-date">{formatShowDate(show.startsAt, locale, venue?.timeZone)}</dd>
            </div>
            {venue?.name || venue?.address ? (
              <div>
                <dt className="sr-only">{t('venue')}</dt>
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
