import { and, asc, count, desc, eq, gt, inArray, like, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/db';
import { ticketBatchErrors, ticketBatches, tickets } from '@/db/schema/tickets';
import { notFound } from '@/server/lib/errors';
import { fromMinorUnits } from '@/server/lib/money';
import { likeEscape, pageCountOf } from '@/server/lib/paging';
import {
  eventRef,
  getEventDetail,
  getShowSummary,
  listEvents,
  type ListEventsInput,
  showPksOfEvents,
  showRef,
} from '@/server/modules/catalog';
import type { TicketError } from './ticket-import';

/** A ticket's ids and where it stands, the first columns of every staff list of tickets. */
export const ticketStateColumns = {
  id: tickets.id,
  ticketId: tickets.ticketId,
  status: tickets.status,
  admittedAt: tickets.admittedAt,
};

/**
 * The staff dashboard's view of one partner's tickets and ticket batches, and the catalogue's browse
 * views with their ticket counts added (the catalogue module answers events and shows; tickets are
 * counted here, where their table is). Scoped by partnerId like the catalogue's: another partner's
 * show or batch is NOT_FOUND.
 */

const partnerId = z.string().min(1).max(100);
const ourId = z.string().min(1).max(100);
const page = z.number().int().min(1).max(1_000_000).default(1);
/** Longest e-mail address (RFC 5321); ticket ids are at most 200. */
const search = z.string().trim().max(254).optional();

export const listShowTicketsInput = showRef
  .extend({
    search,
    /** Keyset cursors: the partner ticketId of the last row of the previous page, or of the first row of the next. */
    after: z.string().min(1).max(200).optional(),
    before: z.string().min(1).max(200).optional(),
    pageSize: z.number().int().min(1).max(100).default(25),
  })
  .refine((i) => !(i.after && i.before), { message: 'Use either after or before, not both', path: ['before'] });
export const listBatchesInput = z.object({ partnerId, page, pageSize: z.number().int().min(1).max(100).default(20) });
export const batchRef = z.object({
  partnerId,
  batchId: ourId,
  page,
  pageSize: z.number().int().min(1).max(200).default(50),
});

export type ListShowTicketsInput = z.input<typeof listShowTicketsInput>;
export type ListBatchesInput = z.input<typeof listBatchesInput>;
export type BatchRef = z.input<typeof batchRef>;

/** Ticket counts per show: all, valid, invalidated, admitted. */
async function ticketCountsOfShows(partnerId: string, showPks: string[], db: DbOrTx) {
  const empty = { total: 0, valid: 0, invalidated: 0, admitted: 0 };
  if (!showPks.length) return () => empty;
  const rows = await db
    .select({
      showPk: tickets.showPk,
      total: sql<number>`count(*)::int`,
      valid: sql<number>`(count(*) filter (where ${tickets.status} = 'VALID'))::int`,
      admitted: sql<number>`count(${tickets.admittedAt})::int`,
    })
    .from(tickets)
    .where(and(eq(tickets.partnerId, partnerId), inArray(tickets.showPk, showPks)))
    .groupBy(tickets.showPk);
  const byShow = new Map(rows.map((r) => [r.showPk, { ...r, invalidated: r.total - r.valid }]));
  return (showPk: string) => {
    const r = byShow.get(showPk);
    return r ? { total: r.total, valid: r.valid, invalidated: r.invalidated, admitted: r.admitted } : empty;
  };
}

/** The catalogue's events page with each event's ticket count (tickets of all its shows). */
export async function listEventsWithTickets(input: ListEventsInput, db: DbOrTx) {
  const list = await listEvents(input, db);
  const showsOf = await showPksOfEvents(
    list.items.map((e) => e.id),
    db,
  );
  const showPks = [...showsOf.values()].flat();
  const rows = showPks.length
    ? await db
        .select({ eventPk: tickets.eventPk, n: sql<number>`count(*)::int` })
        .from(tickets)
        .where(inArray(tickets.showPk, showPks))
        .groupBy(tickets.eventPk)
    : [];
  const byEvent = new Map(rows.map((r) => [r.eventPk, r.n]));
  return { ...list, items: list.items.map((e) => ({ ...e, ticketCount: byEvent.get(e.id) ?? 0 })) };
}

/** The catalogue's event detail with ticket counts per show. */
export async function getEventDetailWithTickets(input: z.input<typeof eventRef>, db: DbOrTx) {
  const detail = await getEventDetail(input, db);
  const countsOf = await ticketCountsOfShows(
    eventRef.parse(input).partnerId,
    detail.shows.map((s) => s.id),
    db,
  );
  return { ...detail, shows: detail.shows.map((s) => ({ ...s, tickets: countsOf(s.id) })) };
}

/** The heading of a show's ticket page: the show, its event and its ticket counts. */
export async function getShowSummaryWithTickets(input: z.input<typeof showRef>, db: DbOrTx) {
  const summary = await getShowSummary(input, db);
  const countsOf = await ticketCountsOfShows(showRef.parse(input).partnerId, [summary.id], db);
  return { ...summary, tickets: countsOf(summary.id) };
}

function buyerNameOf(buyer: unknown): string | null {
  if (!buyer || typeof buyer !== 'object') return null;
  const b = buyer as { fullName?: unknown; name?: unknown };
  const name = typeof b.fullName === 'string' ? b.fullName : typeof b.name === 'string' ? b.name : null;
  return name?.trim() || null;
}

/**
 * Tickets of one show, by partner ticketId, with keyset pagination (`after` / `before` a ticketId):
 * pages stay exact while a batch import adds tickets, and a deep page costs what the first one does.
 * The search matches a ticketId prefix (case-sensitive, ids are exact) or a whole buyer e-mail in any
 * case (`buyer_email` is stored lower-cased and indexed with partner_id).
 */
export async function listShowTickets(input: ListShowTicketsInput, db: DbOrTx) {
  const { partnerId, eventId, showId, search, after, before, pageSize } = listShowTicketsInput.parse(input);
  const show = await getShowSummary({ partnerId, eventId, showId }, db);
  const base = and(
    eq(tickets.partnerId, partnerId),
    eq(tickets.showPk, show.id),
    search
      ? or(like(tickets.ticketId, `${likeEscape(search)}%`), eq(tickets.buyerEmail, search.toLowerCase()))
      : undefined,
  );
  const backwards = Boolean(before);
  const rows = await db
    .select({
      ...ticketStateColumns,
      invalidatedAt: tickets.invalidatedAt,
      ticketOptionId: tickets.ticketOptionId,
      priceTypeId: tickets.priceTypeId,
      currency: tickets.currency,
      priceMinor: tickets.priceMinor,
      buyerEmail: tickets.buyerEmail,
      buyer: tickets.buyer,
      createdAt: tickets.createdAt,
    })
    .from(tickets)
    .where(
      and(base, after ? gt(tickets.ticketId, after) : undefined, before ? lt(tickets.ticketId, before) : undefined),
    )
    .orderBy(backwards ? desc(tickets.ticketId) : asc(tickets.ticketId))
    .limit(pageSize + 1);
  const more = rows.length > pageSize;
  const page = rows.slice(0, pageSize);
  if (backwards) page.reverse();

  // Where the page starts among all matches, for "26–50 of 1,234".
  const first = page[0]?.ticketId;
  const [{ total, precede }] = await db
    .select({
      total: sql<number>`count(*)::int`,
      precede: first ? sql<number>`(count(*) filter (where ${lt(tickets.ticketId, first)}))::int` : sql<number>`0`,
    })
    .from(tickets)
    .where(base);

  return {
    items: page.map(({ buyer, priceMinor, ...t }) => ({
      ...t,
      price: fromMinorUnits(priceMinor, t.currency),
      buyerName: buyerNameOf(buyer),
    })),
    total,
    /** Zero-based position of the first item among all matches. */
    offset: page.length ? precede : 0,
    pageSize,
    /** Cursor for the next page (`after`), null on the last page. */
    nextCursor: page.length && (backwards || more) ? page[page.length - 1].ticketId : null,
    /** Cursor for the previous page (`before`), null on the first page. */
    prevCursor: page.length && (backwards ? more : Boolean(after)) ? page[0].ticketId : null,
  };
}

/** Never the stored request itself (`payload`, up to 10,000 tickets): only the progress columns. */
const batchColumns = {
  id: ticketBatches.id,
  status: ticketBatches.status,
  total: ticketBatches.total,
  imported: ticketBatches.imported,
  failed: ticketBatches.failed,
  createdAt: ticketBatches.createdAt,
  completedAt: ticketBatches.completedAt,
};

function batchOut(b: { [K in keyof typeof batchColumns]: (typeof ticketBatches.$inferSelect)[K] }) {
  return {
    id: b.id,
    status: b.status,
    total: b.total,
    imported: b.imported,
    failed: b.failed,
    pending: Math.max(0, b.total - b.imported - b.failed),
    createdAt: b.createdAt,
    completedAt: b.completedAt,
  };
}

/** The partner's `POST /v1/tickets` batches, newest first, with their progress counters. */
export async function listBatches(input: ListBatchesInput, db: DbOrTx) {
  const { partnerId, page, pageSize } = listBatchesInput.parse(input);
  const where = eq(ticketBatches.partnerId, partnerId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(batchColumns)
      .from(ticketBatches)
      .where(where)
      .orderBy(desc(ticketBatches.createdAt), desc(ticketBatches.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(ticketBatches).where(where),
  ]);
  return { items: rows.map(batchOut), total, page, pageSize, pageCount: pageCountOf(total, pageSize) };
}

/**
 * One batch with a page of its failed tickets and their errors, in request order. Offset pages: the
 * import runs in position order and a recorded failure never changes, so pages do not shift.
 */
export async function getBatchDetail(input: BatchRef, db: DbOrTx) {
  const { partnerId, batchId, page, pageSize } = batchRef.parse(input);
  const [batch] = await db
    .select(batchColumns)
    .from(ticketBatches)
    .where(and(eq(ticketBatches.id, batchId), eq(ticketBatches.partnerId, partnerId)));
  if (!batch) throw notFound('Ticket batch not found');
  const failed = await db
    .select({
      position: ticketBatchErrors.position,
      ticketId: ticketBatchErrors.ticketId,
      errors: ticketBatchErrors.errors,
    })
    .from(ticketBatchErrors)
    .where(eq(ticketBatchErrors.batchId, batch.id))
    .orderBy(asc(ticketBatchErrors.position))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return {
    batch: batchOut(batch),
    failedItems: failed.map((f) => ({ ...f, errors: f.errors as TicketError[] })),
    page,
    pageSize,
    pageCount: pageCountOf(batch.failed, pageSize),
  };
}
