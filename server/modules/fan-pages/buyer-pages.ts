import { and, eq, inArray } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/db';
import { buyIntentions, listings } from '@/db/schema/marketplace';
import { eventPageInfo, showDirectory } from '@/server/modules/catalog';
import { saleTicketByPk, secureTokensOf } from '@/server/modules/tickets';
import { protectionOf } from '@/server/modules/protection';
import { type BuyerListing, buyerListings, named, type ShowInfo } from './buyer-listings';
import { type MarketOffer, offersOf, quantitiesOf } from './offers';
import { shortCache } from '@/server/lib/short-cache';
import { sectionKey } from '@/server/lib/svg';
import { BUY_PAGE_LAYER_MS, BUY_PAGES, buyPageOffers, OFFER_BYTES } from './offers-cache';
import { getBuyIntention } from '@/server/modules/marketplace';

/*
 * The buyer's pages (market, checkout, intention), each read in a fixed number of statements whatever
 * the number of listings: the event from the catalogue (2), the market terms (1) and the show's listings
 * with their seats (1). None writes: a hold whose time is up reads as on sale (holds.ts) until the sweep
 * or the next buyer's claim ends it.
 */

export type MarketSort = 'price_asc' | 'price_desc';

export interface MarketFilters {
  show?: string;
  /** A ticket of ours (`tkt_…`, the public sale URL's `ticket`): its show is chosen when `show` is absent. */
  ticket?: string;
  ticketOptionId?: string;
  /** A section of the venue (`seating.section` of a listed ticket). */
  zone?: string;
  /** A section of the seat map: matched as the map matches, trimmed and case-insensitive. */
  section?: string;
  /**
   * How many tickets the fan wants: listings of exactly that many tickets. A listing is bought whole,
   * so a pack of 4 does not serve a fan who wants 2, and two single listings are two purchases.
   */
  quantity?: number;
  sort?: MarketSort;
}

/**
 * The event with resale off on shows whose ticket protection is off: resale needs protection
 * (docs/decisions.md, "Ticket protection"), so buyers see such a show as not on resale.
 */
async function withProtection<E extends { partnerId: string; eventPk: string; shows: ShowInfo[] }>(
  event: E | null,
  db: DbOrTx,
): Promise<E | null> {
  if (!event) return null;
  const protection = await protectionOf(event.partnerId, db);
  return {
    ...event,
    shows: event.shows.map((s) => ({
      ...s,
      resaleEnabled: s.resaleEnabled && protection.active(event.eventPk, s.showPk),
    })),
  };
}

/** Held offers the buy page lists (the soonest to come back); the rest are counted. */
const HELD_SHOWN = 10;

/** A section with tickets on sale now, for the seat map. */
export interface SectionOnSale {
  /** As the first offer's seat names it. */
  name: string;
  key: string;
  /** Tickets on sale in the section. */
  available: number;
  /** The cheapest per ticket, the buyer's fee included (minor units). */
  minPerTicketMinor: number;
  currency: string;
  /** Its seats on sale as a map marks them (`data-seat="<row>-<seat>"`), where the tickets say both. */
  seats: string[];
}

/** The show's offers by section: each seat is a ticket in its own section. */
function sectionsOnSale(all: MarketOffer[]): SectionOnSale[] {
  const out = new Map<string, SectionOnSale>();
  for (const offer of all) {
    for (const seat of offer.seats) {
      const key = seat.section ? sectionKey(seat.section) : '';
      if (!key) continue;
      const known = out.get(key);
      const place = seat.row && seat.seat ? [`${seat.row.trim()}-${seat.seat.trim()}`] : [];
      if (!known) {
        out.set(key, {
          name: seat.section!.trim(),
          key,
          available: 1,
          minPerTicketMinor: offer.perTicketMinor,
          currency: offer.currency,
          seats: place,
        });
      } else {
        known.seats.push(...place);
        known.available += 1;
        if (offer.currency === known.currency)
          known.minPerTicketMinor = Math.min(known.minPerTicketMinor, offer.perTicketMinor);
      }
    }
  }
  return [...out.values()].sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
}

/** Whether tickets of the show can be bought now. */
export function showOnSale(show: Pick<ShowInfo, 'status' | 'resaleEnabled'>): boolean {
  return show.status === 'LIVE' && show.resaleEnabled;
}

/**
 * The buy page of an event (by Encore's id): the event, its shows, the chosen one (`filters.show`, else
 * the first on sale, else the first) and its ACTIVE listings filtered and sorted, with what the filters
 * can offer (options, zones, quantities of the show's whole market). Null for an unknown event.
 */
export async function buyPage(eventPk: string, filters: MarketFilters = {}, db: Db) {
  const event = await withProtection(await eventPageInfo(eventPk, db), db);
  if (!event) return null;
  const showOfTicket = !filters.show && filters.ticket ? (await saleTicketByPk(filters.ticket, db))?.showPk : undefined;
  const show =
    event.shows.find((s) => s.showPk === (filters.show ?? showOfTicket)) ??
    event.shows.find((s) => showOnSale(s) && s.startsAt.getTime() > Date.now()) ??
    event.shows.find(showOnSale) ??
    event.shows[0] ??
    null;
  if (!show)
    return {
      event,
      show: null,
      listings: [] as MarketOffer[],
      facets: { options: [], zones: [], quantities: [], sections: [] as SectionOnSale[] },
      held: { count: 0, soonest: [] as MarketOffer[] },
    };
  // On sale, or held now by a buyer paying (RESERVED until the hold ends; a hold whose time is up reads as on sale).
  const listed = and(eq(listings.showPk, show.showPk), inArray(listings.status, ['ACTIVE', 'RESERVED']));
  // Shared by the fans loading this show for up to a second (offers-cache.ts says why that is correct).
  const offers = showOnSale(show)
    ? await buyPageOffers.get(show.showPk, async () => {
        const read = (await buyerListings(event.partnerId, listed, db)).map((l) => named(show, l));
        return {
          onSale: offersOf(read.filter((l) => l.status === 'ACTIVE')),
          held: offersOf(read.filter((l) => l.status === 'RESERVED' && l.holdEndsAt !== null)).sort((a, b) =>
            (a.holdEndsAt ?? '').localeCompare(b.holdEndsAt ?? ''),
          ),
        };
      })
    : { onSale: [], held: [] };
  const all: MarketOffer[] = offers.onSale;
  const facets = {
    options: show.ticketOptions.filter((o) => all.some((l) => l.ticketOptionId === o.id)),
    zones: [...new Set(all.flatMap((l) => l.seats.map((s) => s.section)).filter((z): z is string => !!z))].sort(),
    quantities: [...new Set(all.flatMap(quantitiesOf))].sort((a, b) => a - b),
    sections: sectionsOnSale(all),
  };
  const section = filters.section ? sectionKey(filters.section) : '';
  const wanted = (l: MarketOffer) =>
    (!filters.ticketOptionId || l.ticketOptionId === filters.ticketOptionId) &&
    (!filters.zone || l.seats.some((s) => s.section === filters.zone)) &&
    (!section || l.seats.some((s) => !!s.section && sectionKey(s.section) === section)) &&
    (!filters.quantity || quantitiesOf(l).includes(filters.quantity));
  const chosen = all.filter(wanted);
  // Sorted by the price per ticket the fan pays (fees included); the query gave price then id.
  if (filters.sort === 'price_desc')
    chosen.sort((a, b) => b.perTicketMinor - a.perTicketMinor || a.id.localeCompare(b.id));
  else chosen.sort((a, b) => a.perTicketMinor - b.perTicketMinor || a.id.localeCompare(b.id));
  // Held offers as the page shows them, under the same filters as the offers: how many, and the first to come
  // back on sale.
  const heldWanted = offers.held.filter(wanted);
  const held = { count: heldWanted.length, soonest: heldWanted.slice(0, HELD_SHOWN) };
  return { event, show, listings: chosen, facets, held };
}

export type BuyPageView = NonNullable<Awaited<ReturnType<typeof buyPage>>>;

const buyPages = shortCache<BuyPageView | null>(BUY_PAGES, BUY_PAGE_LAYER_MS, {
  sizeOf: (view) => 1024 + (view?.listings.length ?? 0) * OFFER_BYTES,
});

/**
 * `buyPage` as the public buy page asks for it: one answer per event and filters shared by every fan in
 * this process for a short while (offers-cache.ts says how long and why that is correct). The answer is
 * shared: callers read it and never change it. Behind a shared cache too: there the pages 1–40 of one
 * filter set are 40 addresses rendered once a second each, from one answer (measured: without this layer
 * the rush's renders were slower and a held offer stayed on a page up to 4 s; with it, under 2 s).
 */
export function sharedBuyPage(eventPk: string, filters: MarketFilters, db: Db): Promise<BuyPageView | null> {
  const key = JSON.stringify([
    eventPk,
    filters.show,
    filters.ticket,
    filters.ticketOptionId,
    filters.zone,
    filters.section,
    filters.quantity,
    filters.sort,
  ]);
  return buyPages.get(key, () => buyPage(eventPk, filters, db));
}

/**
 * The checkout of listings named by a URL (the partner's `/checkout?listings=`, or the fan's choice on the
 * market page): all of one partner's event, with their totals. Nothing is held. Listings no longer on sale
 * are answered with their status; unknown ids, or a mix of partners or shows, answer null.
 */
export async function buyerCheckout(listingIds: string[], db: Db) {
  const ids = [...new Set(listingIds)].filter((id) => /^lst_[A-Za-z0-9]+$/.test(id)).slice(0, 50);
  if (!ids.length) return null;
  const [first] = await db.select({ partnerId: listings.partnerId }).from(listings).where(eq(listings.id, ids[0]));
  if (!first) return null;
  const found = await buyerListings(first.partnerId, inArray(listings.id, ids), db);
  if (found.length !== ids.length || new Set(found.map((l) => l.showPk)).size !== 1) return null;
  const event = await withProtection(await eventOfShow(found[0].showPk, db), db);
  if (!event) return null;
  const show = event.shows.find((s) => s.showPk === found[0].showPk);
  if (!show) return null;
  const items = found.map((l) => named(show, l));
  const sum = (f: (l: BuyerListing) => number) => items.reduce((n, l) => n + f(l), 0);
  return {
    event,
    show,
    listings: items,
    available: items.every((l) => l.status === 'ACTIVE') && showOnSale(show),
    currency: items[0].currency,
    ticketCount: sum((l) => l.ticketCount),
    subtotalMinor: sum((l) => l.subtotalMinor),
    feesMinor: sum((l) => l.feesMinor),
    totalMinor: sum((l) => l.totalMinor),
  };
}

async function eventOfShow(showPk: string, db: Db) {
  const show = showDirectory(db);
  const [row] = await db.select({ eventPk: show.eventPk }).from(show).where(eq(show.showPk, showPk));
  return row ? eventPageInfo(row.eventPk, db) : null;
}

/**
 * A buy intention as its buyer sees it: its state (EXPIRED once its time is up), the listings,
 * the event, once paid the bought tickets' secure links, and once refunded afterwards the refund (and no
 * links). Null for an unknown id.
 */
export async function buyerIntention(intentionId: string, db: Db) {
  if (!/^bi_[A-Za-z0-9]+$/.test(intentionId)) return null;
  const [row] = await db
    .select({
      partnerId: buyIntentions.partnerId,
      listingIds: buyIntentions.listingIds,
      totalMinor: buyIntentions.totalMinor,
      refundedAt: buyIntentions.refundedAt,
      refundReason: buyIntentions.refundReason,
    })
    .from(buyIntentions)
    .where(eq(buyIntentions.id, intentionId));
  if (!row) return null;
  const intention = await getBuyIntention(row.partnerId, intentionId, db);
  const items = await buyerListings(row.partnerId, inArray(listings.id, row.listingIds), db);
  const event = items.length ? await eventOfShow(items[0].showPk, db) : null;
  if (!event) return null;
  const show = event.shows.find((s) => s.showPk === items[0].showPk);
  // A purchase refunded afterwards (show cancelled, staff) gives the buyer no tickets to open any more.
  const refund =
    row.refundedAt && row.refundReason
      ? { reason: row.refundReason, at: row.refundedAt, amountMinor: row.totalMinor }
      : null;
  const tickets =
    intention.status === 'COMPLETED' && !refund
      ? (
          await secureTokensOf(
            row.partnerId,
            items.flatMap((l) => l.ticketPks),
            db,
          )
        ).filter((t) => t.owner === intention.user)
      : [];
  return {
    intention,
    event,
    show: show ?? null,
    listings: items.map((l) => named(show, l)),
    tickets: tickets.map((t) => ({ ticketId: t.ticketId, secureToken: t.secureToken })),
    /** The purchase was refunded after it completed: why, when and how much (the whole payment). */
    refund,
  };
}
