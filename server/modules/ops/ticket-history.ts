import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { buyIntentions, listingItems, listings } from '@/db/schema/marketplace';
import { fromMinorUnits } from '@/server/lib/money';
import { getTicketDetail, type TicketHistoryEntry, type ticketRef } from '@/server/modules/tickets';
import type { z } from 'zod';
import { channelNamesOfSellers } from '@/server/modules/marketplace';

/**
 * A ticket's history as support reads it. `ticket_events` records only what happened and when ("changed
 * hands"); who bought, at what price, from which listing and in which order are the marketplace's, so
 * they are joined here at read time, from the ticket's own listings (a sale's listing is SOLD in the same
 * transaction that hands the ticket over, so its `soldAt` is the event's time), never stored twice.
 */

/** A person or a channel: a channel seller is named by its channel, never by its marker address. */
interface Party {
  email: string;
  channel: string | null;
}

export type TicketMarketEntry = Omit<TicketHistoryEntry, 'kind'> & {
  kind: TicketHistoryEntry['kind'] | 'listed' | 'unlisted';
  /** `transferred` that was a resale: who bought, the price per ticket, the listing and the order. */
  sale?: {
    buyer: Party;
    price: number;
    currency: string;
    listingId: string;
    /** Our buy intention id (the purchase). */
    intentionId: string;
    /** The partner's order the seller's tickets came from, when the listing names it. */
    orderId: string | null;
  };
  /** `transferred` that was a hand-over without payment: the new holder, when it is known. */
  transferTo?: string | null;
  /** `listed` / `unlisted`: the listing, its seller and asking price. */
  listing?: { id: string; seller: Party; price: number; currency: string; status: string };
  /** `reissue_requested` / `reissued`: the holder the new code is for. */
  holder?: string | null;
};

/** A sold listing's soldAt and the transfer event it caused share one transaction's now(); a little slack. */
const SAME_MOMENT_MS = 5_000;

const money = (minor: number, currency: string) => fromMinorUnits(minor, currency) ?? 0;

type ListingRow = {
  id: string;
  status: string;
  sellerEmail: string;
  priceMinor: number;
  currency: string;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * The recorded entries with each listing's "listed" (and "unlisted") entries among them. Recorded entries
 * keep their recorded order (an admission may carry an earlier entry time); a listing entry goes before
 * the first recorded one after it.
 */
function withListings(
  recorded: TicketMarketEntry[],
  rows: ListingRow[],
  party: (email: string) => Party,
): TicketMarketEntry[] {
  const synthetic: TicketMarketEntry[] = [];
  for (const r of rows) {
    const listing = {
      id: r.id,
      seller: party(r.sellerEmail),
      price: money(r.priceMinor, r.currency),
      currency: r.currency,
      status: r.status,
    };
    synthetic.push({ kind: 'listed', at: r.createdAt, batchId: null, listing });
    if (r.status === 'UNLISTED' || r.status === 'CANCELLED')
      synthetic.push({ kind: 'unlisted', at: r.updatedAt, batchId: null, listing });
  }
  const history = [...recorded];
  for (const s of synthetic.sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const at = history.findIndex((h) => h.at.getTime() > s.at.getTime());
    history.splice(at === -1 ? history.length : at, 0, s);
  }
  return history;
}

/** One ticket (by our id) with its history naming buyers, prices, listings, orders and recipients. */
export async function ticketDetailWithMarket(input: z.input<typeof ticketRef>, db: DbOrTx) {
  const detail = await getTicketDetail(input, db);
  const rows = await db
    .select({
      id: listings.id,
      status: listings.status,
      sellerEmail: listings.sellerEmail,
      priceMinor: listings.priceMinor,
      currency: listings.currency,
      orderId: listings.orderId,
      reservedBy: listings.reservedBy,
      soldAt: listings.soldAt,
      createdAt: listings.createdAt,
      updatedAt: listings.updatedAt,
    })
    .from(listingItems)
    .innerJoin(listings, eq(listings.id, listingItems.listingId))
    .where(and(eq(listingItems.ticketPk, detail.id), eq(listings.partnerId, input.partnerId)))
    .orderBy(asc(listings.createdAt), asc(listings.id));
  // A SOLD listing keeps the purchase that bought it in reservedBy (purchase.ts markSold).
  const intentionIds = rows.filter((r) => r.status === 'SOLD' && r.reservedBy).map((r) => r.reservedBy as string);
  const intentions = intentionIds.length
    ? await db
        .select({ id: buyIntentions.id, buyerEmail: buyIntentions.buyerEmail })
        .from(buyIntentions)
        .where(and(eq(buyIntentions.partnerId, input.partnerId), inArray(buyIntentions.id, intentionIds)))
    : [];
  const channelOf = await channelNamesOfSellers(
    input.partnerId,
    [...rows.map((r) => r.sellerEmail), ...intentions.map((i) => i.buyerEmail)],
    db,
  );
  const party = (email: string): Party => ({ email, channel: channelOf.get(email) ?? null });

  const recorded: TicketMarketEntry[] = detail.history.map((h) => ({ ...h }));
  const transfers = recorded.filter((h) => h.kind === 'transferred');
  const usedSales = new Set<string>();
  let holder: string | null = null;
  for (const h of recorded) {
    if (h.kind === 'transferred') {
      const sold = rows.find(
        (r) =>
          r.status === 'SOLD' &&
          r.soldAt &&
          !usedSales.has(r.id) &&
          Math.abs(r.soldAt.getTime() - h.at.getTime()) <= SAME_MOMENT_MS,
      );
      const intention = sold && intentions.find((i) => i.id === sold.reservedBy);
      if (sold && intention) {
        usedSales.add(sold.id);
        h.sale = {
          buyer: party(intention.buyerEmail),
          price: money(sold.priceMinor, sold.currency),
          currency: sold.currency,
          listingId: sold.id,
          intentionId: intention.id,
          orderId: sold.orderId,
        };
        holder = intention.buyerEmail;
      } else {
        // No record of the recipient is kept; it is whoever listed the ticket next, or, for the last
        // hand-over, the holder now.
        const next = transfers[transfers.indexOf(h) + 1];
        const listedNext = rows.find((r) => r.createdAt >= h.at && (!next || r.createdAt < next.at));
        h.transferTo = listedNext?.sellerEmail ?? (next ? null : detail.buyerEmail);
        holder = h.transferTo;
      }
    } else if (h.kind === 'reissue_requested' || h.kind === 'reissued') {
      h.holder = holder ?? detail.buyerEmail;
    }
  }

  return { ...detail, history: withListings(recorded, rows, party) };
}
