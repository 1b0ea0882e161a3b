import { z } from 'zod';
import type { Db } from '@/db';
import { notFound } from '@/server/lib/errors';
import { fromMinorUnits } from '@/server/lib/money';
import { cleanSeatMap, drawSeatMap, sectionKey, svgSections } from '@/server/lib/svg';
import { eventPageInfo, eventRef } from '@/server/modules/catalog';
import { showSections } from '@/server/modules/fan-pages';

export const seatMapPreviewInput = eventRef.extend({
  /** The show whose offers the map counts (its `showId`); the first show when not given or unknown. */
  showId: z.string().max(200).optional(),
});

/**
 * The event's seat map as staff check it: drawn as fans see it for one show, each section with
 * its tickets on sale and from-price, and what does not match — sections the tickets name that the SVG
 * lacks, and SVG sections (`data-section`) that no ticket names. Another partner's event is a 404.
 */
export async function seatMapPreview(input: z.input<typeof seatMapPreviewInput>, db: Db) {
  const { partnerId, eventId, showId } = seatMapPreviewInput.parse(input);
  const event = await eventPageInfo(eventId, db);
  if (!event || event.partnerId !== partnerId) throw notFound('Event not found');
  const shows = event.shows.map((s) => ({ showId: s.showId, title: s.title }));
  const show = event.shows.find((s) => s.showId === showId) ?? event.shows[0];
  if (!event.seating || !show) return { shows, showId: show?.showId ?? null, map: null };
  const figures = await Promise.all(event.shows.map((s) => showSections(partnerId, s.showPk, db)));
  const named = new Set(figures.flat().map((f) => f.key));
  const svg = event.seating.svg ? cleanSeatMap(event.seating.svg) : null;
  const drawnSections = svg ? svgSections(svg, named) : [];
  const inMap = new Set(drawnSections.map((d) => d.key));
  const mine = figures[event.shows.indexOf(show)];
  const byKey = new Map(mine.map((f) => [f.key, f]));
  const sections = [
    ...drawnSections.map((d) => ({ name: byKey.get(d.key)?.name ?? d.name, key: d.key, label: d.label ?? d.name })),
    ...mine.filter((f) => !inMap.has(f.key)).map((f) => ({ name: f.name, key: f.key, label: f.name })),
  ].map((s) => {
    const f = byKey.get(s.key);
    return {
      ...s,
      inMap: inMap.has(s.key),
      available: f?.available ?? 0,
      minPrice: f?.minPerTicketMinor != null && f.currency ? fromMinorUnits(f.minPerTicketMinor, f.currency) : null,
      currency: f?.currency ?? null,
    };
  });
  const drawn = svg
    ? drawSeatMap(svg, {
        named,
        idPrefix: 'preview-',
        sections: new Map(
          sections.map((s) => [
            s.key,
            {
              className: s.available ? 'on' : 'off',
              label: `${s.label}: ${s.available} on sale`,
            },
          ]),
        ),
      })
    : null;
  const allNamed = new Map(figures.flat().map((f) => [f.key, f.name]));
  return {
    shows,
    showId: show.showId,
    map: {
      image: event.seating.image,
      drawn,
      sections,
      /** Sections the event's tickets name (any show) that the SVG does not draw: fans cannot pick them on the map. */
      missingInMap: svg ? [...allNamed].filter(([key]) => !inMap.has(key)).map(([, name]) => name) : [],
      /** Sections the SVG declares that no ticket of the event names: drawn, never on sale. */
      withoutTickets: drawnSections.filter((d) => !named.has(sectionKey(d.name))).map((d) => d.name),
    },
  };
}
