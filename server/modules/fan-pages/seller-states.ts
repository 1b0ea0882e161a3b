import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { type DbOrTx, inTextList } from '@/db';
import { buyIntentions, listingItems, listings, type ListingStatus } from '@/db/schema/marketplace';
import { notFound } from '@/server/lib/errors';
import { fromMinorUnits } from '@/server/lib/money';
import { explainRules, pickResaleRules, resaleRulesOfEvents, showDirectory } from '@/server/modules/catalog';
import { sellerTicketRows, ticketsByPk, ticketsForSale, ticketsOfOrders } from '@/server/modules/tickets';
import { protectionOf } from '@/server/modules/protection';
import {
  buyerFeeMinor,
  isBuyableNow,
  type ListingProblem,
  listingStatusNow,
  marketTerms,
  showRuleProblems,
  ticketStateProblems,
} from '@/server/modules/marketplace';

/** Buyable now: ACTIVE, or held by a hold whose time is up (holds.ts); the status index still serves it. */
const buyableNow = and(inArray(listings.status, ['ACTIVE', 'RESERVED']), isBuyableNow());

/*
 * The seller's side of many tickets at once, for the sell access layer: what the partner says the
 * seller holds, evaluated against Encore's shows, tickets, listings and resale rules with one query per
 * table whatever the number of tickets (the partner's page may ask about a thousand at a time).
 * Ownership is the partner's word here (it is the partner asking about its own user); it is asked live
 * of the partner when the fan enters the selling flow, as everywhere else.
 */

/** A ticket as the partner names it in the access layer. */
export interface SellerItem {
  eventRef: string;
  showId: string;
  ticketId: string;
  ticketOptionId: string;
  priceTypeId?: string | null;
  /** A ticket the partner describes without its id (orders mode's combinations): never looked up. */
  unnamed?: boolean;
}

export type SellerItemStatus = 'SELLABLE' | 'NOT_SELLABLE' | 'FOR_SALE' | 'SOLD';

export interface SellerItemState {
  item: SellerItem;
  /** Encore knows the ticket (the partner pushed it); unknown tickets are judged by the show and rules alone. */
  known: boolean;
  ticketPk: string | null;
  /** The show's Encore ids (null when the partner never pushed the show). */
  eventPk: string | null;
  showPk: string | null;
  orderId: string | null;
  status: SellerItemStatus;
  /** The ticket's open listing, else its sold one (of this seller). */
  listingId: string | null;
  /** Why NOT_SELLABLE (empty otherwise). */
  problems: (ListingProblem | { code: 'UNKNOWN_SHOW'; message: string })[];
  /** The partner's P2P_TRANSFER rule allows handing the ticket to another fan. */
  transferAllowed: boolean;
}

const key = (eventRef: string, showId: string) => `${eventRef}\u0000${showId}`;

/** Each item's sell status for this seller, in the items' order. */
export async function sellerItemStates(
  partnerId: string,
  sellerEmail: string,
  items: SellerItem[],
  now = new Date(),
  db: DbOrTx,
): Promise<SellerItemState[]> {
  return (await sellerItemStatesWith(partnerId, sellerEmail, items, () => Promise.resolve(null), now, db)).states;
}

/** A show of the events the items name, as `sellerItemStatesWith` hands it to the caller's own read. */
export interface SellerShow {
  eventPk: string;
  showPk: string;
  startsAt: Date;
}

/**
 * `sellerItemStates` plus a read of the caller's that needs the shows of the items' events (e.g. the
 * access layer's banners): it runs beside the second wave of reads, so the answer still takes two
 * round trips to the database.
 */
export async function sellerItemStatesWith<T>(
  partnerId: string,
  sellerEmail: string,
  items: SellerItem[],
  beside: (shows: SellerShow[]) => Promise<T>,
  now = new Date(),
  db: DbOrTx,
): Promise<{ states: SellerItemState[]; beside: T }> {
  const email = sellerEmail.trim().toLowerCase();
  const refs = [...new Set(items.map((i) => i.eventRef))];
  const [showRows, known] = await Promise.all([
    showsOfEvents(db, partnerId, refs),
    sellerTicketRows(partnerId, [...new Set(items.filter((i) => !i.unnamed).map((i) => i.ticketId))], db),
  ]);
  const showByKey = new Map(showRows.map((s) => [key(s.eventRef, s.showId), s]));
  const ticketById = new Map(known.map((t) => [t.ticketId, t]));
  const [latest, rules, protection, besideResult] = await Promise.all([
    latestListingsOf(
      partnerId,
      email,
      known.map((t) => t.pk),
      db,
    ),
    resaleRulesOfEvents(
      showRows.map((s) => s.eventPk),
      db,
    ),
    protectionOf(partnerId, db),
    beside(showRows.map((r) => ({ eventPk: r.eventPk, showPk: r.showPk, startsAt: r.startsAt }))),
  ]);
  const judge = scopeJudge(rules, protection, now);

  const states = items.map((item): SellerItemState => {
    const show = showByKey.get(key(item.eventRef, item.showId));
    const found = item.unnamed ? undefined : ticketById.get(item.ticketId);
    // A known ticket counts only where the partner names it rightly (its event and show).
    const ticket = found && show && found.showPk === show.showPk ? found : undefined;
    if (!show) return unknownShowState(item);
    const scope = judge(
      show,
      ticket?.ticketOptionId ?? item.ticketOptionId,
      ticket ? ticket.priceTypeId : (item.priceTypeId ?? null),
    );
    return knownShowState(item, show, ticket, scope, ticket ? latest.get(ticket.pk) : undefined, protection.reissue);
  });
  return { states, beside: besideResult };
}

type ShowRow = Awaited<ReturnType<typeof showsOfEvents>>[number];
type TicketRow = Awaited<ReturnType<typeof sellerTicketRows>>[number];
interface Scope {
  problems: ListingProblem[];
  transferAllowed: boolean;
}

/** The shows of the events the partner names (by its event reference). */
async function showsOfEvents(db: DbOrTx, partnerId: string, refs: string[]) {
  if (!refs.length) return [];
  const directory = showDirectory(db);
  return db
    .select({
      eventPk: directory.eventPk,
      eventRef: directory.eventRef,
      showPk: directory.showPk,
      showId: directory.showId,
      showStatus: directory.showStatus,
      startsAt: directory.startsAt,
      resaleEnabled: directory.resaleEnabled,
    })
    .from(directory)
    .where(and(eq(directory.partnerId, partnerId), inArray(directory.eventRef, refs)));
}

/** The rules and show checks of each scope, once: a thousand tickets of a show share a few scopes. */
function scopeJudge(
  rules: Awaited<ReturnType<typeof resaleRulesOfEvents>>,
  protection: Awaited<ReturnType<typeof protectionOf>>,
  now: Date,
) {
  const scopes = new Map<string, Scope>();
  return (show: ShowRow, ticketOptionId: string, priceTypeId: string | null) => {
    const k = `${show.showPk}\u0000${ticketOptionId}\u0000${priceTypeId ?? ''}`;
    let scope = scopes.get(k);
    if (!scope) {
      const inForce = pickResaleRules(rules, {
        eventPk: show.eventPk,
        showId: show.showId,
        ticketOptionId,
        priceTypeId,
      });
      scope = {
        problems: showRuleProblems(
          { ...show, protectionActive: protection.active(show.eventPk, show.showPk) },
          inForce,
          now,
        ),
        transferAllowed: (inForce.P2P_TRANSFER as { allowed?: boolean } | undefined)?.allowed === true,
      };
      scopes.set(k, scope);
    }
    return scope;
  };
}

function unknownShowState(item: SellerItem): SellerItemState {
  return {
    item,
    known: false,
    ticketPk: null,
    eventPk: null,
    showPk: null,
    orderId: null,
    status: 'NOT_SELLABLE',
    listingId: null,
    problems: [{ code: 'UNKNOWN_SHOW', message: 'the event or show is not known to Encore' }],
    transferAllowed: false,
  };
}

/** An item of a known show: listed or sold already, else sellable unless its ticket or its scope says no. */
function knownShowState(
  item: SellerItem,
  show: ShowRow,
  ticket: TicketRow | undefined,
  scope: Scope,
  listing: { id: string; status: ListingStatus } | undefined,
  reissue: boolean,
): SellerItemState {
  let status: SellerItemStatus;
  let problems: SellerItemState['problems'] = [];
  if (listing?.status === 'SOLD') status = 'SOLD';
  else if (listing && (listing.status === 'ACTIVE' || listing.status === 'RESERVED')) status = 'FOR_SALE';
  else {
    problems = ticket
      ? [
          ...ticketStateProblems(
            { ...ticket, admittedAt: ticket.admittedAt ? new Date(ticket.admittedAt) : null },
            reissue,
          ),
          ...scope.problems,
        ]
      : scope.problems;
    status = problems.length ? 'NOT_SELLABLE' : 'SELLABLE';
  }
  return {
    item,
    known: Boolean(ticket),
    ticketPk: ticket?.pk ?? null,
    eventPk: show.eventPk,
    showPk: show.showPk,
    orderId: ticket?.orderId ?? null,
    status,
    listingId: status === 'SOLD' || status === 'FOR_SALE' ? listing!.id : null,
    problems,
    transferAllowed: scope.transferAllowed,
  };
}

/**
 * Each ticket's open listing, else a sold one of this seller (one statement, rows as the driver gives
 * them). Another seller's closed listing (before the ticket came to this fan) says nothing here.
 */
async function latestListingsOf(partnerId: string, email: string, pks: string[], db: DbOrTx) {
  const out = new Map<string, { id: string; status: ListingStatus }>();
  if (!pks.length) return out;
  const rows = (await db.execute(sql`
    select i.ticket_pk as "ticketPk", l.id, ${listingStatusNow('l')} as status, i.open, l.seller_email as "sellerEmail"
    from ${listingItems} i join ${listings} l on l.id = i.listing_id
    where i.partner_id = ${partnerId} and ${inTextList(sql`i.ticket_pk`, pks)}
    order by i.open desc, l.created_at desc`)) as unknown as {
    ticketPk: string;
    id: string;
    status: ListingStatus;
    open: boolean;
    sellerEmail: string;
  }[];
  for (const r of rows) {
    if (out.has(r.ticketPk)) continue;
    if (r.open) out.set(r.ticketPk, { id: r.id, status: r.status });
    else if (r.status === 'SOLD' && r.sellerEmail === email) out.set(r.ticketPk, { id: r.id, status: r.status });
  }
  return out;
}

export interface SoldTicket {
  ticketId: string;
  eventId: string;
  showId: string;
  ticketOptionId: string;
  priceTypeId: string | null;
  orderId: string | null;
  listingId: string;
  /** Asking price per ticket the buyer paid, in major units, and its currency. */
  price: number;
  currency: string;
  soldAt: string | null;
}

/**
 * Every ticket this seller sold on Encore (for `includeTicketSales` / `includeOrderSales`), newest
 * first; with `orderIds`, only those of these orders.
 */
export async function soldTicketsOf(
  partnerId: string,
  sellerEmail: string,
  opts: { orderIds?: string[] } = {},
  db: DbOrTx,
): Promise<SoldTicket[]> {
  const email = sellerEmail.trim().toLowerCase();
  if (opts.orderIds && !opts.orderIds.length) return [];
  const rows = await db
    .select({
      ticketPk: listingItems.ticketPk,
      ticketId: listingItems.ticketId,
      listingId: listings.id,
      priceMinor: listings.priceMinor,
      currency: listings.currency,
      soldAt: listings.soldAt,
    })
    .from(listings)
    .innerJoin(listingItems, eq(listingItems.listingId, listings.id))
    .where(and(eq(listings.partnerId, partnerId), eq(listings.sellerEmail, email), eq(listings.status, 'SOLD')))
    .orderBy(desc(listings.soldAt), listingItems.ticketId);
  const byPk = new Map(
    (
      await ticketsByPk(
        partnerId,
        rows.map((r) => r.ticketPk),
        db,
      )
    ).map((t) => [t.pk, t]),
  );
  const orders = opts.orderIds ? new Set(opts.orderIds) : null;
  const out: SoldTicket[] = [];
  for (const r of rows) {
    const t = byPk.get(r.ticketPk);
    if (!t || (orders && !(t.orderId && orders.has(t.orderId)))) continue;
    out.push({
      ticketId: r.ticketId,
      eventId: t.eventRef,
      showId: t.showId,
      ticketOptionId: t.ticketOptionId,
      priceTypeId: t.priceTypeId,
      orderId: t.orderId,
      listingId: r.listingId,
      price: fromMinorUnits(r.priceMinor, r.currency) ?? 0,
      currency: r.currency,
      soldAt: r.soldAt ? r.soldAt.toISOString() : null,
    });
  }
  return out;
}

/**
 * The tickets Encore knows of these orders that are listed or sold (by this seller), with their
 * listing: in orders mode an order counts them besides the tickets the partner sent.
 */
export async function orderListingStates(
  partnerId: string,
  sellerEmail: string,
  orderIds: string[],
  db: DbOrTx,
): Promise<{ orderId: string; ticketId: string; listingId: string; status: ListingStatus }[]> {
  const email = sellerEmail.trim().toLowerCase();
  const list = await ticketsOfOrders(partnerId, orderIds, db);
  const latest = await latestListingsOf(
    partnerId,
    email,
    list.map((t) => t.pk),
    db,
  );
  const out: { orderId: string; ticketId: string; listingId: string; status: ListingStatus }[] = [];
  for (const t of list) {
    const l = latest.get(t.pk);
    if (l && t.orderId && l.status !== 'UNLISTED' && l.status !== 'CANCELLED')
      out.push({ orderId: t.orderId, ticketId: t.ticketId, listingId: l.id, status: l.status });
  }
  return out;
}

export interface ShowMarketState {
  /** Listings buyable now, and the tickets in them. */
  listings: number;
  tickets: number;
  /** The cheapest ticket's price with the buyer's fee, per ticket, in minor units of `currency`. */
  lowestTotalMinor: number | null;
  currency: string | null;
}

/** Each show's resale market now (active listings), one query; shows without listings answer zeros. */
export async function showMarketStates(
  partnerId: string,
  showPks: string[],
  db: DbOrTx,
): Promise<Map<string, ShowMarketState>> {
  const out = new Map<string, ShowMarketState>();
  for (const pk of showPks) out.set(pk, { listings: 0, tickets: 0, lowestTotalMinor: null, currency: null });
  if (!showPks.length) return out;
  const [rows, terms] = await Promise.all([
    db
      .select({
        showPk: listings.showPk,
        currency: listings.currency,
        count: sql<number>`count(*)::int`,
        tickets: sql<number>`sum(${listings.ticketCount})::int`,
        lowest: sql<number>`min(${listings.priceMinor})::bigint`.mapWith(Number),
      })
      .from(listings)
      .where(and(eq(listings.partnerId, partnerId), inArray(listings.showPk, showPks), buyableNow))
      .groupBy(listings.showPk, listings.currency),
    marketTerms(partnerId, db),
  ]);
  for (const r of rows) {
    const state = out.get(r.showPk)!;
    state.listings += r.count;
    state.tickets += r.tickets;
    // A show sells in one currency; were there two, the first (by lowest price) speaks for it.
    const total = r.lowest + buyerFeeMinor(terms, r.lowest, r.currency);
    if (state.lowestTotalMinor === null || (state.currency === r.currency && total < state.lowestTotalMinor)) {
      state.lowestTotalMinor = total;
      state.currency = r.currency;
    }
  }
  return out;
}

/** The cheapest listings buyable now of a show (for the buy access layer's list), with the buyer's fee. */
export async function cheapestListings(partnerId: string, showPk: string, limit: number, db: DbOrTx) {
  const [rows, terms] = await Promise.all([
    db
      .select({
        id: listings.id,
        ticketCount: listings.ticketCount,
        priceMinor: listings.priceMinor,
        currency: listings.currency,
        ticketOptionId: listings.ticketOptionId,
        seats: sql<
          { section?: unknown; row?: unknown; seat?: unknown }[] | null
        >`coalesce((select json_agg(i.seating order by i.ticket_id) from ${listingItems} i where i.listing_id = ${listings.id}),
          (select json_agg(s -> 'seating') from jsonb_array_elements(${listings.channelSeats}) s))`,
        channelListingId: listings.channelListingId,
      })
      .from(listings)
      .where(and(eq(listings.partnerId, partnerId), eq(listings.showPk, showPk), buyableNow))
      .orderBy(listings.priceMinor, listings.id)
      .limit(limit),
    marketTerms(partnerId, db),
  ]);
  return rows.map((r) => ({
    listingId: r.id,
    quantity: r.ticketCount,
    ticketOptionId: r.ticketOptionId,
    currency: r.currency,
    /** Per ticket, with the buyer's fee. */
    totalMinor: r.priceMinor + buyerFeeMinor(terms, r.priceMinor, r.currency),
    seats: (r.seats ?? []).filter(Boolean),
    source: r.channelListingId ? ('CHANNEL' as const) : ('FAN' as const),
  }));
}

/**
 * "Why is this ticket (not) sellable?" for staff: its sell status for its owner as Encore knows it, the
 * reasons, and per rule type every rule that applies with the one that wins. Ownership is not asked of
 * the partner here (staff look at the rules, not at a fan).
 */
export async function explainTicket(partnerId: string, ticketId: string, db: DbOrTx) {
  const [ticket] = await ticketsForSale(partnerId, [ticketId], db);
  if (!ticket) throw notFound('Ticket not found');
  const [[state], rows] = await Promise.all([
    sellerItemStates(
      partnerId,
      ticket.buyerEmail ?? '',
      [
        {
          eventRef: ticket.eventRef,
          showId: ticket.showId,
          ticketId: ticket.ticketId,
          ticketOptionId: ticket.ticketOptionId,
          priceTypeId: ticket.priceTypeId,
        },
      ],
      new Date(),
      db,
    ),
    resaleRulesOfEvents([ticket.eventPk], db),
  ]);
  return {
    ticketId: ticket.ticketId,
    eventRef: ticket.eventRef,
    showId: ticket.showId,
    ticketOptionId: ticket.ticketOptionId,
    priceTypeId: ticket.priceTypeId,
    owner: ticket.buyerEmail,
    /** When its holder was first shown the code (null: not yet, or a new code since): resale needs a reissue then. */
    codeShownAt: ticket.codeShownAt ? ticket.codeShownAt.toISOString() : null,
    status: state.status,
    listingId: state.listingId,
    reasons: state.problems.map((p) => p.message),
    rules: explainRules(rows, {
      eventPk: ticket.eventPk,
      showId: ticket.showId,
      ticketOptionId: ticket.ticketOptionId,
      priceTypeId: ticket.priceTypeId,
    }),
  };
}

/** Which of these e-mails bought tickets of this event on the resale market (completed purchases). */
export async function resaleBuyersAmong(
  partnerId: string,
  eventRef: string,
  emails: string[],
  db: DbOrTx,
): Promise<string[]> {
  if (!emails.length) return [];
  const d = showDirectory(db);
  const rows = await db
    .selectDistinct({ email: buyIntentions.buyerEmail })
    .from(buyIntentions)
    .innerJoin(listings, sql`${listings.id} = any(${buyIntentions.listingIds})`)
    .innerJoin(d, eq(d.showPk, listings.showPk))
    .where(
      and(
        eq(buyIntentions.partnerId, partnerId),
        eq(buyIntentions.status, 'COMPLETED'),
        eq(d.eventRef, eventRef),
        inTextList(
          buyIntentions.buyerEmail,
          emails.map((e) => e.toLowerCase()),
        ),
      ),
    );
  return rows.map((r) => r.email);
}
