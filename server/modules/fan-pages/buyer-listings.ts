import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { buyIntentions, listingItems, listings } from '@/db/schema/marketplace';
import type { EventPageInfo } from '@/server/modules/catalog';
import { buyerFeeMinor, listingStatusNow, marketTerms } from '@/server/modules/marketplace';

/*
 * A show's listings as a buyer sees them (the rows of the buy page, checkout and the payment order): one
 * statement for the listings with their seats, fees added from the market terms.
 */

export interface SeatView {
  section?: string;
  row?: string;
  seat?: string;
}

function seatOf(seating: Record<string, unknown> | null): SeatView {
  const s = seating ?? {};
  const str = (v: unknown) => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : undefined);
  return { section: str(s.section), row: str(s.row), seat: str(s.seat) };
}

export type ShowInfo = EventPageInfo['shows'][number];

/** Listings of shows as a buyer sees them: names, seats and every fee per ticket and in total (minor units). */
export async function buyerListings(partnerId: string, where: ReturnType<typeof and>, db: Db) {
  const rows = await db
    .select({
      id: listings.id,
      type: listings.type,
      // Its status now: an expired hold reads as on sale again (holds.ts); the read writes nothing.
      status: listingStatusNow(),
      showPk: listings.showPk,
      currency: listings.currency,
      priceMinor: listings.priceMinor,
      ticketCount: listings.ticketCount,
      ticketOptionId: listings.ticketOptionId,
      priceTypeId: listings.priceTypeId,
      seats: sql<{ ticketPk?: string; seating: Record<string, unknown> | null }[]>`coalesce((
        select json_agg(json_build_object('ticketPk', i.ticket_pk, 'seating', i.seating) order by i.ticket_id)
        from ${listingItems} i where i.listing_id = "listings"."id"), "listings"."channel_seats"::json)`,
      channelListingId: listings.channelListingId,
      // When the hold on a RESERVED listing ends (its buy intention's expiry, ms); null for any other.
      holdEndsMs: sql<number | null>`(select (extract(epoch from ${buyIntentions.expiresAt}) * 1000)::float8
        from ${buyIntentions} where ${buyIntentions.id} = "listings"."reserved_by" and "listings"."status" = 'RESERVED')`,
    })
    .from(listings)
    .where(and(eq(listings.partnerId, partnerId), where))
    .orderBy(asc(listings.priceMinor), asc(listings.id));
  const terms = await marketTerms(partnerId, db);
  return rows.map((r) => {
    const feeMinor = buyerFeeMinor(terms, r.priceMinor, r.currency);
    return {
      id: r.id,
      type: r.type,
      status: r.status,
      showPk: r.showPk,
      ticketOptionId: r.ticketOptionId,
      priceTypeId: r.priceTypeId,
      ticketCount: r.ticketCount,
      currency: r.currency,
      priceMinor: r.priceMinor,
      feeMinor,
      perTicketMinor: r.priceMinor + feeMinor,
      subtotalMinor: r.priceMinor * r.ticketCount,
      feesMinor: feeMinor * r.ticketCount,
      totalMinor: (r.priceMinor + feeMinor) * r.ticketCount,
      ticketPks: (r.seats ?? []).flatMap((s) => (s.ticketPk ? [s.ticketPk] : [])),
      seats: (r.seats ?? []).map((s) => seatOf(s.seating)),
      /** An external platform's listing (Channels API): its tickets are handed over after the purchase. */
      fromChannel: r.channelListingId !== null,
      channelListingId: r.channelListingId,
      /** A listing held now: when its hold ends (ISO 8601); null when it is not held. */
      holdEndsAt: r.status === 'RESERVED' && r.holdEndsMs !== null ? new Date(r.holdEndsMs).toISOString() : null,
    };
  });
}

export type BuyerListing = Awaited<ReturnType<typeof buyerListings>>[number] & {
  optionTitle: string;
  priceTypeTitle: string | null;
  /** Face value per ticket in the listing's currency (the pair's price, else the option's); null when unknown. */
  faceMinor: number | null;
};

/** Face value of an option + price type of the show in `currency` (catalog faceValueMinor, from the page's read). */
function faceOf(show: ShowInfo | undefined, optionId: string, priceTypeId: string | null, currency: string) {
  const pair = priceTypeId
    ? show?.pairPrices.find((p) => p.ticketOptionId === optionId && p.priceTypeId === priceTypeId)
    : undefined;
  const option = show?.ticketOptions.find((o) => o.id === optionId);
  const face = pair ?? (option?.priceMinor !== null && option?.priceMinor !== undefined ? option : undefined);
  return face && face.currency === currency && face.priceMinor !== null ? Number(face.priceMinor) : null;
}

export function named(show: ShowInfo | undefined, l: Awaited<ReturnType<typeof buyerListings>>[number]): BuyerListing {
  return {
    ...l,
    optionTitle: show?.ticketOptions.find((o) => o.id === l.ticketOptionId)?.title ?? l.ticketOptionId,
    priceTypeTitle: l.priceTypeId
      ? (show?.priceTypes.find((p) => p.id === l.priceTypeId)?.title ?? l.priceTypeId)
      : null,
    faceMinor: faceOf(show, l.ticketOptionId, l.priceTypeId, l.currency),
  };
}
