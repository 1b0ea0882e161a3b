/**
 * The marketplace: listings, buy intentions, market terms (fees, payout delay). Owns the tables of
 * db/schema/marketplace.ts; depends on ten modules: audit, catalog, fans, mail, market-data, partners,
 * payments, protection, tickets and webhooks. Publishes events.ts (channel listings sold, listings
 * changed); reacts (reactions/<event>.ts, wired in server/wiring.ts) to show cancellations, ticket
 * invalidations, tickets that changed hands, payments, protection or resale turned off and disabled channels.
 */
export {
  buyerFeeMinor,
  marketTerms,
  type MarketTerms,
  NO_FEES,
  primaryFeeMinorOf,
  sellerPayoutMinor,
  setMarketTerms,
} from './fees';
export { BUY_INTENTION_PURPOSE, createBuyIntention } from './intentions';
export {
  channelListingSoldCount,
  channelListingState,
  type ChannelMarketSpec,
  channelSeller,
  lockChannelMarketListings,
  putChannelListingsOnSale,
  takeChannelListingsOffSale,
  ticketsInOpenListings,
} from './channel-listings';
export { type ChannelListingSold, onChannelListingsSold, onListingsChanged } from './events';
export { unlistListingsOfChannel } from './reactions/channel-disabled';
export { refuseUnpayableIntention } from './reactions/payment-attempt';
export { completePurchaseOfPayment } from './reactions/payment-succeeded';
export { unlistListingsOfUnprotectedShows } from './reactions/protection-turned-off';
export { unlistListingsOfShowsWithoutResale } from './reactions/resale-turned-off';
export { terminateListingsOfShows } from './reactions/shows-cancelled';
export { endListingsOfTicketsThatChangedHands } from './reactions/tickets-changed-hands';
export { terminateListingsOfTickets } from './reactions/tickets-invalidated';
export { expireIntentionJob, expireIntentionsSweepJob, payDuePayoutsJob, refundPurchaseJob } from './jobs';
export {
  createListing,
  listedTickets,
  listingChecks,
  listingOfTicket,
  type ListingProblem,
  listingSizeAndPriceProblems,
  type PriceRange,
  priceRangeFor,
  relist,
  showRuleProblems,
  ticketStateProblems,
  unlist,
  unlistTicket,
} from './listings';
export {
  buyingFlowUrlRoute,
  buyIntentionRoute,
  checkoutUrlRoute,
  listedTicketsRoute,
  listingByTicketRoute,
  listingDetailsUrlRoute,
  marketplaceRoutes,
  orderSellingFlowUrlRoute,
  removeListingRoute,
  sellingFlowUrlRoute,
} from './contracts';
export { EXAMPLE_SELLER } from './examples';
export { marketTermsInput, transferEmail } from './schemas';
export {
  listForSeller,
  type ListForSellerResult,
  payoutSetupUrl,
  relistAsSeller,
  repriceAsSeller,
  resaleEntryPage,
  sellerListing,
  sellerListingPage,
  sellFlow,
  sellPage,
  type SellReason,
  syncForSale,
  type SyncOutcome,
  type SyncTarget,
  type TicketSellStatus,
  transferAsSeller,
  unlistAsSeller,
} from './sell';
export { deliverChannelSale, refundChannelSale } from './purchase';
export { transferTickets } from './transfer';
export { refundPurchase, refundPurchaseInput } from './admin';
export { channelNamesOfSellers } from './channel-seller';
export { payDuePayouts } from './payouts';
export { seatText } from './payment-lines';
export { secureView, type SecureViewState, secureViewWithoutCode } from './secure-view';
export { buyerPromiseFacts, intentionPromiseFacts, sellerPayoutFacts, sourcesOf, supportFacts } from './promises';
export { activeHolds, duePayoutTotals } from './gauges';
export { wipeMarketplaceTestData } from './wipe';
export { isBuyableNow, listingStatusNow, statusNowIs } from './holds';
export { assertPurchasable, getBuyIntention } from './intentions';
