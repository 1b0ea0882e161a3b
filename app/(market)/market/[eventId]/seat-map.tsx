import type { Locale, PageT } from '@/server/lib/i18n';
import { seatMapAspect } from '@/server/lib/svg';
import { type BuyPageModel, SEAT_MAP_ID_PREFIX, seatMapData, sectionHref } from '@/server/modules/fan-pages';
import { hrefWith, type Query } from './market-parts';

type T = PageT<'buy'>;

/**
 * The seat map above the offers. The event's SVG is drawn in a document of its own
 * (fan-pages seat-map.ts, `/market/<eventPk>/map`) shown in a frame: each section with tickets on sale a link, named with its count and
 * from-price, to this page filtered to it (`?section=`, opened in this page), the listed seats marked; or,
 * for an image-only map, the image. Below it, "All sections" and the sections the drawing lacks (every
 * section of an image) as links: the filter works before JavaScript, and each filtered page has its own
 * address. Collapsible (`<details>`).
 *
 * Why a frame (docs/decisions.md, "The map"): drawn inline, a 200-section map was on the page twice (its
 * HTML, and again escaped in React's inline payload), 143 KB a render; the frame's document is plain HTML
 * made from the same shared model, once per address a second.
 */
export function SeatMap({
  eventId,
  query,
  model,
  locale,
  t,
}: {
  eventId: string;
  query: Query;
  model: BuyPageModel;
  locale: Locale;
  t: T;
}) {
  const seating = model.event.seating;
  const data = seatMapData(query, model, locale, t);
  if (!seating || !data) return null;
  const aspect = seating.svg ? seatMapAspect(seating.svg, SEAT_MAP_ID_PREFIX, seating.svgVersion ?? undefined) : null;
  // Listed as links below: the sections the map does not draw (every section of an image-only map).
  const listed = data.entries.filter((e) => aspect === null || !data.drawnKeys.has(e.key));
  const mapAddress = hrefWith(eventId, query, { page: undefined, lang: locale }).replace(
    `/market/${eventId}`,
    `/market/${eventId}/map`,
  );
  return (
    <details className="buy-map" open data-testid="seat-map">
      <summary className="buy-map-summary">{t('mapHeading')}</summary>
      <p className="mk-muted buy-map-hint">{t('mapHint')}</p>
      {aspect !== null ? (
        <iframe
          className="buy-map-frame"
          src={mapAddress}
          title={t('mapHeading')}
          // The drawing's own shape, so the frame never scrolls nor leaves a band.
          style={{ aspectRatio: String(aspect) }}
          data-testid="seat-map-frame"
        />
      ) : seating.image ? (
        // eslint-disable-next-line @next/next/no-img-element -- the partner's image URL, not ours to optimise
        <img className="buy-map-image" src={seating.image} alt={t('mapImage')} />
      ) : null}
      <ul className="buy-map-sections" aria-label={t('mapSections')} data-testid="seat-map-sections">
        <li>
          <a href={sectionHref(eventId, query, undefined)} aria-current={data.chosenKey ? undefined : 'true'}>
            {t('mapAll')}
          </a>
        </li>
        {listed.map((e) => (
          <li key={e.key}>
            <a
              href={sectionHref(eventId, query, e.name)}
              aria-current={e.key === data.chosenKey ? 'true' : undefined}
              className={e.available ? undefined : 'buy-map-link-off'}
            >
              {data.nameOf(e.key)}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
