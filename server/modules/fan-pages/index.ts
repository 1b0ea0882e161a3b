/**
 * Fan pages: the read models of the fans' pages and the access layer's seller states, apart from the
 * marketplace's write model. The buy page and its offers (shared for a third of a second,
 * `offers-cache.ts`, forgotten when listings change: `reactions/listings-changed.ts`), checkout and the
 * payment order, the shared listing page, the seller's ticket states for the sell access layer, each
 * partner's brand and framing origins, and the URLs handed to partners. Read-only (READ_ONLY_MODULES in
 * eslint.config.mjs): it owns no table, reads the marketplace's in SQL and writes none; the marketplace
 * never imports it.
 */
export { buyerCheckout, buyerIntention, buyPage, type MarketSort, sharedBuyPage, showOnSale } from './buyer-pages';
export {
  BUY_PAGE_SIZE,
  type BuyPageModel,
  buyPageModel,
  buyPageVersion,
  buyPageVersionAt,
  buyPageSort,
  PAGE_VERSION_META,
  requestedPage,
  wantedQuantity,
} from './buy-page-model';
export { type MarketOffer, quantitiesOf } from './offers';
export { showSections } from './sections';
export { BUY_PAGE_LAYER_MS } from './offers-cache';
export { listingPage, namedTicketOnSale } from './pages';
export { paymentOrder, type PaymentOrder } from './payment-order';
export {
  cheapestListings,
  explainTicket,
  orderListingStates,
  resaleBuyersAmong,
  type SellerItem,
  type SellerItemState,
  sellerItemStates,
  sellerItemStatesWith,
  type ShowMarketState,
  showMarketStates,
  type SoldTicket,
  soldTicketsOf,
} from './seller-states';
export { type BrandPartner, fanBrandOf } from './fan-brand';
export { framingOriginsOf } from './framing';
export { eventCountryOfPage } from './page-country';
export {
  buyPageHref,
  SEAT_MAP_ID_PREFIX,
  type SeatMapDocument,
  seatMapData,
  sectionLabeler,
  seatMapDocument,
  sectionHref,
} from './seat-map';
export {
  buyingFlowUrl,
  checkoutUrl,
  listingDetailsUrl,
  orderSellingFlowUrl,
  resaleEntryUrl,
  salePublicUrl,
  sellingFlowUrl,
} from './urls';
export { forgetOffersOfChangedListings } from './reactions/listings-changed';
