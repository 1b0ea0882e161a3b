import { and, asc, eq, like, or } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/db';
import { tickets } from '@/db/schema/tickets';
import { publicBaseUrl } from '@/server/env';
import { notFound } from '@/server/lib/errors';
import { likeEscape } from '@/server/lib/paging';
import { showDirectory } from '@/server/modules/catalog';
import { fromMinorUnits } from '@/server/lib/money';
import { ticketStateColumns } from './browse';
import { ticketHistory, type TicketEventKind } from './history';

/**
 * Support's ticket tools in the staff dashboard: find a ticket across all of a partner's events, and
 * one ticket's page (partner ids, buyer, history, secure view, batch). Scoped by partnerId: another
 * partner's ticket is never found, exactly like one that does not exist.
 */

const partnerId = z.string().min(1).max(100);

export const searchTicketsInput = z.object({
  partnerId,
  /** Our id (tkt_…), a partner ticketId prefix, or a whole buyer e-mail (any case). */
  query: z.string().trim().min(1).max(254),
  limit: z.number().int().min(1).max(100).default(50),
});
export const ticketRef = z.object({ partnerId, ticketId: z.string().min(1).max(100) });

/** `%`, `_` and `\` typed by staff are matched literally. */

/** Matches ordered by event and ticketId; uses the (partner_id, ticket_id) and (partner_id, buyer_email) indexes. */
export async function searchPartnerTickets(input: z.input<typeof searchTicketsInput>, db: DbOrTx) {
  const { partnerId, query, limit } = searchTicketsInput.parse(input);
  const show = showDirectory(db);
  const rows = await db
    .select({
      ...ticketStateColumns,
      buyerEmail: tickets.buyerEmail,
      eventId: show.eventPk,
      eventTitle: show.eventTitle,
      externalReferenceEventId: show.eventRef,
      showPk: show.showPk,
      showId: show.showId,
    })
    .from(tickets)
    .innerJoin(show, eq(show.showPk, tickets.showPk))
    .where(
      and(
        eq(tickets.partnerId, partnerId),
        or(
          eq(tickets.id, query),
          like(tickets.ticketId, `${likeEscape(query)}%`),
          eq(tickets.buyerEmail, query.toLowerCase()),
        ),
      ),
    )
    .orderBy(asc(show.eventRef), asc(tickets.ticketId))
    .limit(limit + 1);
  return { items: rows.slice(0, limit), more: rows.length > limit };
}

export type TicketHistoryEntry = {
  kind: TicketEventKind | 'created' | 'last-updated';
  at: Date;
  batchId: string | null;
};

/**
 * One ticket by our id. The history is what `ticket_events` recorded; a ticket imported before it
 * existed shows what is known instead (created, and last updated when that differs), marked `recorded: false`.
 */
export async function getTicketDetail(input: z.input<typeof ticketRef>, db: DbOrTx) {
  const { partnerId, ticketId } = ticketRef.parse(input);
  const show = showDirectory(db);
  const [row] = await db
    .select({
      t: tickets,
      eventTitle: show.eventTitle,
      externalReferenceEventId: show.eventRef,
      showId: show.showId,
      showTitle: show.showTitle,
      showStatus: show.showStatus,
    })
    .from(tickets)
    .innerJoin(show, eq(show.showPk, tickets.showPk))
    .where(and(eq(tickets.partnerId, partnerId), eq(tickets.id, ticketId)));
  if (!row) throw notFound('Ticket not found');
  const { t } = row;
  const recorded = await ticketHistory(db, t.id);
  const history: TicketHistoryEntry[] = recorded.length
    ? recorded
    : [
        { kind: 'created', at: t.createdAt, batchId: null },
        ...(t.updatedAt.getTime() !== t.createdAt.getTime()
          ? [{ kind: 'last-updated' as const, at: t.updatedAt, batchId: null }]
          : []),
        ...(t.admittedAt ? [{ kind: 'admitted' as const, at: t.admittedAt, batchId: null }] : []),
        ...(t.invalidatedAt ? [{ kind: 'invalidated' as const, at: t.invalidatedAt, batchId: null }] : []),
      ];
  return {
    id: t.id,
    ticketId: t.ticketId,
    eventId: t.eventPk,
    eventTitle: row.eventTitle,
    externalReferenceEventId: row.externalReferenceEventId,
    showPk: t.showPk,
    showId: row.showId,
    showTitle: row.showTitle,
    showStatus: row.showStatus,
    ticketOptionId: t.ticketOptionId,
    priceTypeId: t.priceTypeId,
    price: fromMinorUnits(t.priceMinor, t.currency),
    buyer: t.buyer,
    buyerEmail: t.buyerEmail,
    status: t.status,
    admittedAt: t.admittedAt,
    invalidatedAt: t.invalidatedAt,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    secureViewUrl: `${publicBaseUrl()}/t/${t.secureToken}`,
    /** The batch that first imported it (the newest one that touched it when no import was recorded). */
    batchId:
      recorded.find((h) => h.kind === 'imported')?.batchId ?? recorded.findLast((h) => h.batchId)?.batchId ?? null,
    history,
    historyRecorded: recorded.length > 0,
  };
}
