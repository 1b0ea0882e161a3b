import type { BuyerListing } from './buyer-listings';

/*
 * The buy page's rows. A channel's listing split ticket by ticket is mirrored as one market listing per
 * ticket (channel-listings.ts): same seller, option, price type and price. The fan sees it as one offer
 * and picks how many of its tickets to buy; checkout then takes that many of its listings
 * (`/checkout?listings=a,b`), each held and sold as any listing is. Every other listing is sold whole.
 */

/** Most tickets one offer's picker proposes (checkout and a buy intention take up to 50 listings). */
const MAX_PICK = 10;

/** One row of the buy page: a listing, or the tickets of a split channel listing on sale now (`ids`, one each). */
export type MarketOffer = BuyerListing & {
  /** The listing ids buyable together, one ticket each for a split listing; `[id]` for one sold whole. */
  ids: string[];
  /** A split listing: the fan picks how many of its tickets (1…ids.length, at most MAX_PICK). */
  split: boolean;
};

/** The listings as offers, a split channel listing's tickets gathered in one (in the listings' order). */
export function offersOf(listed: BuyerListing[]): MarketOffer[] {
  const out: MarketOffer[] = [];
  const bySplit = new Map<string, MarketOffer>();
  for (const l of listed) {
    const key = l.channelListingId && l.type === 'SINGLE' && l.ticketCount === 1 ? l.channelListingId : null;
    const gathered = key ? bySplit.get(key) : undefined;
    if (gathered && gathered.priceMinor === l.priceMinor) {
      gathered.ids.push(l.id);
      gathered.seats = [...gathered.seats, ...l.seats];
      gathered.split = true;
      continue;
    }
    const offer: MarketOffer = { ...l, ids: [l.id], split: false };
    if (key) bySplit.set(key, offer);
    out.push(offer);
  }
  return out;
}

/** How many tickets an offer sells at once: its count when sold whole, else any up to its tickets on sale. */
export function quantitiesOf(o: MarketOffer): number[] {
  if (!o.split) return [o.ticketCount];
  return Array.from({ length: Math.min(o.ids.length, MAX_PICK) }, (_, i) => i + 1);
}
