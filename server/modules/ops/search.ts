import { and, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/db';
import { events } from '@/db/schema/catalog';
import { fanSessions } from '@/db/schema/fans';
import { mails } from '@/db/schema/mail';
import { buyIntentions, listingItems, listings, payouts } from '@/db/schema/marketplace';
import { partners } from '@/db/schema/partners';
import { payments, refunds, sellerAccounts, transfers } from '@/db/schema/payments';
import { tickets } from '@/db/schema/tickets';
import { badRequest } from '@/server/lib/errors';

/*
 * Support search: one box for an e-mail or any id staff are handed, read straight from the owning
 * modules' tables in SQL (the ops module's documented exception: it reads, never writes; every action
 * goes through the owner). Every row carries its own partner, and every join also matches partner_id,
 * so a hit never links one partner's row to another partner's.
 */

/** The longest query: an e-mail address at most (ids are far shorter). */
export const SEARCH_MAX_LENGTH = 254;

export const FAN_SECTIONS = ['tickets', 'listings', 'purchases', 'payouts', 'transfers', 'mails', 'sessions'] as const;
export type FanSection = (typeof FAN_SECTIONS)[number];

/** Rows a section shows at first, and when staff ask for more. */
export const SECTION_LIMIT = 10;
const SECTION_LIMIT_MORE = 200;

export const opsSearchInput = z.object({
  q: z
    .string()
    .trim()
    .min(1, 'Type an e-mail address or an id to search for')
    .max(SEARCH_MAX_LENGTH, `At most ${SEARCH_MAX_LENGTH} characters: an e-mail address or an id`),
  /** A section of a fan's view shown in full (up to SECTION_LIMIT_MORE rows). */
  more: z.enum(FAN_SECTIONS).optional(),
});
export type OpsSearchInput = z.input<typeof opsSearchInput>;

/**
 * What a query is, from its shape: our ids by their prefix (tkt_, lst_, pay_, bi_ for a buy intention,
 * i.e. a purchase), an e-mail by its @; anything else is matched exactly against the partner's own ids
 * (a ticket's ticketId, an orderId).
 */
export type SearchKind = 'email' | 'ticket' | 'listing' | 'payment' | 'intention' | 'partnerRef';

const OUR_ID = /^(tkt|lst|pay|bi)_[0-9A-Za-z]{20}$/;
const KIND_OF_PREFIX = { tkt: 'ticket', lst: 'listing', pay: 'payment', bi: 'intention' } as const;

export function searchKindOf(q: string): SearchKind {
  const id = OUR_ID.exec(q);
  if (id) return KIND_OF_PREFIX[id[1] as keyof typeof KIND_OF_PREFIX];
  if (q.includes('@') && z.email().safeParse(q).success) return 'email';
  return 'partnerRef';
}

/** The partner's name, marked when the row is test data (a test twin's, test mode): staff never mistake it for live. */
const partnerName = sql<string>`case when ${partners.mode} = 'test' then ${partners.name} || ' (test mode)' else ${partners.name} end`;

const ticketColumns = {
  partnerId: tickets.partnerId,
  partnerName,
  id: tickets.id,
  ticketId: tickets.ticketId,
  orderId: tickets.orderId,
  status: tickets.status,
  holderEmail: tickets.buyerEmail,
  eventTitle: events.title,
  eventRef: events.externalReferenceId,
  createdAt: tickets.createdAt,
};

const listingColumns = {
  partnerId: listings.partnerId,
  partnerName,
  id: listings.id,
  status: listings.status,
  sellerEmail: listings.sellerEmail,
  priceMinor: listings.priceMinor,
  currency: listings.currency,
  ticketCount: listings.ticketCount,
  orderId: listings.orderId,
  eventTitle: events.title,
  createdAt: listings.createdAt,
  soldAt: listings.soldAt,
};

/** A purchase's refunds, newest first, as one JSON array (a purchase has one or two at most). */
const refundsOfPayment = sql<{ id: string; amountMinor: number; status: string; reason: string; createdAt: string }[]>`
  coalesce((
    select json_agg(json_build_object(
      'id', ${refunds.id}, 'amountMinor', ${refunds.amountMinor}, 'status', ${refunds.status},
      'reason', ${refunds.reason}, 'createdAt', ${refunds.createdAt}
    ) order by ${refunds.createdAt} desc)
    from ${refunds}
    where ${refunds.paymentId} = ${payments.id} and ${refunds.partnerId} = ${payments.partnerId}
  ), '[]'::json)`;

const purchaseColumns = {
  partnerId: buyIntentions.partnerId,
  partnerName,
  id: buyIntentions.id,
  status: buyIntentions.status,
  buyerEmail: buyIntentions.buyerEmail,
  listingIds: buyIntentions.listingIds,
  totalMinor: buyIntentions.totalMinor,
  currency: buyIntentions.currency,
  createdAt: buyIntentions.createdAt,
  refundedAt: buyIntentions.refundedAt,
  refundReason: buyIntentions.refundReason,
  endReason: buyIntentions.endReason,
  paymentId: payments.id,
  paymentStatus: payments.status,
  paymentAmountMinor: payments.amountMinor,
  refundedMinor: payments.refundedMinor,
  refunds: refundsOfPayment,
};

const payoutColumns = {
  partnerId: payouts.partnerId,
  partnerName,
  id: payouts.id,
  listingId: payouts.listingId,
  intentionId: payouts.intentionId,
  amountMinor: payouts.amountMinor,
  currency: payouts.currency,
  status: payouts.status,
  dueAt: payouts.dueAt,
  paidAt: payouts.paidAt,
};

const transferColumns = {
  partnerId: transfers.partnerId,
  partnerName,
  id: transfers.id,
  amountMinor: transfers.amountMinor,
  currency: transfers.currency,
  status: transfers.status,
  paymentId: transfers.paymentId,
  failureReason: transfers.failureReason,
  createdAt: transfers.createdAt,
};

const mailColumns = {
  partnerId: mails.partnerId,
  partnerName,
  id: mails.id,
  kind: mails.kind,
  subject: mails.subject,
  status: mails.status,
  createdAt: mails.createdAt,
  sentAt: mails.sentAt,
};

const sessionColumns = {
  partnerId: fanSessions.partnerId,
  partnerName,
  id: fanSessions.id,
  createdAt: fanSessions.createdAt,
  lastSeenAt: fanSessions.lastSeenAt,
  expiresAt: fanSessions.expiresAt,
  revokedAt: fanSessions.revokedAt,
  open: sql<boolean>`(${fanSessions.revokedAt} is null and ${fanSessions.expiresAt} > now())`,
};

function ticketsWhere(db: DbOrTx, where: SQL | undefined, limit: number) {
  return db
    .select(ticketColumns)
    .from(tickets)
    .innerJoin(partners, eq(partners.id, tickets.partnerId))
    .innerJoin(events, and(eq(events.id, tickets.eventPk), eq(events.partnerId, tickets.partnerId)))
    .where(where)
    .orderBy(desc(tickets.createdAt), desc(tickets.id))
    .limit(limit);
}

function listingsWhere(db: DbOrTx, where: SQL | undefined, limit: number) {
  return db
    .select(listingColumns)
    .from(listings)
    .innerJoin(partners, eq(partners.id, listings.partnerId))
    .innerJoin(events, and(eq(events.id, listings.eventPk), eq(events.partnerId, listings.partnerId)))
    .where(where)
    .orderBy(desc(listings.createdAt), desc(listings.id))
    .limit(limit);
}

function purchasesWhere(db: DbOrTx, where: SQL | undefined, limit: number) {
  return db
    .select(purchaseColumns)
    .from(buyIntentions)
    .innerJoin(partners, eq(partners.id, buyIntentions.partnerId))
    .leftJoin(payments, and(eq(payments.id, buyIntentions.paymentId), eq(payments.partnerId, buyIntentions.partnerId)))
    .where(where)
    .orderBy(desc(buyIntentions.createdAt), desc(buyIntentions.id))
    .limit(limit);
}

/** Purchases that bought any of these listings (each of the listing's own partner). */
const boughtAny = (found: { id: string; partnerId: string }[]) =>
  or(
    ...found.map((l) =>
      and(eq(buyIntentions.partnerId, l.partnerId), sql`${buyIntentions.listingIds} @> array[${l.id}]::text[]`),
    ),
  );

type Tickets = Awaited<ReturnType<typeof ticketsWhere>>;
type Listings = Awaited<ReturnType<typeof listingsWhere>>;
type Purchases = Awaited<ReturnType<typeof purchasesWhere>>;

/** What an id search found: the thing itself and what it leads to, each labelled by its partner. */
export interface IdResult {
  tickets: Tickets;
  listings: Listings;
  purchases: Purchases;
}

const ID_LIMIT = 50;

async function listingsOfTickets(db: DbOrTx, found: Tickets) {
  if (!found.length) return [];
  const ids = await db
    .selectDistinct({ id: listingItems.listingId })
    .from(listingItems)
    .where(or(...found.map((t) => and(eq(listingItems.ticketPk, t.id), eq(listingItems.partnerId, t.partnerId)))));
  if (!ids.length) return [];
  return listingsWhere(
    db,
    and(
      inArray(
        listings.id,
        ids.map((r) => r.id),
      ),
      inArray(listings.partnerId, [...new Set(found.map((t) => t.partnerId))]),
    ),
    ID_LIMIT,
  );
}

async function ticketsOfListings(db: DbOrTx, found: Listings) {
  if (!found.length) return [];
  const items = await db
    .select({ ticketPk: listingItems.ticketPk, partnerId: listingItems.partnerId })
    .from(listingItems)
    .where(or(...found.map((l) => and(eq(listingItems.listingId, l.id), eq(listingItems.partnerId, l.partnerId)))));
  if (!items.length) return [];
  return ticketsWhere(
    db,
    or(...items.map((i) => and(eq(tickets.id, i.ticketPk), eq(tickets.partnerId, i.partnerId)))),
    ID_LIMIT,
  );
}

async function listingsOfPurchases(db: DbOrTx, found: Purchases) {
  const wanted = found.flatMap((p) => p.listingIds.map((id) => ({ id, partnerId: p.partnerId })));
  if (!wanted.length) return [];
  return listingsWhere(
    db,
    or(...wanted.map((l) => and(eq(listings.id, l.id), eq(listings.partnerId, l.partnerId)))),
    ID_LIMIT,
  );
}

async function searchById(db: DbOrTx, kind: Exclude<SearchKind, 'email'>, q: string): Promise<IdResult> {
  if (kind === 'ticket' || kind === 'partnerRef') {
    // Our tkt_ id, or the partner's ticketId / orderId (unique per partner, so one hit per partner).
    const found = await ticketsWhere(
      db,
      kind === 'ticket' ? eq(tickets.id, q) : or(eq(tickets.ticketId, q), eq(tickets.orderId, q)),
      ID_LIMIT,
    );
    const byOrder = kind === 'partnerRef' ? await listingsWhere(db, eq(listings.orderId, q), ID_LIMIT) : [];
    const ofTickets = await listingsOfTickets(db, found);
    const listed = [...ofTickets, ...byOrder.filter((l) => !ofTickets.some((o) => o.id === l.id))];
    const purchases = listed.length ? await purchasesWhere(db, boughtAny(listed), ID_LIMIT) : [];
    return { tickets: found, listings: listed, purchases };
  }
  if (kind === 'listing') {
    const found = await listingsWhere(db, eq(listings.id, q), 1);
    const [ticketsFound, purchases] = await Promise.all([
      ticketsOfListings(db, found),
      found.length ? purchasesWhere(db, boughtAny(found), ID_LIMIT) : [],
    ]);
    return { tickets: ticketsFound, listings: found, purchases };
  }
  // A payment leads to its purchase: the intention it pays (`reference`), or the one that names it.
  const purchases = await purchasesWhere(
    db,
    kind === 'intention'
      ? eq(buyIntentions.id, q)
      : or(
          eq(buyIntentions.paymentId, q),
          sql`(${buyIntentions.partnerId}, ${buyIntentions.id}) in (select ${payments.partnerId}, ${payments.reference} from ${payments} where ${payments.id} = ${q})`,
        ),
    ID_LIMIT,
  );
  const listed = await listingsOfPurchases(db, purchases);
  return { tickets: await ticketsOfListings(db, listed), listings: listed, purchases };
}

/** A fan's rows in one section: the newest `limit`, and how many there are. */
async function section<T>(rows: Promise<T[]>, total: Promise<{ total: number }[]>) {
  const [items, [counted]] = await Promise.all([rows, total]);
  return { items, total: counted?.total ?? 0 };
}

/** Transfers to the seller accounts of one e-mail (a transfer names its account, the account the seller). */
function transfersTo(db: DbOrTx, email: string, limit: number) {
  const toAccount = and(
    eq(sellerAccounts.id, transfers.sellerAccountId),
    eq(sellerAccounts.partnerId, transfers.partnerId),
  );
  const where = eq(sellerAccounts.sellerEmail, email);
  return section(
    db
      .select(transferColumns)
      .from(transfers)
      .innerJoin(sellerAccounts, toAccount)
      .innerJoin(partners, eq(partners.id, transfers.partnerId))
      .where(where)
      .orderBy(desc(transfers.createdAt), desc(transfers.id))
      .limit(limit),
    db.select({ total: count() }).from(transfers).innerJoin(sellerAccounts, toAccount).where(where),
  );
}

/** Everything about one e-mail address, across partners (each row names its partner). */
async function fanView(db: DbOrTx, email: string, more?: FanSection) {
  const limitOf = (s: FanSection) => (s === more ? SECTION_LIMIT_MORE : SECTION_LIMIT);
  const heldBy = eq(tickets.buyerEmail, email);
  const soldBy = eq(listings.sellerEmail, email);
  const boughtBy = eq(buyIntentions.buyerEmail, email);
  const paidTo = eq(payouts.sellerEmail, email);
  const mailedTo = eq(mails.toAddress, email);
  const sessionOf = eq(fanSessions.email, email);

  const [ticketsFound, listingsFound, purchasesFound, payoutsFound, transfersFound, mailsFound, sessionsFound] =
    await Promise.all([
      section(ticketsWhere(db, heldBy, limitOf('tickets')), db.select({ total: count() }).from(tickets).where(heldBy)),
      section(
        listingsWhere(db, soldBy, limitOf('listings')),
        db.select({ total: count() }).from(listings).where(soldBy),
      ),
      section(
        purchasesWhere(db, boughtBy, limitOf('purchases')),
        db.select({ total: count() }).from(buyIntentions).where(boughtBy),
      ),
      section(
        db
          .select(payoutColumns)
          .from(payouts)
          .innerJoin(partners, eq(partners.id, payouts.partnerId))
          .where(paidTo)
          .orderBy(desc(payouts.createdAt), desc(payouts.id))
          .limit(limitOf('payouts')),
        db.select({ total: count() }).from(payouts).where(paidTo),
      ),
      transfersTo(db, email, limitOf('transfers')),
      section(
        db
          .select(mailColumns)
          .from(mails)
          .leftJoin(partners, eq(partners.id, mails.partnerId))
          .where(mailedTo)
          .orderBy(desc(mails.createdAt), desc(mails.id))
          .limit(limitOf('mails')),
        db.select({ total: count() }).from(mails).where(mailedTo),
      ),
      section(
        db
          .select(sessionColumns)
          .from(fanSessions)
          .innerJoin(partners, eq(partners.id, fanSessions.partnerId))
          .where(sessionOf)
          .orderBy(desc(fanSessions.createdAt), desc(fanSessions.id))
          .limit(limitOf('sessions')),
        db.select({ total: count() }).from(fanSessions).where(sessionOf),
      ),
    ]);
  return {
    tickets: ticketsFound,
    listings: listingsFound,
    purchases: purchasesFound,
    payouts: payoutsFound,
    transfers: transfersFound,
    mails: mailsFound,
    sessions: sessionsFound,
  };
}

export type FanView = Awaited<ReturnType<typeof fanView>>;

export type OpsSearchResult =
  | { query: string; kind: 'email'; email: string; fan: FanView; found: number }
  | ({ query: string; kind: Exclude<SearchKind, 'email'>; found: number } & IdResult);

/**
 * The support search: an e-mail gives the fan's view (every section, newest first, SECTION_LIMIT rows
 * each with its total; `more` opens one section up to SECTION_LIMIT_MORE); an id gives what it names and
 * what that leads to. Input is trimmed; blank or over-long input is a 400 naming `q`.
 */
export async function opsSearch(input: OpsSearchInput, db: DbOrTx): Promise<OpsSearchResult> {
  const parsed = opsSearchInput.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(issue.message, [{ path: issue.path.join('.') || 'q', message: issue.message }]);
  }
  const { q, more } = parsed.data;
  const kind = searchKindOf(q);
  if (kind === 'email') {
    const email = q.toLowerCase();
    const fan = await fanView(db, email, more);
    const found = Object.values(fan).reduce((n, s) => n + s.total, 0);
    return { query: q, kind, email, fan, found };
  }
  const result = await searchById(db, kind, q);
  return { query: q, kind, ...result, found: result.tickets.length + result.listings.length + result.purchases.length };
}
