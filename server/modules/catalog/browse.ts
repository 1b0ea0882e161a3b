import { and, asc, count, desc, eq, gt, ilike, inArray, like, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type DbOrTx, getDb } from '@/db';
import { combinations, events, resaleRules, shows, ticketBatchErrors, ticketBatches, tickets } from '@/db/schema';
import { notFound } from '@/server/lib/errors';
import { sanitizeDescription } from '@/server/lib/html';
import { fromMinorUnits } from '@/server/lib/money';
import type { TicketError } from '@/server/modules/tickets/service';
import { getEvent } from './service';

/**
 * The staff dashboard's read-only view of one partner's catalogue, tickets and ticket batches. Every
 * query is scoped by partnerId: an id of another partner's event, show or batch is NOT_FOUND, exactly
 * like an id that does not exist. URLs carry our own ids (evt_…, shw_…, tbt_…): they are URL-safe and
 * unique, while partner identifiers may hold any character and are unique per partner only.
 */

const partnerId = z.string().min(1).max(100);
const ourId = z.string().min(1).max(100);
const page = z.number().int().min(1).max(1_000_000).default(1);
/** Longest e-mail address (RFC 5321); ticket ids are at most 200. */
const search = z.string().trim().max(254).optional();

export const listEventsInput = z.object({
  partnerId,
  search,
  page,
  pageSize: z.number().int().min(1).max(100).default(20),
});
export const eventRef = z.object({ partnerId, eventId: ourId });
export const showRef = eventRef.extend({ showId: ourId });
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

export type ListEventsInput = z.input<typeof listEventsInput>;
export type ListShowTicketsInput = z.input<typeof listShowTicketsInput>;
export type ListBatchesInput = z.input<typeof listBatchesInput>;
export type BatchRef = z.input<typeof batchRef>;

/** `%`, `_` and `\` typed by staff are matched literally. */
function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const pageCountOf = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));

/** Events of a partner, newest first; search matches part of the title or of the externalReferenceId. */
export async function listEvents(input: ListEventsInput, db: DbOrTx = getDb()) {
  const { partnerId, search, page, pageSize } = listEventsInput.parse(input);
  const pattern = search ? `%${likeEscape(search)}%` : '';
  const where = and(
    eq(events.partnerId, partnerId),
    search ? or(ilike(events.title, pattern), ilike(events.externalReferenceId, pattern)) : undefined,
  );
  // Correlated per row of the page only (at most pageSize events). Table-qualified by hand: drizzle
  // renders a lone column of the outer table without its table name. Tickets are counted through the
  // event's shows because tickets are indexed by show, not by event.
  const eventPk = sql.raw('"events"."id"');
  const [items, [{ total }]] = await Promise.all([
    db
      .select({
        id: events.id,
        externalReferenceId: events.externalReferenceId,
        title: events.title,
        cancelledAt: events.cancelledAt,
        createdAt: events.createdAt,
        updatedAt: events.updatedAt,
        showCount: sql<number>`(select count(*)::int from shows s where s.event_id = ${eventPk})`,
        ticketCount: sql<number>`(select count(*)::int from tickets t where t.show_pk in (select s.id from shows s where s.event_id = ${eventPk}))`,
        firstShowAt: sql<Date | null>`(select min(s.starts_at) from shows s where s.event_id = ${eventPk})`.mapWith(
          shows.startsAt,
        ),
        lastShowAt: sql<Date | null>`(select max(s.starts_at) from shows s where s.event_id = ${eventPk})`.mapWith(
          shows.startsAt,
        ),
      })
      .from(events)
      .where(where)
      .orderBy(desc(events.createdAt), desc(events.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(events).where(where),
  ]);
  return { items, total, page, pageSize, pageCount: pageCountOf(total, pageSize) };
}

async function findEvent(partnerId: string, eventId: string, db: DbOrTx) {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.id, eventId), eq(events.partnerId, partnerId)));
  if (!row) throw notFound('Event not found');
  return row;
}

/** Ticket counts per show: all, valid, invalidated, admitted. */
async function ticketCounts(partnerId: string, showPks: string[], db: DbOrTx) {
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

export type RuleScopeLevel = 'event' | 'show' | 'priceType' | 'ticketOption' | 'ticketOption+priceType';

/** Same ranking as the rule resolution in rules.ts: the more specific scope wins. */
const LEVEL_RANK: Record<RuleScopeLevel, number> = {
  event: 0,
  show: 1,
  priceType: 2,
  ticketOption: 3,
  'ticketOption+priceType': 4,
};

function levelOf(r: { showId: string; ticketOptionId: string; priceTypeId: string }): RuleScopeLevel {
  if (r.ticketOptionId && r.priceTypeId) return 'ticketOption+priceType';
  if (r.ticketOptionId) return 'ticketOption';
  if (r.priceTypeId) return 'priceType';
  if (r.showId) return 'show';
  return 'event';
}

/**
 * One event as staff see it: the API's own representation (getEvent, so the dashboard never drifts
 * from what partners read back), plus what the API does not answer — our ids, ticket counts per show,
 * the declared combinations with the price that wins, and the resale rules grouped by scope.
 */
export async function getEventDetail(input: z.input<typeof eventRef>, db: DbOrTx = getDb()) {
  const { partnerId, eventId } = eventRef.parse(input);
  const row = await findEvent(partnerId, eventId, db);
  const [event, showRows, ruleRows] = await Promise.all([
    getEvent(partnerId, row.externalReferenceId, db),
    db
      .select({
        id: shows.id,
        showId: shows.showId,
        position: shows.position,
        startsAt: shows.startsAt,
        cancelledAt: shows.cancelledAt,
      })
      .from(shows)
      .where(and(eq(shows.eventId, row.id), eq(shows.partnerId, partnerId)))
      .orderBy(asc(shows.position)),
    db
      .select()
      .from(resaleRules)
      .where(and(eq(resaleRules.eventPk, row.id), eq(resaleRules.partnerId, partnerId))),
  ]);
  const pks = showRows.map((s) => s.id);
  const [countsOf, comboRows] = await Promise.all([
    ticketCounts(partnerId, pks, db),
    pks.length
      ? db
          .select()
          .from(combinations)
          .where(and(eq(combinations.partnerId, partnerId), inArray(combinations.showPk, pks)))
      : Promise.resolve([]),
  ]);
  const metaByShowId = new Map(showRows.map((s) => [s.showId, s]));

  const showsOut = event.shows.map((show) => {
    const meta = metaByShowId.get(show.showId)!;
    const optionIndex = new Map(show.ticketOptions.map((o, i) => [o.ticketId, i]));
    const typeIndex = new Map((show.priceTypes ?? []).map((p, i) => [p.priceTypeId, i]));
    const combos = comboRows
      .filter((c) => c.showPk === meta.id)
      .sort(
        (a, b) =>
          (optionIndex.get(a.ticketOptionId) ?? 0) - (optionIndex.get(b.ticketOptionId) ?? 0) ||
          (typeIndex.get(a.priceTypeId) ?? 0) - (typeIndex.get(b.priceTypeId) ?? 0),
      )
      .map((c) => {
        const option = show.ticketOptions.find((o) => o.ticketId === c.ticketOptionId);
        const price = fromMinorUnits(c.priceMinor, c.currency);
        // The response schema types prices loosely (number or numeric string); the stored value is a number.
        const optionPrice = option?.price === null || option?.price === undefined ? null : Number(option.price);
        // The combination's price takes precedence over the ticket option's (spec: Combination).
        return {
          ticketOptionId: c.ticketOptionId,
          priceTypeId: c.priceTypeId,
          currency: c.currency,
          price,
          optionPrice,
          faceValue: price ?? optionPrice,
          priceFrom: price !== null ? ('combination' as const) : optionPrice !== null ? ('option' as const) : null,
          description: c.description,
        };
      });
    return {
      id: meta.id,
      showId: show.showId,
      startsAt: meta.startsAt,
      cancelledAt: meta.cancelledAt,
      tickets: countsOf(meta.id),
      combinations: combos,
    };
  });

  const showPosition = new Map(showRows.map((s) => [s.showId, s.position]));
  const groups = new Map<
    string,
    {
      level: RuleScopeLevel;
      showId: string | null;
      ticketOptionId: string | null;
      priceTypeId: string | null;
      rules: { ruleType: string; rules: unknown; description: string | null; updatedAt: Date }[];
    }
  >();
  for (const r of ruleRows) {
    const key = `${r.showId}|${r.ticketOptionId}|${r.priceTypeId}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        level: levelOf(r),
        showId: r.showId || null,
        ticketOptionId: r.ticketOptionId || null,
        priceTypeId: r.priceTypeId || null,
        rules: [],
      };
      groups.set(key, group);
    }
    group.rules.push({ ruleType: r.ruleType, rules: r.rules, description: r.description, updatedAt: r.updatedAt });
  }
  const ruleGroups = [...groups.values()]
    .map((g) => ({ ...g, rules: g.rules.sort((a, b) => a.ruleType.localeCompare(b.ruleType)) }))
    .sort(
      (a, b) =>
        (a.showId ? (showPosition.get(a.showId) ?? 0) + 1 : 0) -
          (b.showId ? (showPosition.get(b.showId) ?? 0) + 1 : 0) ||
        LEVEL_RANK[a.level] - LEVEL_RANK[b.level] ||
        (a.ticketOptionId ?? '').localeCompare(b.ticketOptionId ?? '') ||
        (a.priceTypeId ?? '').localeCompare(b.priceTypeId ?? ''),
    );

  return {
    id: row.id,
    externalReferenceId: row.externalReferenceId,
    title: row.title,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    cancelledAt: row.cancelledAt,
    event,
    /** The description sanitised here, on the server, for rendering as HTML. */
    descriptionHtml: event.description ? sanitizeDescription(event.description) : null,
    shows: showsOut,
    ruleGroups,
  };
}

/** A show of the event (both the partner's), or NOT_FOUND. */
async function findShow(partnerId: string, eventId: string, showId: string, db: DbOrTx) {
  const [row] = await db
    .select({
      show: shows,
      event: { id: events.id, title: events.title, externalReferenceId: events.externalReferenceId },
    })
    .from(shows)
    .innerJoin(events, eq(events.id, shows.eventId))
    .where(
      and(
        eq(shows.id, showId),
        eq(shows.eventId, eventId),
        eq(shows.partnerId, partnerId),
        eq(events.partnerId, partnerId),
      ),
    );
  if (!row) throw notFound('Show not found');
  return row;
}

/** The heading of a show's ticket page: the show, its event and its ticket counts. */
export async function getShowSummary(input: z.input<typeof showRef>, db: DbOrTx = getDb()) {
  const { partnerId, eventId, showId } = showRef.parse(input);
  const { show, event } = await findShow(partnerId, eventId, showId, db);
  const countsOf = await ticketCounts(partnerId, [show.id], db);
  return {
    id: show.id,
    showId: show.showId,
    title: show.title,
    date: show.date,
    startsAt: show.startsAt,
    status: show.status,
    showRescheduled: show.showRescheduled,
    resaleEnabled: show.resaleEnabled,
    cancelledAt: show.cancelledAt,
    event,
    tickets: countsOf(show.id),
  };
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
export async function listShowTickets(input: ListShowTicketsInput, db: DbOrTx = getDb()) {
  const { partnerId, eventId, showId, search, after, before, pageSize } = listShowTicketsInput.parse(input);
  const { show } = await findShow(partnerId, eventId, showId, db);
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
      id: tickets.id,
      ticketId: tickets.ticketId,
      status: tickets.status,
      admittedAt: tickets.admittedAt,
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
export async function listBatches(input: ListBatchesInput, db: DbOrTx = getDb()) {
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
export async function getBatchDetail(input: BatchRef, db: DbOrTx = getDb()) {
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
