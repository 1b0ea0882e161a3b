/**
 * Market data: leads (people interested in a show: ticket holders, abandoned carts, virtual queues,
 * wishlists). Owns db/schema/market-data.ts (leads); the fan pages save WISHLIST leads through
 * `upsertLead`; the partner API (issue 14) builds on it.
 */
export * from './leads';
export * from './wishlist';
