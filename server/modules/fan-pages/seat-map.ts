import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '@/db';
import { BUY_PAGE_LAYER_MS, SEAT_MAP_DOCUMENTS } from '@/server/lib/freshness';
import { escapeHtml } from '@/server/lib/escape-html';
import { formatMoney, type Locale, type PageT, pageTranslator } from '@/server/lib/i18n';
import { defaultLocale, supportedLocale } from '@/server/lib/i18n/locales';
import { fromMinorUnits } from '@/server/lib/money';
import { shortCache } from '@/server/lib/short-cache';
import { drawSeatMap, sectionKey, type SvgSection, svgSections } from '@/server/lib/svg';
import { type BuyPageModel, type BuyPageQuery, buyPageModel, queryParam } from './buy-page-model';
import { framingOriginsOf } from './framing';

type T = PageT<'buy'>;

/*
 * The buy page's seat map: its sections, their names and the filter, as the page lists them, and
 * the drawing as a document of its own (`/market/<eventPk>/map?<the page's query>`), which the page shows in
 * a frame. docs/decisions.md, "The map", says why a frame: drawn inline, the map was sent twice per page
 * (its HTML, and again escaped in React's inline payload).
 */

/** Prefixed to the partner's ids in the drawing (they must not clash with the document's own). */
export const SEAT_MAP_ID_PREFIX = 'seatmap-';

/** The buy page at `query` with some parameters changed (the rest of the fan's query kept, in its order). */
export function buyPageHref(eventId: string, query: BuyPageQuery, changes: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (value && !(k in changes)) q.set(k, value);
  }
  for (const [k, v] of Object.entries(changes)) if (v) q.set(k, v);
  const s = q.toString();
  return `/market/${eventId}${s ? `?${s}` : ''}`;
}

/** The buy page at `query` filtered to `section` (all sections when undefined), from its first page. */
export function sectionHref(eventId: string, query: BuyPageQuery, section: string | undefined): string {
  return buyPageHref(eventId, query, { section, page: undefined });
}

/** A section as the map lists it: the SVG's in its order, then those only offers name. */
export interface SeatMapEntry {
  key: string;
  /** As the tickets name it (the `section=` of its link). */
  name: string;
  /** What the fan reads: the SVG's `data-label`/`aria-label`, else the name. */
  label: string;
  available: number;
}

export interface SeatMapData {
  /** Every section: the drawing's in its order, then those only offers name. */
  entries: SeatMapEntry[];
  /** A section's name as fans read it ("Grada A, 3 tickets from 46,20 €"), by key. */
  nameOf(key: string): string;
  /** The section the page is filtered to, by key. */
  chosenKey: string | null;
  /** Section keys some ticket names (an element whose id is one is a section). */
  ticketNamed: Set<string>;
  /** The keys of the sections the drawing has. */
  drawnKeys: Set<string>;
}

/**
 * The sections the event's drawing has, in its order. An element is a section when its data-section, or its
 * id, is a section some ticket names (listed or not).
 */
function drawnSectionsOf(model: BuyPageModel): { ticketNamed: Set<string>; drawn: SvgSection[] } {
  const seating = model.event.seating;
  const ticketNamed = new Set([...model.ticketSections, ...model.facets.sections.map((s) => s.key)]);
  const drawn = seating?.svg ? svgSections(seating.svg, ticketNamed, seating.svgVersion ?? undefined) : [];
  return { ticketNamed, drawn };
}

/**
 * A section's name as the seat map labels it (an element's `data-label`, else its `aria-label`), by the name
 * tickets give it; null where the map gives none (or the event has no drawing). The offers, the held offers
 * and the filters name sections by it, as the map does.
 */
export function sectionLabeler(model: BuyPageModel): (section: string) => string | null {
  const labels = new Map<string, string>();
  for (const d of drawnSectionsOf(model).drawn) if (d.label) labels.set(d.key, d.label);
  return (section) => labels.get(sectionKey(section)) ?? null;
}

/** The seat map's sections, names and filter for the page at `query`; null when the event has no `seating`. */
export function seatMapData(query: BuyPageQuery, model: BuyPageModel, locale: Locale, t: T): SeatMapData | null {
  const seating = model.event.seating;
  if (!seating) return null;
  const onSale = new Map(model.facets.sections.map((s) => [s.key, s]));
  const chosen = queryParam(query, 'section');
  const { ticketNamed, drawn: drawnSections } = drawnSectionsOf(model);
  const entries = [
    ...drawnSections.map((d) => ({
      key: d.key,
      name: onSale.get(d.key)?.name ?? d.name,
      label: d.label ?? onSale.get(d.key)?.name ?? d.name,
    })),
    ...model.facets.sections
      .filter((s) => !drawnSections.some((d) => d.key === s.key))
      .map((s) => ({ key: s.key, name: s.name, label: s.name })),
  ].map((e) => ({ ...e, available: onSale.get(e.key)?.available ?? 0 }));
  // Said when asked: a page lists only the sections its drawing lacks (200 names take ICU 1–3 ms).
  const names = new Map<string, string>();
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const nameOf = (key: string) => {
    let name = names.get(key);
    if (name === undefined) {
      const e = byKey.get(key);
      const figures = onSale.get(key);
      const label = e?.label ?? key;
      name =
        e?.available && figures?.minPerTicketMinor != null && figures.currency
          ? t('mapSection', {
              section: label,
              count: e.available,
              price: formatMoney(fromMinorUnits(figures.minPerTicketMinor, figures.currency), figures.currency, locale),
            })
          : t('mapSectionNone', { section: label });
      names.set(key, name);
    }
    return name;
  };
  return {
    entries,
    nameOf,
    chosenKey: chosen ? sectionKey(chosen) : null,
    ticketNamed,
    drawnKeys: new Set(drawnSections.map((d) => d.key)),
  };
}

/**
 * Where each section link's address starts in a drawing made once for many addresses: replaced by the
 * page's own address (its query but `section` and `page`) as a document is sent. Random per process, and
 * made of letters and digits only, so no partner markup and no escaping can make or break one.
 */
const HREF_SLOT = `encorehref${randomBytes(12).toString('hex')}`;

/**
 * The event's SVG with each section marked: a section with tickets on sale drawn inside a link to the page
 * filtered to it (`target="_parent"`: the page around the frame), named with its count and from-price; one
 * without, dimmed and named; the listed seats marked. The links' addresses start with HREF_SLOT. Null without
 * an SVG, or when its markup cannot be drawn.
 */
function drawing(model: BuyPageModel, data: SeatMapData): string | null {
  const seating = model.event.seating;
  if (!seating?.svg) return null;
  return drawSeatMap(seating.svg, {
    named: data.ticketNamed,
    idPrefix: SEAT_MAP_ID_PREFIX,
    version: seating.svgVersion ?? undefined,
    target: '_parent',
    sections: new Map(
      data.entries.map((e) => [
        e.key,
        {
          className: e.available > 0 ? undefined : `buy-map-off${e.key === data.chosenKey ? ' buy-map-chosen' : ''}`,
          label: data.nameOf(e.key),
          href: e.available > 0 ? `${HREF_SLOT}${new URLSearchParams({ section: e.name })}` : undefined,
          current: e.key === data.chosenKey,
        },
      ]),
    ),
    seats: new Map(model.facets.sections.flatMap((s) => s.seats.map((seat) => [`${s.key} ${seat}`, 'buy-map-seat']))),
  });
}

/** The drawing's rules (the page's colours, app/(market)/market.css). */
const STYLE =
  'html,body{margin:0;height:100%;background:#fff}svg{display:block;width:100%;height:100%}' +
  '.buy-map-off{opacity:.35}a{cursor:pointer;stroke:#0a58d6;stroke-width:2px}' +
  'a:hover,a:focus-visible{stroke-width:4px;outline:none}' +
  "a[aria-current='true'],.buy-map-chosen{stroke:#0845a8;stroke-width:5px}.buy-map-seat{fill:#0a58d6}";

/** Space on a focused section follows it, as on a button (a click and Enter need no script). */
const SCRIPT =
  "document.addEventListener('keydown',function(e){if(e.key!==' ')return;" +
  "var a=e.target&&e.target.closest?e.target.closest('a[href]'):null;if(!a)return;e.preventDefault();" +
  "a.dispatchEvent(new MouseEvent('click',{bubbles:true,cancelable:true}));});";

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The document's policy: nothing but its own style and script, by their hashes (no nonce: the same bytes for
 * every fan); its links leave (`_parent`); framed by the buy page, and by whatever may frame the buy page
 * (every ancestor is checked), never by another site.
 */
function policy(framers: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src ${hash(SCRIPT)}`,
    `style-src ${hash(STYLE)}`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${["'self'", ...framers].join(' ')}`,
  ].join('; ');
}

/** The parameters the drawing depends on (the model's filters): one drawing for the addresses that differ in others. */
const DRAWING_PARAMS = ['show', 'ticket', 'ticketOptionId', 'zone', 'section', 'qty'] as const;

/** A drawn document up to its links' addresses (its head and drawing), shared per event, language and filters. */
const drawings = shortCache<{ html: string } | null>(SEAT_MAP_DOCUMENTS, BUY_PAGE_LAYER_MS, {
  sizeOf: (doc) => (doc ? doc.html.length * 2 : 1),
  maxBytes: 64 * 1024 * 1024,
});

export interface SeatMapDocument {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The seat map document at `url` (`/market/<eventPk>/map?<the page's query>`): the drawing in its language
 * (`lang=`, which the page always sends), each section's link to the page at its own query but filtered to
 * that section. The drawing is made once per event, language and filters for BUY_PAGE_LAYER_MS in this
 * process, from the page's shared model (forgotten with it on a listing write: offers-cache.ts), and each
 * answer only writes its address into the links: in a rush, a fan's frame costs a memory read and a copy.
 * 404 (an empty document) for an unknown event or one without a drawable SVG. Encore's HTTP server answers it
 * before Next.js (server/http/listener.ts), and the Next.js route (`next dev`) the same way.
 */
export async function seatMapDocument(url: URL, db: Db): Promise<SeatMapDocument> {
  const eventId = /^\/market\/([A-Za-z0-9_]{1,64})\/map\/?$/.exec(url.pathname)?.[1];
  const locale = supportedLocale(url.searchParams.get('lang')) ?? defaultLocale();
  const query: BuyPageQuery = {};
  for (const [k, v] of url.searchParams) query[k] ??= v;
  const key = [eventId, locale, ...DRAWING_PARAMS.map((p) => queryParam(query, p) ?? '')].join('\n');
  const [doc, framers] = eventId
    ? await Promise.all([
        drawings.get(key, async () => {
          const model = await buyPageModel(eventId, query, db);
          const t = pageTranslator(locale, 'buy');
          const data = model && seatMapData(query, model, locale, t);
          const drawn = data && drawing(model, data);
          if (!drawn) return null;
          return {
            html:
              `<!doctype html><html lang="${locale}"><head><meta charset="utf-8">` +
              `<title>${escapeHtml(t('mapHeading'))}</title><style>${STYLE}</style></head><body>${drawn}`,
          };
        }),
        framingOriginsOf(`/market/${eventId}`, db),
      ])
    : [null, []];
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': policy(framers),
    ...(framers.length ? {} : { 'x-frame-options': 'SAMEORIGIN' }),
    'cache-control': 'private, no-store',
  };
  if (!doc) {
    // Seen only if the frame's event went away (or its address was made up): said in a line, in its language.
    const title = escapeHtml(`${pageTranslator(locale, 'notFound')('title')} · Encore`);
    return {
      status: 404,
      headers,
      body: `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${title}</title></head><body><p>${title}</p></body></html>`,
    };
  }
  // Each link: the page's own address but `section` and `page`, then its section.
  const own = sectionHref(eventId!, query, undefined);
  const start = escapeHtml(`${own}${own.includes('?') ? '&' : '?'}`);
  return {
    status: 200,
    headers,
    body: `${doc.html.split(HREF_SLOT).join(start)}<script>${SCRIPT}</script></body></html>`,
  };
}
