import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '@/db';
import { listingItems } from '@/db/schema/marketplace';
import { cancelListings } from '../intentions';
import { mailListingsCancelled } from '../mails';

/** Tickets invalidated (the tickets module's event: DELETE /v1/tickets/{ticketId}, in its transaction): their open listings end. */
export async function terminateListingsOfTickets(tx: Tx, ticketPks: string[]): Promise<void> {
  const open = await tx
    .selectDistinct({ id: listingItems.listingId })
    .from(listingItems)
    .where(and(inArray(listingItems.ticketPk, ticketPks), eq(listingItems.open, true)));
  await cancelListings(
    tx,
    open.map((l) => l.id),
  );
  await mailListingsCancelled(
    tx,
    open.map((l) => l.id),
    'ticketInvalidated',
  );
}
