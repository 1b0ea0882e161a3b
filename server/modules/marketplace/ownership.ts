import type { Db, DbOrTx } from '@/db';
import { AppError } from '@/server/lib/errors';
import { getIntegration, PartnerCallError, type VerifiedTicket, verifyTickets } from '@/server/modules/partners';
import {
  type SaleTicket,
  storeVouchedTickets,
  type TicketCreate,
  ticketsForSale,
  ticketsOfBuyer,
} from '@/server/modules/tickets';

/**
 * Does `email` own these tickets now? Asked live of the partner's verification endpoint at every step
 * the spec names (entering the flow, before listing, before confirming a sale, before completing a
 * purchase), never from a cache. A partner without a verification endpoint is judged by the tickets it
 * pushed: the ticket's buyer e-mail is its owner. Answers the ticketIds the e-mail does not own.
 *
 * Called inside a transaction that holds locks (the paying one), it must be given that transaction: a
 * second connection taken from the pool while the locks are held is a deadlock once every connection
 * is held by a caller waiting on those locks (ten confirmations of one payment at once hung for good).
 */
export async function notOwnedBy(partnerId: string, email: string, list: SaleTicket[], db: DbOrTx): Promise<string[]> {
  const owner = email.trim().toLowerCase();
  const integration = await getIntegration(partnerId, db);
  if (!integration.verificationUrl) {
    return list.filter((t) => t.buyerEmail !== owner).map((t) => t.ticketId);
  }
  const verified = await verifyTickets(partnerId, owner, db);
  const owned = new Set(verified.tickets.map((t) => `${t.externalReferenceEventId}|${t.ticketId}`));
  return list.filter((t) => !owned.has(`${t.eventRef}|${t.ticketId}`)).map((t) => t.ticketId);
}

/** 403 naming the tickets the seller does not own (per the partner, asked just now). */
export function notOwnedError(ticketIds: string[]): AppError {
  return new AppError(
    'FORBIDDEN',
    `The partner does not report ${ticketIds.length === 1 ? `ticket ${ticketIds[0]}` : `tickets ${ticketIds.join(', ')}`} as owned by this user`,
    {
      details: ticketIds.map((id) => ({ path: 'ticketIds', message: `${id} is not owned by this user` })),
      fanReason: 'NOT_OWNED',
    },
  );
}

/**
 * A ticket the partner reports for the fan but never sent to Encore, as a ticket to store (the
 * access layer's `sync` flow). Its access code is unknown until the partner sends the ticket itself
 * (`PUT /v1/tickets/{ticketId}`), so it is stored as `API` (fetched from the partner) with its id.
 */
function syncedTicket(t: VerifiedTicket, owner: string): TicketCreate {
  return {
    externalReferenceEventId: t.externalReferenceEventId,
    showId: t.showId,
    ticketId: t.ticketId,
    ticketOptionId: t.ticketOptionId,
    buyer: owner,
    ticketAccess: { type: 'API', locator: t.ticketId, status: 'LOCKED' },
    price: t.price,
    ...(t.tags.length ? { tags: t.tags } : {}),
  } as TicketCreate;
}

/**
 * Every ticket of this partner `email` owns now: the partner's verification answer (PULL, asked live),
 * or, for a partner without a verification endpoint, the pushed tickets with this buyer e-mail. With
 * `sync`, tickets the partner reports but never sent are stored first (the access layer's `sync=1`).
 */
export async function ownedTickets(
  partnerId: string,
  email: string,
  // The handle, not a transaction: the partner is asked live, and synced tickets commit on their own.
  db: Db,
  opts: { sync?: boolean } = {},
): Promise<SaleTicket[]> {
  const owner = email.trim().toLowerCase();
  const integration = await getIntegration(partnerId, db);
  if (!integration.verificationUrl) return ticketsOfBuyer(partnerId, owner, db);
  const verified = await verifyTickets(partnerId, owner, db);
  const owned = new Set(verified.tickets.map((t) => `${t.externalReferenceEventId}|${t.ticketId}`));
  const ids = verified.tickets.map((t) => t.ticketId);
  let known = await ticketsForSale(partnerId, ids, db);
  if (opts.sync) {
    const stored = new Set(known.map((t) => `${t.eventRef}|${t.ticketId}`));
    const missing = verified.tickets.filter((t) => !stored.has(`${t.externalReferenceEventId}|${t.ticketId}`));
    if (missing.length) {
      await storeVouchedTickets(
        partnerId,
        missing.map((t) => syncedTicket(t, owner)),
        db,
      );
      known = await ticketsForSale(partnerId, ids, db);
    }
  }
  return known.filter((t) => owned.has(`${t.eventRef}|${t.ticketId}`));
}

/** What the selling entrypoint's sync URL names: one ticket, or an order (tag `order:<id>`). */
export type SyncTarget = { ticketId: string } | { orderId: string };

/**
 * The sync URL's outcome for the signed-in fan: go on to sell (the ticket, or the order's first ticket),
 * or why not: the partner does not list it for this fan; it lists it but its show or option is not on
 * Encore (nothing to sell it against); the partner could not be reached; the partner has no
 * verification endpoint (nothing to ask: the page shows the fan's pushed tickets, as before).
 */
export type SyncOutcome =
  | { kind: 'SELL'; ticketPk: string; order: boolean }
  | { kind: 'NOT_LISTED' }
  | { kind: 'NOT_STORED' }
  | { kind: 'UNAVAILABLE' }
  | { kind: 'NO_ENDPOINT' };

const ofTarget = (target: SyncTarget) => (t: VerifiedTicket) =>
  'ticketId' in target ? t.ticketId === target.ticketId : t.tags.includes(`order:${target.orderId}`);

/**
 * Sync on demand (spec: "ticket ownership is synchronised on demand, only when a user wants to sell"):
 * asks the partner's verification endpoint (live) for the fan's tickets, stores those of `target` that
 * Encore was never sent, the fan as their buyer, and answers where to go. Only what the partner vouches
 * for this fan is stored, under this partner; a stored ticket is never overwritten (insert-only on the
 * unique (partner, ticketId) key, so two tabs at once store one row). The sell page then asks the
 * partner again (it never relies on this answer).
 */
export async function syncForSale(partnerId: string, email: string, target: SyncTarget, db: Db): Promise<SyncOutcome> {
  const owner = email.trim().toLowerCase();
  const integration = await getIntegration(partnerId, db);
  if (!integration.verificationUrl) return { kind: 'NO_ENDPOINT' };
  let vouched: VerifiedTicket[];
  try {
    vouched = (await verifyTickets(partnerId, owner, db)).tickets.filter(ofTarget(target));
  } catch (err) {
    if (err instanceof PartnerCallError) return { kind: 'UNAVAILABLE' };
    throw err;
  }
  if (!vouched.length) return { kind: 'NOT_LISTED' };
  const ids = vouched.map((t) => t.ticketId);
  const stored = new Set((await ticketsForSale(partnerId, ids, db)).map((t) => t.ticketId));
  await storeVouchedTickets(
    partnerId,
    vouched.filter((t) => !stored.has(t.ticketId)).map((t) => syncedTicket(t, owner)),
    db,
  );
  // A ticket id stored under another event than the partner names now is not the ticket vouched for.
  const want = new Set(vouched.map((t) => `${t.externalReferenceEventId}|${t.ticketId}`));
  const rows = (await ticketsForSale(partnerId, ids, db)).filter((t) => want.has(`${t.eventRef}|${t.ticketId}`));
  if (!rows.length) return { kind: 'NOT_STORED' };
  return { kind: 'SELL', ticketPk: rows[0].pk, order: 'orderId' in target };
}
