import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { ticketPreviousLinks, tickets } from '@/db/schema/tickets';
import { publicBaseUrl } from '@/server/env';
import { notFound } from '@/server/lib/errors';
import { showDirectory } from '@/server/modules/catalog';

async function ticketRow(partnerId: string, ticketId: string, db: DbOrTx) {
  const [row] = await db
    .select({ id: tickets.id, eventPk: tickets.eventPk, secureToken: tickets.secureToken })
    .from(tickets)
    .where(and(eq(tickets.partnerId, partnerId), eq(tickets.ticketId, ticketId)));
  if (!row) throw notFound('Ticket not found');
  return row;
}

/** GET /v1/tickets/{ticketId}/url: the secure ticket view; unguessable and the same on every call. */
export async function secureViewUrl(partnerId: string, ticketId: string, db: DbOrTx): Promise<string> {
  const row = await ticketRow(partnerId, ticketId, db);
  return `${publicBaseUrl()}/t/${row.secureToken}`;
}

/** What the placeholder secure view shows (the fan-pages issue replaces it). */
export async function secureViewByToken(token: string, db: DbOrTx) {
  if (!/^[0-9a-f]{64}$/.test(token)) return null;
  const show = showDirectory(db);
  const [row] = await db
    .select({
      event: show.eventTitle,
      show: show.showTitle,
      startsAt: show.startsAt,
      status: tickets.status,
      showStatus: show.showStatus,
    })
    .from(tickets)
    .innerJoin(show, eq(show.showPk, tickets.showPk))
    .where(eq(tickets.secureToken, token));
  return row ?? null;
}

/** The secure-view tokens of tickets (after a purchase: the buyer's fresh links), by our ids. */
export async function secureTokensOf(partnerId: string, ticketPks: string[], db: DbOrTx) {
  if (!ticketPks.length) return [];
  return db
    .select({ pk: tickets.id, ticketId: tickets.ticketId, secureToken: tickets.secureToken, owner: tickets.buyerEmail })
    .from(tickets)
    .where(and(eq(tickets.partnerId, partnerId), inArray(tickets.id, ticketPks)))
    .orderBy(tickets.ticketId);
}

/**
 * The secure ticket page: the ticket, its show and seat, by the unguessable token alone. A link the
 * ticket had before it changed hands still finds it, as `previous` (why and when it ended) and without
 * the holder or the code: those belong to the new owner.
 */
export async function secureTicketPage(token: string, db: DbOrTx) {
  if (!/^[0-9a-f]{64}$/.test(token)) return null;
  const show = showDirectory(db);
  const columns = {
    pk: tickets.id,
    partnerId: tickets.partnerId,
    eventPk: tickets.eventPk,
    showPk: tickets.showPk,
    ticketId: tickets.ticketId,
    ticketOptionId: tickets.ticketOptionId,
    event: show.eventTitle,
    show: show.showTitle,
    startsAt: show.startsAt,
    status: tickets.status,
    showStatus: show.showStatus,
    seating: sql<Record<string, unknown> | null>`${tickets.data} -> 'props' -> 'seating'`,
    priceTypeId: tickets.priceTypeId,
    admittedAt: tickets.admittedAt,
    /** The partner reissues after a change of hands, and the new ticketAccess has not come yet. */
    reissuePending: sql<boolean>`(${tickets.reissueRequestedAt} is not null and ${tickets.reissuedAt} is null)`,
    holder: sql<string | null>`${tickets.data} -> 'nominalTicket' ->> 'fullName'`,
    /** The access code: only the page, once unlocked, may put it on screen. */
    ticketAccess: sql<{ type?: string; locator?: string } | null>`${tickets.data} -> 'ticketAccess'`,
    /** When the holder was first shown the code (null: not yet, or a new code since). */
    codeShownAt: tickets.codeShownAt,
  };
  const [row] = await db
    .select(columns)
    .from(tickets)
    .innerJoin(show, eq(show.showPk, tickets.showPk))
    .where(eq(tickets.secureToken, token));
  if (row) return { ...row, previous: null };
  const [old] = await db
    .select({ ...columns, reason: ticketPreviousLinks.reason, endedAt: ticketPreviousLinks.createdAt })
    .from(ticketPreviousLinks)
    .innerJoin(tickets, eq(tickets.id, ticketPreviousLinks.ticketPk))
    .innerJoin(show, eq(show.showPk, tickets.showPk))
    .where(eq(ticketPreviousLinks.token, token));
  if (!old) return null;
  const { reason, endedAt, ...rest } = old;
  return { ...rest, holder: null, ticketAccess: null, previous: { reason, at: endedAt } };
}

/** Tickets awaiting their partner's reissue after a change of hands, longest waiting first (staff). */
export async function ticketsAwaitingReissue(partnerId: string, limit = 50, db: DbOrTx) {
  const show = showDirectory(db);
  return db
    .select({
      pk: tickets.id,
      ticketId: tickets.ticketId,
      owner: tickets.buyerEmail,
      event: show.eventTitle,
      showId: show.showId,
      startsAt: show.startsAt,
      since: tickets.reissueRequestedAt,
    })
    .from(tickets)
    .innerJoin(show, eq(show.showPk, tickets.showPk))
    .where(
      and(
        eq(tickets.partnerId, partnerId),
        isNotNull(tickets.reissueRequestedAt),
        isNull(tickets.reissuedAt),
        eq(tickets.status, 'VALID'),
      ),
    )
    .orderBy(asc(tickets.reissueRequestedAt))
    .limit(limit);
}

/**
 * The partner's reissue delay: how many tickets wait now (and the oldest), and over the last 30 days
 * how many were reissued with the median and slowest delay in seconds.
 */
export async function reissueDelayStats(partnerId: string, db: DbOrTx) {
  const [row] = await db.execute<{
    awaiting: number;
    oldest_since: string | null;
    reissued: number;
    median_seconds: number | null;
    max_seconds: number | null;
  }>(sql`
    select
      (select count(*)::int from tickets where partner_id = ${partnerId} and status = 'VALID'
         and reissue_requested_at is not null and reissued_at is null) as awaiting,
      (select min(reissue_requested_at)::text from tickets where partner_id = ${partnerId} and status = 'VALID'
         and reissue_requested_at is not null and reissued_at is null) as oldest_since,
      count(*)::int as reissued,
      (percentile_cont(0.5) within group (order by extract(epoch from reissued_at - reissue_requested_at)))::float8
        as median_seconds,
      max(extract(epoch from reissued_at - reissue_requested_at))::float8 as max_seconds
    from tickets
    where partner_id = ${partnerId} and reissued_at > now() - interval '30 days'`);
  return {
    awaiting: row.awaiting,
    oldestSince: row.oldest_since ? new Date(row.oldest_since) : null,
    reissuedLast30Days: row.reissued,
    medianSeconds: row.median_seconds,
    maxSeconds: row.max_seconds,
  };
}
