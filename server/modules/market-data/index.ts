/**
 * Market data: leads (people interested in a show: ticket holders, abandoned carts, virtual queues,
 * wishlists). Owns db/schema/market-data.ts (leads). The partner API saves leads one by one or up to
 * 1,000 at a time (lead-api.ts); the fan pages save WISHLIST leads through `upsertLead`.
 */
export { claimWishlistNotifications, joinWishlist, notificationLead, unsubscribeNotification } from './wishlist';
export { LEAD_TYPES } from './lead-schemas';
export { saveLead, saveLeads } from './lead-api';
export {
  marketDataRoutes,
  putInventoryDetailsRoute,
  putInventoryRoute,
  saveLeadRoute,
  saveLeadsRoute,
  saveUserLeadRoute,
  saveUserLeadsRoute,
} from './contracts';
export {
  putInventory,
  putInventoryDetails,
  showInventories,
  staffEventInventory,
  staffEventInventoryInput,
} from './inventory';
export { leadCounts, leadEmails, leadsCsv, listLeads, listLeadsInput } from './leads-admin';
export { wipeMarketDataTestData } from './wipe';
