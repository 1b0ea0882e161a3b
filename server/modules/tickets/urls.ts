import { and, eq, inArray, sql } from 'drizzle-orm';
import { type DbOrTx, getDb } from '@/db';
import { tickets } from '@/db/schema/tickets';
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
export async function secureViewUrl(partnerId: string, ticketId: string, db: DbOrTx = getDb()): Promise<string> {
  const row = await ticketRow(partnerId, ticketId, db);
  return `${publicBaseUrl()}/t/${row.secureToken}`;
}

/** GET /v1/events/tickets/salePublicUrl: the event's resale market, filtered to the ticket. */
export async function salePublicUrl(partnerId: string, ticketId: string, lang: string, db: DbOrTx = getDb()) {
  const row = await ticketRow(partnerId, ticketId, db);
  const url = new URL(`${publicBaseUrl()}/market/${row.eventPk}`);
  url.searchParams.set('ticket', row.id);
  url.searchParams.set('lang', lang);
  return url.toString();
}

/** What the placeholder secure view shows (the fan-pages issue replaces it). */
export async function secureViewByToken(token: string, db: DbOrTx = getDb()) {
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
export async function secureTokensOf(partnerId: string, ticketPks: string[], db: DbOrTx = getDb()) {
  if (!ticketPks.length) return [];
  return db
    .select({ pk: tickets.id, ticketId: tickets.ticketId, secureToken: tickets.secureToken, owner: tickets.buyerEmail })
    .from(tickets)
    .where(and(eq(tickets.partnerId, partnerId), inArray(tickets.id, ticketPks)))
    .orderBy(tickets.ticketId);
}

/** The secure ticket page: the ticket, its show and seat, by the unguessable token alone. */
export async function secureTicketPage(token: string, db: DbOrTx = getDb()) {
  if (!/^[0-9a-f]{64}$/.test(token)) return null;
  const show = showDirectory(db);
  const [row] = await db
    .select({
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
      holder: sql<string | null>`${tickets.data} -> 'nominalTicket' ->> 'fullName'`,
      /** The access code: only the page, once unlocked, may put it on screen. */
      ticketAccess: sql<{ type?: string; locator?: string } | null>`${tickets.data} -> 'ticketAccess'`,
    })
    .from(tickets)
    .innerJoin(show, eq(show.showPk, tickets.showPk))
    .where(eq(tickets.secureToken, token));
  return row ?? null;
}
