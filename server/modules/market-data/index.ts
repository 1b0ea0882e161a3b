/**
 * Market data: leads (people interested in a show: ticket holders, abandoned carts, virtual queues,
 * wishlists). Owns db/schema/market-data.ts (leads). The partner API saves leads one by one or up to
 * 1,000 at a time (lead-api.ts); the fan pages save WISHLIST leads through `upsertLead`.
 */
export * from './leads';
export * from './wishlist';
export * from './lead-schemas';
export * from './lead-api';
export * from './contracts';
export * from './inventory-schemas';
export * from './inventory';
export * from './leads-admin';
export * from './wipe';
