import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Tx } from '@/db';
import { listingItems, listings } from '@/db/schema/marketplace';
import type { TicketChangeOfHands } from '@/server/modules/tickets';
import { cancelListings } from '../intentions';
import { mailListingsCancelled } from '../mails';

/**
 * Tickets given to another holder by the partner (the tickets module's event: a PUT with another buyer, in
 * its transaction): the open fan listings of them by anyone but the new holder end (CANCELLED, a hold on
 * them cancelled: a payment that still arrives is refunded as not available), and their sellers are told
 * the ticket is no longer theirs. A channel's listings are the channel's business and stay.
 */
export async function endListingsOfTicketsThatChangedHands(tx: Tx, changes: TicketChangeOfHands[]): Promise<void> {
  if (!changes.length) return;
  const holderOf = new Map(changes.map((c) => [c.ticketPk, c.buyerEmail]));
  const open = await tx
    .selectDistinct({ id: listings.id, ticketPk: listingItems.ticketPk, seller: listings.sellerEmail })
    .from(listingItems)
    .innerJoin(listings, eq(listings.id, listingItems.listingId))
    .where(
      and(
        inArray(listingItems.ticketPk, [...holderOf.keys()]),
        eq(listingItems.open, true),
        isNull(listings.channelListingId),
      ),
    );
  const ended = [
    ...new Set(open.filter((l) => l.seller.trim().toLowerCase() !== holderOf.get(l.ticketPk)).map((l) => l.id)),
  ];
  if (!ended.length) return;
  await cancelListings(tx, ended);
  await mailListingsCancelled(tx, ended, 'ownershipLost');
}
