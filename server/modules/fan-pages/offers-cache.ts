import { BUY_PAGE_HTML, BUY_PAGE_LAYER_MS, BUY_PAGE_OFFERS_MS, SEAT_MAP_DOCUMENTS } from '@/server/lib/freshness';
import { shortCache } from '@/server/lib/short-cache';
import type { MarketOffer } from './offers';

/**
 * The buy page's offers of a show (the listing read behind it, fees added), shared for BUY_PAGE_LAYER_MS
 * by every fan loading that show in this process, with one read in flight at a time: in an
 * on-sale rush a thousand fans on one show would otherwise each read the same thousands of listings.
 *
 * Why it is correct, and for how long: an offer that was held, sold, repriced or taken off sale is shown
 * as buyable for at most BUY_PAGE_OFFERS_MS (plus the read's own time) after the change, on another app
 * instance; in this process every write to listings (a hold, a sale, a listing, a reprice, an unlisting,
 * an expired hold released, a channel's listings, the fees) forgets the cache once it is committed (the
 * marketplace's listings-changed event, reactions/listings-changed.ts). Nothing is ever
 * sold from it: Buy leads to the checkout, which reads the listings live, and the hold is the guarded
 * claim (a 409 for a taken listing), so the worst a fan meets is "no longer available" for an offer that
 * was taken less than a second before the page was made — as if the page had been loaded a second earlier.
 */
export { BUY_PAGE_OFFERS_MS, BUY_PAGE_LAYER_MS };

/** An offer as kept here is about half a kilobyte (ids, names, seats, prices): the byte budget's estimate. */
export const OFFER_BYTES = 512;

/** A show's offers on sale, and those held now by a buyer paying for them (shown as held). */
export interface ShowOffers {
  onSale: MarketOffer[];
  held: MarketOffer[];
}

export const buyPageOffers = shortCache<ShowOffers>('buy-page-offers', BUY_PAGE_LAYER_MS, {
  sizeOf: (offers) => (offers.onSale.length + offers.held.length) * OFFER_BYTES,
});

/**
 * The buy page's whole answer (the event, its shows and the chosen show's offers filtered and sorted) by
 * event and filters, shared the same way (`sharedBuyPage`), for BUY_PAGE_LAYER_MS: in a rush the fans of
 * a show ask for a few filter sets, and each answer is made a few times a second instead of once a fan
 * (the event and the show's protection are read, and 2,000 offers filtered and sorted, per answer). An
 * answer is made from offers at most BUY_PAGE_LAYER_MS old and kept BUY_PAGE_LAYER_MS, and a page sent from
 * it is kept BUY_PAGE_LAYER_MS more, so the window above holds. The event's own changes (a show cancelled, resale or protection turned off) show within the same
 * window; the listing writes they cause in this process forget both layers at once.
 */
export const BUY_PAGES = 'buy-pages';

/** Any write to listings (or to the fees shown with them) in this process: the next page reads afresh. */
export function forgetBuyPageOffers(): void {
  buyPageOffers.forget();
  shortCache(BUY_PAGES, BUY_PAGE_LAYER_MS).forget();
  shortCache(BUY_PAGE_HTML, BUY_PAGE_LAYER_MS).forget();
  shortCache(SEAT_MAP_DOCUMENTS, BUY_PAGE_LAYER_MS).forget();
}
