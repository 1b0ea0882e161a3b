import { and, asc, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/db';
import { combinations, events, resaleRules, shows } from '@/db/schema/catalog';
import { notFound } from '@/server/lib/errors';
import { sanitizeDescription } from '@/server/lib/html';
import { fromMinorUnits } from '@/server/lib/money';
import { likeEscape, pageCountOf } from '@/server/lib/paging';
import { getEvent } from './event-api';

/**
 * The staff dashboard's read-only view of one partner's catalogue (its tickets and batches: the tickets
 * module's browse.ts, which adds them to these). Every query is scoped by partnerId: an id of another
 * partner's event or show is NOT_FOUND, exactly
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
export type ListEventsInput = z.input<typeof listEventsInput>;

/** Events of a partner, newest first; search matches part of the title or of the externalReferenceId. */
export async function listEvents(input: ListEventsInput, db: DbOrTx) {
  const { partnerId, search, page, pageSize } = listEventsInput.parse(input);
  const pattern = search ? `%${likeEscape(search)}%` : '';
  const where = and(
    eq(events.partnerId, partnerId),
    search ? or(ilike(events.title, pattern), ilike(events.externalReferenceId, pattern)) : undefined,
  );
  // Correlated per row of the page only (at most pageSize events). Table-qualified by hand: drizzle
  // renders a lone column of the outer table without its table name.
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
 * from what partners read back), plus what the API does not answer — our ids,
 * the declared combinations with the price that wins, and the resale rules grouped by scope.
 */
export async function getEventDetail(input: z.input<typeof eventRef>, db: DbOrTx) {
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
  const comboRows = pks.length
    ? await db
        .select()
        .from(combinations)
        .where(and(eq(combinations.partnerId, partnerId), inArray(combinations.showPk, pks)))
    : [];
  const metaByShowId = new Map(showRows.map((s) => [s.showId, s]));
  const showsOut = event.shows.map((show) => {
    const meta = metaByShowId.get(show.showId)!;
    return {
      id: meta.id,
      showId: show.showId,
      startsAt: meta.startsAt,
      /** The venue's IANA time zone (the show's location, else the event's), and the date as the partner sent it. */
      timeZone: show.location?.timeZone ?? event.location?.timeZone ?? null,
      sentAs: show.date,
      cancelledAt: meta.cancelledAt,
      combinations: combinationsOfShow(
        show,
        comboRows.filter((c) => c.showPk === meta.id),
      ),
    };
  });

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
    ruleGroups: ruleGroupsOf(ruleRows, showRows),
  };
}

/** A show's declared combinations in the order of its options and price types, with the price that wins. */
function combinationsOfShow(
  show: Awaited<ReturnType<typeof getEvent>>['shows'][number],
  comboRows: (typeof combinations.$inferSelect)[],
) {
  const optionIndex = new Map(show.ticketOptions.map((o, i) => [o.ticketId, i]));
  const typeIndex = new Map((show.priceTypes ?? []).map((p, i) => [p.priceTypeId, i]));
  return comboRows
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
}

/** The event's resale rules grouped by scope, in show order, then from the widest scope to the narrowest. */
function ruleGroupsOf(ruleRows: (typeof resaleRules.$inferSelect)[], showRows: { showId: string; position: number }[]) {
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
  return [...groups.values()]
    .map((g) => ({ ...g, rules: g.rules.sort((a, b) => a.ruleType.localeCompare(b.ruleType)) }))
    .sort(
      (a, b) =>
        (a.showId ? (showPosition.get(a.showId) ?? 0) + 1 : 0) -
          (b.showId ? (showPosition.get(b.showId) ?? 0) + 1 : 0) ||
        LEVEL_RANK[a.level] - LEVEL_RANK[b.level] ||
        (a.ticketOptionId ?? '').localeCompare(b.ticketOptionId ?? '') ||
        (a.priceTypeId ?? '').localeCompare(b.priceTypeId ?? ''),
    );
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

/** The heading of a show's ticket page: the show and its event. */
export async function getShowSummary(input: z.input<typeof showRef>, db: DbOrTx) {
  const { partnerId, eventId, showId } = showRef.parse(input);
  const { show, event } = await findShow(partnerId, eventId, showId, db);
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
  };
}
