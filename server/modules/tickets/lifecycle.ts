import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/db';
import { tickets } from '@/db/schema/tickets';
import { AppError, conflict, type ErrorDetail, notFound } from '@/server/lib/errors';
import { currencyExponent, fromMinorUnits } from '@/server/lib/money';
import { showDirectory } from '@/server/modules/catalog';
import type { TicketCreate, TicketUpdate } from './schemas';
import { recordTicketEvents } from './history';
import { notifyTicketsChangedHands, notifyTicketsInvalidated } from './events';
import { importTickets } from './ticket-import';

async function loadTicket(partnerId: string, ticketId: string, db: DbOrTx, lock = false) {
  const show = showDirectory(db);
  const q = db
    .select({ t: tickets, ref: show.eventRef, showId: show.showId, showStatus: show.showStatus })
    .from(tickets)
    .innerJoin(show, eq(show.showPk, tickets.showPk))
    .where(and(eq(tickets.partnerId, partnerId), eq(tickets.ticketId, ticketId)));
  const [row] = lock ? await q.for('update', { of: tickets }) : await q;
  if (!row) throw notFound('Ticket not found');
  return row;
}

function view(row: Awaited<ReturnType<typeof loadTicket>>) {
  const { t } = row;
  return {
    id: t.id,
    ticketId: t.ticketId,
    externalReferenceEventId: row.ref,
    showId: row.showId,
    ticketOptionId: t.ticketOptionId,
    priceTypeId: t.priceTypeId,
    price: fromMinorUnits(t.priceMinor, t.currency),
    currency: t.currency,
    status: t.status,
    admittedAt: t.admittedAt ? new Date(t.admittedAt).toISOString() : null,
  };
}

/** 409 for an invalidated ticket, saying why: its show was cancelled, or the partner deleted it. */
const invalid = (showStatus: string) =>
  conflict(
    showStatus === 'CANCELLED'
      ? 'The show is cancelled; its tickets are invalid and cannot be changed or admitted'
      : 'Ticket was deleted and is invalid; it cannot be changed or admitted',
  );

/**
 * PUT /v1/tickets/{ticketId}: the stored ticket with the fields sent replacing their values, validated
 * again against the catalogue like an import. A deleted (invalidated) ticket answers 409. The ticket row is
 * locked first, so PUTs of one ticket run one after another; one that changes the buyer tells the modules
 * above (`onTicketsChangedHands`) in its transaction.
 */
export async function updateTicket(partnerId: string, ticketId: string, patch: TicketUpdate, db: Db) {
  return db.transaction(async (tx) => {
    const row = await loadTicket(partnerId, ticketId, tx, true);
    if (row.t.status === 'INVALIDATED' || row.showStatus === 'CANCELLED') throw invalid(row.showStatus);
    const data = row.t.data as Record<string, unknown>;
    const exp = currencyExponent(row.t.currency);
    const merged: TicketCreate = {
      externalReferenceEventId: row.ref,
      showId: row.showId,
      buyer: row.t.buyer as TicketCreate['buyer'],
      ticketId,
      ticketAccess: data.ticketAccess as TicketCreate['ticketAccess'],
      ticketOptionId: row.t.ticketOptionId,
      ...(row.t.priceTypeId ? { priceTypeId: row.t.priceTypeId } : {}),
      ...(row.t.priceMinor !== null ? { price: (row.t.priceMinor / 10 ** exp).toFixed(exp) } : {}),
      ...(data as Partial<TicketCreate>),
      ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
    };
    // A ticket moved to another option, price type or show takes that one's face value unless a price is sent.
    const moved = ['externalReferenceEventId', 'showId', 'ticketOptionId', 'priceTypeId'].some((k) => k in patch);
    if (moved && patch.price === undefined) delete merged.price;
    const [result] = await importTickets(partnerId, [{ ticket: merged }], tx);
    if (result.status === 'failed') {
      const details: ErrorDetail[] = (result.errors ?? []).map((e) => ({ ...e, in: 'body' }));
      throw new AppError('VALIDATION_FAILED', `Invalid request body: ${details[0]?.path} ${details[0]?.message}`, {
        details,
      });
    }
    const after = await loadTicket(partnerId, ticketId, tx);
    // Given to someone else: the marketplace ends what the former holder listed of it (in this transaction).
    const holder = (email: string | null) => email?.trim().toLowerCase() ?? null;
    if (holder(after.t.buyerEmail) !== holder(row.t.buyerEmail)) {
      await notifyTicketsChangedHands(tx, [{ ticketPk: after.t.id, buyerEmail: holder(after.t.buyerEmail) }]);
    }
    return view(after);
  });
}

/** DELETE /v1/tickets/{ticketId}: invalid for all purposes, irreversibly. Repeating it changes nothing. */
export async function invalidateTicket(partnerId: string, ticketId: string, db: Db) {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ id: tickets.id, status: tickets.status })
      .from(tickets)
      .where(and(eq(tickets.partnerId, partnerId), eq(tickets.ticketId, ticketId)))
      .for('update');
    if (!before) throw notFound('Ticket not found');
    await tx
      .update(tickets)
      .set({
        status: 'INVALIDATED',
        invalidatedAt: sql`coalesce(${tickets.invalidatedAt}, now())`,
        updatedAt: sql`now()`,
      })
      .where(eq(tickets.id, before.id));
    // A repeated DELETE changes nothing, so it records nothing either.
    if (before.status === 'VALID') {
      await recordTicketEvents(tx, [before.id], 'invalidated');
      await notifyTicketsInvalidated(tx, [before.id]);
    }
    return view(await loadTicket(partnerId, ticketId, tx));
  });
}

/** POST /v1/tickets/{ticketId}/eventAdmission: marks the ticket used. A second admission is a 409. */
export async function admitTicket(partnerId: string, ticketId: string, db: DbOrTx): Promise<true> {
  return db.transaction(async (tx) => {
    const row = await loadTicket(partnerId, ticketId, tx, true);
    if (row.t.status === 'INVALIDATED' || row.showStatus === 'CANCELLED') throw invalid(row.showStatus);
    if (row.t.admittedAt) throw conflict(`Ticket already admitted at ${new Date(row.t.admittedAt).toISOString()}`);
    await tx
      .update(tickets)
      .set({ admittedAt: sql`now()` })
      .where(eq(tickets.id, row.t.id));
    await recordTicketEvents(tx, [row.t.id], 'admitted');
    return true as const;
  });
}

/**
 * POST /v1/tickets/batch/eventAdmission: all or nothing. Every item that cannot be admitted is named
 * (unknown, deleted, cancelled show, already admitted, repeated in the request); then nothing is recorded.
 */
export async function admitTickets(
  partnerId: string,
  items: { ticketId: string; entryDate: string }[],
  db: DbOrTx,
): Promise<true> {
  return db.transaction(async (tx) => {
    const ids = items.map((i) => i.ticketId);
    const show = showDirectory(tx);
    const rows = await tx
      .select({
        id: tickets.id,
        ticketId: tickets.ticketId,
        status: tickets.status,
        admittedAt: tickets.admittedAt,
        showStatus: show.showStatus,
      })
      .from(tickets)
      .innerJoin(show, eq(show.showPk, tickets.showPk))
      .where(and(eq(tickets.partnerId, partnerId), inArray(tickets.ticketId, ids)))
      .for('update', { of: tickets });
    const byId = new Map(rows.map((r) => [r.ticketId, r]));
    const seen = new Set<string>();
    const problems: ErrorDetail[] = [];
    items.forEach((item, i) => {
      const path = `[${i}].ticketId`;
      const r = byId.get(item.ticketId);
      if (seen.has(item.ticketId)) problems.push({ path, message: 'appears twice in this request', in: 'body' });
      else if (!r) problems.push({ path, message: 'Ticket not found', in: 'body' });
      else if (r.showStatus === 'CANCELLED')
        problems.push({ path, message: 'belongs to a cancelled show', in: 'body' });
      else if (r.status === 'INVALIDATED') problems.push({ path, message: 'was deleted and is invalid', in: 'body' });
      else if (r.admittedAt)
        problems.push({ path, message: `already admitted at ${new Date(r.admittedAt).toISOString()}`, in: 'body' });
      seen.add(item.ticketId);
    });
    if (problems.length) {
      throw new AppError(
        'CONFLICT',
        `No admission was recorded: ${problems.length} of ${items.length} cannot be admitted`,
        {
          details: problems,
        },
      );
    }
    const payload = JSON.stringify(items.map((i) => ({ ticket_id: i.ticketId, entry_date: i.entryDate })));
    // The history row takes the admission's entryDate, like admitted_at; same statement, one CTE.
    await tx.execute(sql`
      with up as (
        update tickets t set admitted_at = v.entry_date, updated_at = now()
        from jsonb_to_recordset(${payload}::jsonb) as v(ticket_id text, entry_date timestamptz)
        where t.partner_id = ${partnerId} and t.ticket_id = v.ticket_id
        returning t.id, t.admitted_at
      )
      insert into ticket_events (ticket_pk, kind, at) select id, 'admitted', admitted_at from up`);
    return true as const;
  });
}
