/**
 * The marketplace: listings, buy intentions, market terms (fees, payout delay). Owns the tables of
 * db/schema/marketplace.ts; depends on tickets, the catalogue and partners; subscribes (server/wiring.ts)
 * to show cancellations and ticket invalidations to end listings.
 */
export * from './fees';
export * from './framing';
export * from './intentions';
export * from './channel-listings';
export * from './jobs';
export * from './listings';
export * from './contracts';
export * from './examples';
export * from './schemas';
export * from './urls';
export * from './pages';
export * from './sell';
export * from './purchase';
export * from './transfer';
export * from './admin';
export * from './payouts';
export * from './buyer-pages';
export * from './seller-states';
export * from './secure-view';
export * from './promises';
