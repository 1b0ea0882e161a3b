import { type DbOrTx, getDb } from '@/db';
import { AppError } from '@/server/lib/errors';
import { getIntegration, type VerifiedTicket, verifyTickets } from '@/server/modules/partners';
import {
  type SaleTicket,
  syncTickets,
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
  opts: { sync?: boolean } = {},
): Promise<SaleTicket[]> {
  const owner = email.trim().toLowerCase();
  const integration = await getIntegration(partnerId, getDb());
  if (!integration.verificationUrl) return ticketsOfBuyer(partnerId, owner, getDb());
  const verified = await verifyTickets(partnerId, owner, getDb());
  const owned = new Set(verified.tickets.map((t) => `${t.externalReferenceEventId}|${t.ticketId}`));
  const ids = verified.tickets.map((t) => t.ticketId);
  let known = await ticketsForSale(partnerId, ids, getDb());
  if (opts.sync) {
    const stored = new Set(known.map((t) => `${t.eventRef}|${t.ticketId}`));
    const missing = verified.tickets.filter((t) => !stored.has(`${t.externalReferenceEventId}|${t.ticketId}`));
    if (missing.length) {
      await syncTickets(
        partnerId,
        missing.map((t) => syncedTicket(t, owner)),
      );
      known = await ticketsForSale(partnerId, ids, getDb());
    }
  }
  return known.filter((t) => owned.has(`${t.eventRef}|${t.ticketId}`));
}
