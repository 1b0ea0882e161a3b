import type { Locale, PageT } from '@/server/lib/i18n';
import { drawSeatMap, sectionKey, svgSections } from '@/server/lib/svg';
import type { BuyPageModel } from '@/server/modules/fan-pages';
import { money, param } from '../buy-format';
import { hrefWith, type Query } from './market-parts';
import { SeatMapKeys } from './seat-map-keys';

type T = PageT<'buy'>;

/** A section as the map lists it: the SVG's in its order, then those only offers name. */
interface Entry {
  key: string;
  /** As the tickets name it (the `section=` of its link). */
  name: string;
  /** What the fan reads: the SVG's `data-label`/`aria-label`, else the name. */
  label: string;
  available: number;
  minPerTicketMinor: number | null;
  currency: string | null;
}

/**
 * The seat map above the offers (issue 46): the event's SVG drawn inline, each section with tickets on sale
 * highlighted, named with its count and from-price and drawn inside a link to the page filtered to it
 * (`?section=`), the listed seats marked; or, for an image-only map, the image. Below it, "All sections" and
 * the sections the drawing lacks (every section of an image) as links: the filter works before JavaScript,
 * and each filtered page has its own address. Collapsible (`<details>`).
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
  if (!seating) return null;
  const onSale = new Map(model.facets.sections.map((s) => [s.key, s]));
  const chosen = param(query, 'section');
  const chosenKey = chosen ? sectionKey(chosen) : null;
  // An element is a section when its data-section, or its id, is a section some ticket names (listed or not).
  const ticketNamed = new Set([...model.ticketSections, ...onSale.keys()]);
  const drawnSections = seating.svg ? svgSections(seating.svg, ticketNamed, seating.svgVersion ?? undefined) : [];
  const entries: Entry[] = [
    ...drawnSections.map((d) => {
      const figures = onSale.get(d.key);
      return {
        key: d.key,
        name: figures?.name ?? d.name,
        label: d.label ?? figures?.name ?? d.name,
        available: figures?.available ?? 0,
        minPerTicketMinor: figures?.minPerTicketMinor ?? null,
        currency: figures?.currency ?? null,
      };
    }),
    ...model.facets.sections
      .filter((s) => !drawnSections.some((d) => d.key === s.key))
      .map((s) => ({ ...s, label: s.name })),
  ];
  // Each section's name as fans read it, made once (the drawing and the list both say it).
  const names = new Map(
    entries.map((e) => [
      e.key,
      e.available && e.minPerTicketMinor !== null && e.currency
        ? t('mapSection', {
            section: e.label,
            count: e.available,
            price: money(e.minPerTicketMinor, e.currency, locale),
          })
        : t('mapSectionNone', { section: e.label }),
    ]),
  );
  // Relative to the page itself (its query only): a map's 200 sections' links are sent twice (HTML and payload).
  const link = (section: string | undefined) =>
    hrefWith(eventId, query, { section, page: undefined }).replace(`/market/${eventId}`, '') || '?';
  const drawn = seating.svg
    ? drawSeatMap(seating.svg, {
        named: ticketNamed,
        idPrefix: 'seatmap-',
        version: seating.svgVersion ?? undefined,
        sections: new Map(
          entries.map((e) => [
            e.key,
            {
              // A section with tickets on sale is a link to them, drawn on the map itself (styled as a link:
              // `.buy-map-drawing a`, the chosen one by its aria-current); one without, dimmed.
              className: e.available > 0 ? undefined : `buy-map-off${e.key === chosenKey ? ' buy-map-chosen' : ''}`,
              label: names.get(e.key)!,
              href: e.available > 0 ? link(e.name) : undefined,
              current: e.key === chosenKey,
            },
          ]),
        ),
        seats: new Map(
          model.facets.sections.flatMap((s) => s.seats.map((seat) => [`${s.key} ${seat}`, 'buy-map-seat'])),
        ),
      })
    : null;
  // Listed as links below: the sections the map does not draw (every section of an image-only map).
  const drawnKeys = new Set(drawn ? drawnSections.map((d) => d.key) : []);
  const listed = entries.filter((e) => !drawnKeys.has(e.key));
  return (
    <details className="buy-map" open data-testid="seat-map">
      <summary className="buy-map-summary">{t('mapHeading')}</summary>
      <p className="mk-muted buy-map-hint">{t('mapHint')}</p>
      {drawn ? (
        // Partner markup, cleaned twice (when written and here: svg.ts's allowlist); ids prefixed.
        <SeatMapKeys>
          <div dangerouslySetInnerHTML={{ __html: drawn }} />
        </SeatMapKeys>
      ) : seating.image ? (
        // eslint-disable-next-line @next/next/no-img-element -- the partner's image URL, not ours to optimise
        <img className="buy-map-image" src={seating.image} alt={t('mapImage')} />
      ) : null}
      <ul className="buy-map-sections" aria-label={t('mapSections')} data-testid="seat-map-sections">
        <li>
          <a href={link(undefined)} aria-current={chosenKey ? undefined : 'true'}>
            {t('mapAll')}
          </a>
        </li>
        {listed.map((e) => (
          <li key={e.key}>
            <a
              href={link(e.name)}
              aria-current={e.key === chosenKey ? 'true' : undefined}
              className={e.available ? undefined : 'buy-map-link-off'}
            >
              {names.get(e.key)}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
