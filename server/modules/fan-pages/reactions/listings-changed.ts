import { forgetBuyPageOffers } from '../offers-cache';

/**
 * The marketplace's listings changed (a hold, a sale, a listing, a reprice, an unlisting, an expired hold
 * released, a channel's listings, the fees), and that change is committed: the buy pages' offers, answers
 * and pages shared in this process are forgotten, so the next fan reads afresh (offers-cache.ts).
 */
export async function forgetOffersOfChangedListings(): Promise<void> {
  forgetBuyPageOffers();
}
