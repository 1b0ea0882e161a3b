import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/db';
import { listingItems } from '@/db/schema/marketplace';
import { saleTicketByPk } from '@/server/modules/tickets';
import { buyerCheckout } from './buyer-pages';

/*
 * What the fan pages read by Encore's ids (opaque, from URLs Encore handed out). Nothing here names the
 * seller: pages show listings, never who sells them. The buyer's pages read through buyer-pages.ts, the
 * seller's through sell.ts.
 */

/**
 * One listing as anyone but its seller sees it (the shared link): the event, the show, the ticket option,
 * the seats and the price with the buyer's fee, as the market and checkout compute them; `available` when
 * it can be bought now. Null for an unknown id.
 */
export async function listingPage(listingId: string, db: Db) {
  const found = await buyerCheckout([listingId], db);
  if (!found) return null;
  const { event, show, listings, available } = found;
  return { partnerId: event.partnerId, event, show, listing: listings[0], available };
}

/** The open listing (on sale or held) a ticket of ours is in, or null. */
export async function openListingOfTicket(ticketPk: string, db: DbOrTx): Promise<string | null> {
  const [row] = await db
    .select({ id: listingItems.listingId })
    .from(listingItems)
    .where(and(eq(listingItems.ticketPk, ticketPk), eq(listingItems.open, true)));
  return row?.id ?? null;
}

/**
 * The ticket a market URL names (`?ticket=`, the public sale URL): null when it is not a ticket of this
 * event, else the open listing it is in now (null when it is not on sale).
 */
export async function namedTicketOnSale(ticketPk: string, eventPk: string, db: Db) {
  const ticket = await saleTicketByPk(ticketPk, db);
  if (!ticket || ticket.eventPk !== eventPk) return null;
  return { listingId: await openListingOfTicket(ticket.pk, db) };
}
