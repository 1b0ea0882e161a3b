/**
 * Channels: the Channels API (keys starting `sk_ch_`, each of one channel of a partner): external
 * platforms push their resale listings, judged by the same rules as fans' listings and sold in the market
 * beside them (the marketplace mirrors them); their sales are told to the channel, fulfilled with the
 * partner's tickets or refunded past their deadline. Owns the tables of db/schema/channels.ts (the
 * channels themselves and their keys belong to the partners module). Reacts (reactions/<event>.ts) to
 * show cancellations and to its listings sold in the market.
 */
export {
  channelsRoutes,
  deleteChannelListingRoute,
  fulfilChannelSaleRoute,
  getChannelListingRoute,
  getChannelSaleRoute,
  listChannelListingsRoute,
  listChannelSalesRoute,
  upsertChannelListingRoute,
  upsertChannelListingsRoute,
} from './contracts';
export {
  channelListingCounts,
  channelOf,
  deleteChannelListing,
  getChannelListing,
  listChannelListings,
  staffChannelListings,
  upsertChannelListing,
  upsertChannelListings,
} from './listings';
export { recordChannelSalesOfPurchase } from './reactions/channel-listings-sold';
export { refundChannelSalesOfShows } from './reactions/shows-cancelled';
export { expireChannelSaleJob, refundUnfulfilledSalesJob } from './jobs';
export { channelPayoutSetup, fulfilChannelSale, getChannelSale, listChannelSales, staffChannelSales } from './sales';
export { channelListingStatus, channelSaleResponse, channelSaleStatus, channelsMeRoute } from './schemas';
export { getChannelSaleExample } from './examples';
export { wipeChannelsTestData } from './wipe';
