import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, inTextList, type Tx } from '@/db';
import { ticketPreviousLinks, tickets } from '@/db/schema/tickets';
import { AppError } from '@/server/lib/errors';
import { showDirectory } from '@/server/modules/catalog';
import { recordTicketEvents } from './history';

/*
 * Tickets as the marketplace reads and changes them (it never touches the tickets table itself): the
 * tickets a seller names, with their show; the change of owner when a sale completes. When tickets are
 * invalidated the marketplace hears it through events.ts (`onTicketsInvalidated`).
 */

export interface SaleTicket {
  pk: string;
  partnerId: string;
  ticketId: string;
  status: 'VALID' | 'INVALIDATED';
  admittedAt: Date | null;
  eventPk: string;
  eventRef: string;
  showPk: string;
  showId: string;
  showStatus: string;
  startsAt: Date;
  resaleEnabled: boolean;
  ticketOptionId: string;
  priceTypeId: string | null;
  currency: string;
  /** Face value (minor units) as the partner sent it, if it did. */
  priceMinor: number | null;
  buyerEmail: string | null;
  orderId: string | null;
  /** `props.seating` (section, row, seat, door, image) when the partner sent it. */
  seating: Record<string, unknown> | null;
  /** When a holder was first shown this code (secure view unlocked); null for a code nobody has seen. */
  codeShownAt: Date | null;
}

function saleColumns(show: ReturnType<typeof showDirectory>) {
  return {
    pk: tickets.id,
    partnerId: tickets.partnerId,
    ticketId: tickets.ticketId,
    status: tickets.status,
    admittedAt: tickets.admittedAt,
    eventPk: tickets.eventPk,
    eventRef: show.eventRef,
    showPk: tickets.showPk,
    showId: show.showId,
    showStatus: show.showStatus,
    startsAt: show.startsAt,
    resaleEnabled: show.resaleEnabled,
    ticketOptionId: tickets.ticketOptionId,
    priceTypeId: tickets.priceTypeId,
    currency: tickets.currency,
    priceMinor: tickets.priceMinor,
    buyerEmail: tickets.buyerEmail,
    orderId: tickets.orderId,
    seating: sql<Record<string, unknown> | null>`${tickets.data} -> 'props' -> 'seating'`,
    codeShownAt: tickets.codeShownAt,
  };
}

/** The tickets matching `where`, each with its show: the one query behind the lookups below. */
async function saleTickets(db: DbOrTx, where: SQL | undefined): Promise<SaleTicket[]> {
  const show = showDirectory(db);
  return (await db
    .select(saleColumns(show))
    .from(tickets)
    .innerJoin(show, eq(show.showPk, tickets.showPk))
    .where(where)
    .orderBy(tickets.ticketId)) as SaleTicket[];
}

/** The partner's tickets by their ticketIds, with their show (missing ones are simply absent). */
export async function ticketsForSale(partnerId: string, ticketIds: string[], db: DbOrTx) {
  if (!ticketIds.length) return [];
  return saleTickets(db, and(eq(tickets.partnerId, partnerId), inTextList(tickets.ticketId, ticketIds)));
}

/** A ticket as the access layer judges it: its state and scope, without its show's details. */
export interface SellerTicketRow {
  pk: string;
  ticketId: string;
  status: 'VALID' | 'INVALIDATED';
  admittedAt: string | null;
  showPk: string;
  ticketOptionId: string;
  priceTypeId: string | null;
  orderId: string | null;
  codeShownAt: string | null;
}

/**
 * The partner's tickets by ticketId, lean: the access layer's thousand-ticket path (one statement, one
 * array parameter, rows as the driver gives them — drizzle's row mapping cost more than the query).
 */
export async function sellerTicketRows(partnerId: string, ticketIds: string[], db: DbOrTx) {
  if (!ticketIds.length) return [];
  return (await db.execute(sql`
    select id as "pk", ticket_id as "ticketId", status, admitted_at as "admittedAt", show_pk as "showPk",
      ticket_option_id as "ticketOptionId", price_type_id as "priceTypeId", order_id as "orderId",
      code_shown_at as "codeShownAt"
    from ${tickets} where partner_id = ${partnerId} and ${inTextList(sql`ticket_id`, ticketIds)}`)) as unknown as SellerTicketRow[];
}

/** The partner's tickets by our ids (listing items), with their show. */
export async function ticketsByPk(partnerId: string, pks: string[], db: DbOrTx) {
  if (!pks.length) return [];
  return saleTickets(db, and(eq(tickets.partnerId, partnerId), inArray(tickets.id, pks)));
}

/** A ticket by our id alone (fan pages reach it through an opaque URL Encore handed out). */
export async function saleTicketByPk(pk: string, db: DbOrTx): Promise<SaleTicket | null> {
  const [row] = await saleTickets(db, eq(tickets.id, pk));
  return row ?? null;
}

/** The partner of a ticket by our id (which partner may frame its sell page), or null. */
export async function partnerOfTicket(pk: string, db: DbOrTx): Promise<string | null> {
  const [row] = await db.select({ partnerId: tickets.partnerId }).from(tickets).where(eq(tickets.id, pk));
  return row?.partnerId ?? null;
}

/** The partner's tickets of one order (the order sale flow), by ticketId. */
export async function ticketsOfOrder(partnerId: string, orderId: string, db: DbOrTx) {
  return saleTickets(db, and(eq(tickets.partnerId, partnerId), eq(tickets.orderId, orderId)));
}

/** The partner's tickets of several orders at once (the access layer's orders mode). */
export async function ticketsOfOrders(partnerId: string, orderIds: string[], db: DbOrTx) {
  if (!orderIds.length) return [];
  return saleTickets(db, and(eq(tickets.partnerId, partnerId), inArray(tickets.orderId, orderIds)));
}

/** The partner's tickets whose buyer e-mail is this (a partner without a verification endpoint: its pushed owner). */
export async function ticketsOfBuyer(partnerId: string, email: string, db: DbOrTx) {
  return saleTickets(db, and(eq(tickets.partnerId, partnerId), eq(tickets.buyerEmail, email.trim().toLowerCase())));
}

/**
 * A completed resale or transfer: the tickets now belong to `newOwnerEmail` (the buyer e-mail Encore
 * checks ownership by, the buyer object as the new owner) with a fresh secure-view token. The old token
 * is kept as a previous link that says why (sold or transferred) and never shows the code. With
 * `reissue` (the partner reissues after a change of hands) the ticket awaits its new `ticketAccess`,
 * and the new owner's view shows no code until it arrives. The history records both. Answers each
 * ticket's partner id and previous owner, for the `ticket.updated` webhook. In the caller's transaction.
 */
export async function transferOwnership(
  tx: Tx,
  ticketPks: string[],
  newOwnerEmail: string,
  opts: {
    reason: 'SOLD' | 'TRANSFERRED';
    reissue: boolean;
    /**
     * The guard of a transfer: each ticket must still be held by this e-mail (or, per ticket id (pk), by
     * the holder the caller checked), read under the row lock taken here. A transfer (or sale) that
     * committed first changed the holder: a 409, nothing changes.
     */
    heldBy?: string | ReadonlyMap<string, string | null>;
    /**
     * Refuse tickets whose code a holder has already been shown (a hand-over that is a sale while the
     * partner does not reissue: the seller would keep a valid copy of the buyer's code). Read under the
     * same row lock, so a secure view revealing the code at this moment is either seen here or waits.
     */
    refuseRevealed?: boolean;
  } = { reason: 'SOLD', reissue: false },
): Promise<{ ticketId: string; oldOwnerEmail: string | null }[]> {
  if (!ticketPks.length) return [];
  const email = newOwnerEmail.trim().toLowerCase();
  const before = await tx
    .select({
      pk: tickets.id,
      ticketId: tickets.ticketId,
      oldOwnerEmail: tickets.buyerEmail,
      secureToken: tickets.secureToken,
      codeShownAt: tickets.codeShownAt,
    })
    .from(tickets)
    .where(inArray(tickets.id, ticketPks))
    .orderBy(tickets.id)
    .for('update');
  if (opts.refuseRevealed) {
    const seen = before.filter((b) => b.codeShownAt).map((b) => b.ticketId);
    if (seen.length) throw codeRevealedError(seen);
  }
  if (opts.heldBy !== undefined) {
    const expected = opts.heldBy;
    const holderOf = (pk: string) =>
      (typeof expected === 'string' ? expected : (expected.get(pk) ?? '')).trim().toLowerCase();
    const gone = before.filter((b) => (b.oldOwnerEmail ?? '').toLowerCase() !== holderOf(b.pk)).map((b) => b.ticketId);
    if (gone.length)
      throw new AppError(
        'CONFLICT',
        `${gone.length === 1 ? `Ticket ${gone[0]} is` : `Tickets ${gone.join(', ')} are`} no longer held by this user`,
        {
          details: gone.map((id) => ({ path: 'ticketIds', message: `${id} is no longer held by this user` })),
          fanReason: 'NOT_OWNED',
        },
      );
  }
  await tx
    .insert(ticketPreviousLinks)
    .values(before.map((b) => ({ token: b.secureToken, ticketPk: b.pk, reason: opts.reason })))
    .onConflictDoNothing();
  await tx
    .update(tickets)
    .set({
      buyerEmail: email,
      buyer: { email },
      secureToken: sql`replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')`,
      // With a reissue the code the old holder saw dies: the new holder has seen nothing yet. Without one
      // the same code passes on, and so does the mark that someone has seen it (a P2P transfer after the
      // reveal must not make the ticket resellable: the giver still has the code).
      ...(opts.reissue ? { reissueRequestedAt: sql`now()`, reissuedAt: null, codeShownAt: null } : {}),
      updatedAt: sql`now()`,
    })
    .where(inArray(tickets.id, ticketPks));
  await recordTicketEvents(tx, ticketPks, 'transferred');
  if (opts.reissue) await recordTicketEvents(tx, ticketPks, 'reissue_requested');
  return before.map((b) => ({ ticketId: b.ticketId, oldOwnerEmail: b.oldOwnerEmail }));
}

/** 409 naming the tickets whose code a holder has seen, while the partner does not reissue after a resale. */
export function codeRevealedError(ticketIds: string[]): AppError {
  const one = ticketIds.length === 1;
  return new AppError(
    'CONFLICT',
    `${one ? `Ticket ${ticketIds[0]}` : `Tickets ${ticketIds.join(', ')}`} cannot be resold: ${one ? 'its' : 'their'} code was already shown to ${one ? 'its' : 'their'} holder and the partner does not issue a new code after a resale`,
    {
      details: ticketIds.map((id) => ({
        path: 'ticketIds',
        message: `${id}: its code was already shown to its holder`,
      })),
      fanReason: 'CODE_REVEALED',
    },
  );
}

/** A ticket as a change of hands re-checks it under its row lock. */
export interface LockedTicket {
  pk: string;
  ticketId: string;
  status: 'VALID' | 'INVALIDATED';
  admittedAt: Date | null;
  buyerEmail: string | null;
  secureToken: string;
  codeShownAt: Date | null;
}

/**
 * Locks these tickets FOR UPDATE in id order (the order `transferOwnership` and admission take them, so
 * two of these never wait on each other crosswise) and answers their state as committed now: what a
 * listing, a transfer or a reveal re-checks inside its transaction.
 */
export async function lockTickets(tx: Tx, ticketPks: string[]): Promise<LockedTicket[]> {
  if (!ticketPks.length) return [];
  return (await tx
    .select({
      pk: tickets.id,
      ticketId: tickets.ticketId,
      status: tickets.status,
      admittedAt: tickets.admittedAt,
      buyerEmail: tickets.buyerEmail,
      secureToken: tickets.secureToken,
      codeShownAt: tickets.codeShownAt,
    })
    .from(tickets)
    .where(inArray(tickets.id, [...new Set(ticketPks)]))
    .orderBy(tickets.id)
    .for('update')) as LockedTicket[];
}

/**
 * Records that the ticket's current holder has been shown its code: only the first time (a later view
 * keeps the first moment). In the caller's transaction, under `lockTickets`.
 */
export async function markCodeShown(tx: Tx, ticketPk: string): Promise<void> {
  await tx
    .update(tickets)
    .set({ codeShownAt: sql`now()` })
    .where(and(eq(tickets.id, ticketPk), isNull(tickets.codeShownAt)));
}
