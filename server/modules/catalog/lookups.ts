import { createHash } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@/db';
import { combinations, events, priceTypes, shows, ticketOptions } from '@/db/schema/catalog';

export type { StoredPrimarySalesFee } from '@/db/schema/catalog';

/*
 * The catalogue as other modules read it, inside their own transaction: they never query the catalogue's
 * tables themselves (one owner per table), they call these.
 */

/** What tickets are checked against (the tickets module's import): the partner's events named by the tickets, their shows and pricing. */
export interface Catalogue {
  eventByRef: Map<string, string>;
  showByKey: Map<string, ShowRef>;
  showsOfEvent: Map<string, ShowRef[]>;
  optionByKey: Map<string, { currency: string; priceMinor: number | null }>;
  typeSet: Set<string>;
  comboPrice: Map<string, number | null>;
}
export interface ShowRef {
  pk: string;
  status: string;
}

/**
 * Holds shows against a cancellation until the caller's transaction ends (FOR SHARE; a cancellation
 * updates the show first, so it waits, or this waits for it), and answers their status as committed. A
 * purchase takes this before it locks its buy intention, the order a cancellation locks in (shows, then
 * tickets, intentions, listings): without it a payment and a cancellation at once could each hold what
 * the other needs.
 */
export async function holdShows(tx: Tx, showPks: string[]): Promise<ShowRef[]> {
  if (!showPks.length) return [];
  return tx
    .select({ pk: shows.id, status: shows.status })
    .from(shows)
    .where(inArray(shows.id, [...new Set(showPks)]))
    .orderBy(shows.id)
    .for('share');
}

/**
 * Loads the catalogue the tickets name. The shows are read FOR SHARE: a cancellation running meanwhile
 * waits for this import to commit (and then invalidates its tickets too), so no ticket lands valid on a
 * show cancelled under it.
 */
export async function catalogueFor(db: DbOrTx, partnerId: string, refs: string[]): Promise<Catalogue> {
  const eventRows = await db
    .select({ pk: events.id, ref: events.externalReferenceId })
    .from(events)
    .where(and(eq(events.partnerId, partnerId), inArray(events.externalReferenceId, refs)));
  const eventPks = eventRows.map((e) => e.pk);
  const showRows = eventPks.length
    ? await db
        .select({ pk: shows.id, showId: shows.showId, eventPk: shows.eventId, status: shows.status })
        .from(shows)
        .where(inArray(shows.eventId, eventPks))
        .for('share')
    : [];
  const showPks = showRows.map((s) => s.pk);
  const [options, types, combos] = showPks.length
    ? await Promise.all([
        db
          .select({
            showPk: ticketOptions.showPk,
            id: ticketOptions.ticketId,
            currency: ticketOptions.currency,
            priceMinor: ticketOptions.priceMinor,
          })
          .from(ticketOptions)
          .where(inArray(ticketOptions.showPk, showPks)),
        db
          .select({ showPk: priceTypes.showPk, id: priceTypes.priceTypeId })
          .from(priceTypes)
          .where(inArray(priceTypes.showPk, showPks)),
        db
          .select({
            showPk: combinations.showPk,
            o: combinations.ticketOptionId,
            p: combinations.priceTypeId,
            priceMinor: combinations.priceMinor,
          })
          .from(combinations)
          .where(inArray(combinations.showPk, showPks)),
      ])
    : [[], [], []];
  const showsOfEvent = new Map<string, ShowRef[]>();
  for (const s of showRows) showsOfEvent.set(s.eventPk, [...(showsOfEvent.get(s.eventPk) ?? []), s]);
  return {
    eventByRef: new Map(eventRows.map((e) => [e.ref, e.pk])),
    showByKey: new Map(showRows.map((s) => [`${s.eventPk}|${s.showId}`, s])),
    showsOfEvent,
    optionByKey: new Map(options.map((o) => [`${o.showPk}|${o.id}`, o])),
    typeSet: new Set(types.map((t) => `${t.showPk}|${t.id}`)),
    comboPrice: new Map(combos.map((c) => [`${c.showPk}|${c.o}|${c.p}`, c.priceMinor])),
  };
}

/**
 * The catalogue's price of ticket options (minor units; null when the partner sent none), keyed
 * `showPk|ticketOptionId`: the face value of a ticket whose own price the partner did not send.
 */
export async function optionPrices(
  keys: { showPk: string; ticketOptionId: string }[],
  db: DbOrTx,
): Promise<Map<string, number | null>> {
  if (!keys.length) return new Map();
  const rows = await db
    .select({ showPk: ticketOptions.showPk, id: ticketOptions.ticketId, priceMinor: ticketOptions.priceMinor })
    .from(ticketOptions)
    .where(
      and(
        inArray(ticketOptions.showPk, [...new Set(keys.map((k) => k.showPk))]),
        inArray(ticketOptions.ticketId, [...new Set(keys.map((k) => k.ticketOptionId))]),
      ),
    );
  return new Map(rows.map((o) => [`${o.showPk}|${o.id}`, o.priceMinor]));
}

/** The show pks of each of these events (for counting what other modules keep per show). */
export async function showPksOfEvents(eventPks: string[], db: DbOrTx): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (!eventPks.length) return map;
  const rows = await db
    .select({ pk: shows.id, eventPk: shows.eventId })
    .from(shows)
    .where(inArray(shows.eventId, eventPks));
  for (const r of rows) map.set(r.eventPk, [...(map.get(r.eventPk) ?? []), r.pk]);
  return map;
}

/**
 * One row per show with its event's labels, as a subquery other modules join on `showPk` (so a list of
 * their rows with event and show names stays one statement, and the catalogue's columns stay its own).
 * Its columns are prefixed: drizzle names a subquery's columns unqualified, and they must not clash with
 * the joining table's (tickets.show_pk).
 */
export function showDirectory(db: DbOrTx) {
  return db
    .select({
      showPk: sql`${shows.id}`.mapWith(shows.id).as('directory_show_pk'),
      showId: sql`${shows.showId}`.mapWith(shows.showId).as('directory_show_ref'),
      showTitle: sql`${shows.title}`.mapWith(shows.title).as('directory_show_title'),
      showStatus: sql`${shows.status}`.mapWith(shows.status).as('directory_show_status'),
      startsAt: sql`${shows.startsAt}`.mapWith(shows.startsAt).as('directory_show_starts_at'),
      resaleEnabled: sql`${shows.resaleEnabled}`.mapWith(shows.resaleEnabled).as('directory_resale_enabled'),
      eventPk: sql`${events.id}`.mapWith(events.id).as('directory_event_pk'),
      partnerId: sql`${events.partnerId}`.mapWith(events.partnerId).as('directory_partner_id'),
      eventRef: sql`${events.externalReferenceId}`.mapWith(events.externalReferenceId).as('directory_event_ref'),
      eventTitle: sql`${events.title}`.mapWith(events.title).as('directory_event_title'),
      /** The event's `location.country` as its partner sent it (a page's language may follow it). */
      country: sql<string | null>`${events.location}->>'country'`.as('directory_country'),
      /** The venue's IANA time zone (the show's location, else the event's), for showing local times. */
      timeZone: sql<string | null>`coalesce(${shows.location}->>'timeZone', ${events.location}->>'timeZone')`.as(
        'directory_time_zone',
      ),
    })
    .from(shows)
    .innerJoin(events, eq(events.id, shows.eventId))
    .as('show_directory');
}

/** A location as the fan pages show it (show-level overrides the event's). */
export interface VenueView {
  name: string | null;
  address: string | null;
  timeZone: string | null;
}

function text(v: unknown): string | null {
  return typeof v === 'string' && v.trim() ? v.trim() : null;
}

/** The venue of a stored location: its name, one address line (raw, or the split fields) and time zone. */
function venueOf(location: unknown): VenueView {
  const l = (location && typeof location === 'object' ? location : {}) as Record<string, unknown>;
  const split = [l.address, l.postalCode, l.city, l.state, l.country].map(text).filter((s) => s !== null);
  return {
    name: text(l.venueName),
    address: text(l.raw) ?? (split.length ? split.join(', ') : null),
    timeZone: text(l.timeZone),
  };
}

/**
 * A partner's image URL as a fan page loads it: https as sent; http upgraded to https (the pages are served over
 * https and their policy loads images from https only, so an http image would be refused: the same address over
 * https is the one chance it has; if that fails too, the page shows its placeholder); anything else, nothing.
 * The API accepts the URL as sent (the spec asks a string) and answers it back unchanged.
 */
function pageImageUrl(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  if (/^https:\/\//i.test(url)) return url;
  if (/^http:\/\//i.test(url)) return `https://${url.slice('http://'.length)}`;
  return null;
}

/** The images' URLs as a page loads them (pageImageUrl), `main` ones first. */
function imageUrls(images: unknown): string[] {
  if (!Array.isArray(images)) return [];
  const rows = images.map((i) =>
    typeof i === 'string' ? { url: i, kind: 'main' } : ((i ?? {}) as { url?: unknown; kind?: unknown }),
  );
  return rows
    .filter((i) => pageImageUrl(i.url) !== null)
    .sort((a, b) => Number(b.kind === 'main') - Number(a.kind === 'main'))
    .map((i) => pageImageUrl(i.url)!);
}

/** An event's seat map as a page uses it: an image URL and/or SVG markup (cleaned when written). */
export interface EventSeating {
  image: string | null;
  svg: string | null;
  /** A hash of `svg`: a page's version counts the map by it rather than by its markup (up to 1 MB). */
  svgVersion: string | null;
}

function seatingOf(value: unknown): EventSeating | null {
  const seating = value as { image?: unknown; svgCode?: unknown } | null | undefined;
  if (!seating) return null;
  const image = pageImageUrl(seating.image);
  const svg = typeof seating.svgCode === 'string' && seating.svgCode ? seating.svgCode : null;
  if (!image && !svg) return null;
  return { image, svg, svgVersion: svg ? createHash('sha256').update(svg).digest('base64url').slice(0, 22) : null };
}

/** An event's seat map (by Encore's id); null for an unknown event or one without a map. */
export async function eventSeating(eventPk: string, db: DbOrTx): Promise<EventSeating | null> {
  const [row] = await db.select({ seating: events.seating }).from(events).where(eq(events.id, eventPk));
  return seatingOf(row?.seating);
}

/**
 * What a fan page shows of an event (by Encore's id): title, description, venue, images, and every show
 * with its date, status, resale switch, venue (its own or the event's) and the names of its ticket
 * options and price types. Two statements, whatever the number of shows. Null when unknown.
 */
export async function eventPageInfo(eventPk: string, db: DbOrTx) {
  const [event] = await db
    .select({
      id: events.id,
      partnerId: events.partnerId,
      externalReferenceId: events.externalReferenceId,
      title: events.title,
      description: events.description,
      location: events.location,
      seating: events.seating,
    })
    .from(events)
    .where(eq(events.id, eventPk));
  if (!event) return null;
  const rows = await db
    .select({
      pk: shows.id,
      showId: shows.showId,
      title: shows.title,
      startsAt: shows.startsAt,
      status: shows.status,
      resaleEnabled: shows.resaleEnabled,
      images: shows.images,
      location: shows.location,
      options: sql<{ id: string; title: string; currency: string; priceMinor: number | null }[]>`(
        select coalesce(json_agg(json_build_object('id', o.ticket_id, 'title', o.title, 'currency', o.currency,
          'priceMinor', o.price_minor) order by o.position), '[]')
        from ${ticketOptions} o where o.show_pk = "shows"."id")`,
      // Declared pairs with their own price: the face value of such tickets (catalog faceValueMinor).
      pairPrices: sql<{ ticketOptionId: string; priceTypeId: string; currency: string; priceMinor: number }[]>`(
        select coalesce(json_agg(json_build_object('ticketOptionId', c.ticket_option_id, 'priceTypeId',
          c.price_type_id, 'currency', c.currency, 'priceMinor', c.price_minor)), '[]')
        from ${combinations} c where c.show_pk = "shows"."id" and c.price_minor is not null)`,
      priceTypes: sql<{ id: string; title: string | null }[]>`(
        select coalesce(json_agg(json_build_object('id', p.price_type_id, 'title', p.title) order by p.position), '[]')
        from ${priceTypes} p where p.show_pk = "shows"."id")`,
    })
    .from(shows)
    .where(eq(shows.eventId, eventPk))
    .orderBy(shows.startsAt, shows.position);
  const eventVenue = venueOf(event.location);
  return {
    eventPk: event.id,
    partnerId: event.partnerId,
    externalReferenceId: event.externalReferenceId,
    title: event.title,
    description: event.description,
    venue: eventVenue,
    seating: seatingOf(event.seating),
    shows: rows.map((s) => {
      const own = s.location ? venueOf(s.location) : null;
      return {
        showPk: s.pk,
        showId: s.showId,
        title: s.title,
        startsAt: s.startsAt,
        status: s.status,
        resaleEnabled: s.resaleEnabled,
        images: imageUrls(s.images),
        venue: {
          name: own?.name ?? eventVenue.name,
          address: own?.address ?? eventVenue.address,
          timeZone: own?.timeZone ?? eventVenue.timeZone,
        },
        ticketOptions: s.options,
        priceTypes: s.priceTypes,
        pairPrices: s.pairPrices,
      };
    }),
  };
}

export type EventPageInfo = NonNullable<Awaited<ReturnType<typeof eventPageInfo>>>;
/** What the selling pages show of a ticket's show: titles, start, the venue's time zone, option titles by ticketId. */
export interface SellShowLabel {
  eventTitle: string;
  showTitle: string;
  startsAt: Date;
  timeZone: string | null;
  optionTitles: Record<string, string>;
}

/** Labels of these shows for the selling pages (show's location time zone first, else the event's). */
export async function sellShowLabels(showPks: string[], db: DbOrTx): Promise<Map<string, SellShowLabel>> {
  const out = new Map<string, SellShowLabel>();
  const pks = [...new Set(showPks)];
  if (!pks.length) return out;
  const show = showDirectory(db);
  const rows = await db
    .select({
      showPk: show.showPk,
      showTitle: show.showTitle,
      startsAt: show.startsAt,
      eventTitle: show.eventTitle,
      timeZone: show.timeZone,
    })
    .from(show)
    .where(inArray(show.showPk, pks));
  const options = await db
    .select({ showPk: ticketOptions.showPk, ticketId: ticketOptions.ticketId, title: ticketOptions.title })
    .from(ticketOptions)
    .where(inArray(ticketOptions.showPk, pks));
  for (const r of rows) {
    out.set(r.showPk, {
      eventTitle: r.eventTitle,
      showTitle: r.showTitle,
      startsAt: r.startsAt,
      timeZone: r.timeZone,
      optionTitles: Object.fromEntries(options.filter((o) => o.showPk === r.showPk).map((o) => [o.ticketId, o.title])),
    });
  }
  return out;
}

/** The currency of each ticket option of these shows: show → option id → currency (one query). */
export async function showOptionCurrencies(showPks: string[], db: DbOrTx) {
  const out = new Map<string, Map<string, string>>();
  if (!showPks.length) return out;
  const rows = await db
    .select({ showPk: ticketOptions.showPk, id: ticketOptions.ticketId, currency: ticketOptions.currency })
    .from(ticketOptions)
    .where(inArray(ticketOptions.showPk, showPks));
  for (const r of rows) {
    const m = out.get(r.showPk) ?? new Map<string, string>();
    m.set(r.id, r.currency);
    out.set(r.showPk, m);
  }
  return out;
}

/** The price type ids of these shows: show → set of priceTypeId (one query). */
export async function priceTypesOfShows(showPks: string[], db: DbOrTx) {
  const out = new Map<string, Set<string>>();
  if (!showPks.length) return out;
  const rows = await db
    .select({ showPk: priceTypes.showPk, id: priceTypes.priceTypeId })
    .from(priceTypes)
    .where(inArray(priceTypes.showPk, showPks));
  for (const r of rows) out.set(r.showPk, (out.get(r.showPk) ?? new Set<string>()).add(r.id));
  return out;
}

/** An event's title by the partner's id, or null. */
export async function getEventTitle(partnerId: string, externalReferenceId: string, db: DbOrTx) {
  const [row] = await db
    .select({ title: events.title })
    .from(events)
    .where(and(eq(events.partnerId, partnerId), eq(events.externalReferenceId, externalReferenceId)));
  return row?.title ?? null;
}

/** A show's and its event's `configuration` (ticket delivery, protection settings), by the show's id. */
export async function showConfigurations(showPk: string, db: DbOrTx) {
  const [row] = await db
    .select({ show: shows.configuration, event: events.configuration })
    .from(shows)
    .innerJoin(events, eq(events.id, shows.eventId))
    .where(eq(shows.id, showPk));
  return row ?? null;
}

/** The partner of an event by Encore's id (which partner may frame its market page), or null. */
export async function partnerOfEvent(eventPk: string, db: DbOrTx): Promise<string | null> {
  const [row] = await db.select({ partnerId: events.partnerId }).from(events).where(eq(events.id, eventPk));
  return row?.partnerId ?? null;
}
