/**
 * The marketplace: listings, buy intentions, market terms (fees, payout delay). Owns the tables of
 * db/schema/marketplace.ts; depends on tickets, the catalogue and partners. Publishes events.ts (channel
 * listings sold); reacts (reactions/<event>.ts, wired in server/wiring.ts) to show cancellations, ticket
 * invalidations, payments, protection or resale turned off and disabled channels.
 */
export * from './fees';
export * from './fan-brand';
export * from './framing';
export * from './intentions';
export * from './channel-listings';
export * from './events';
export * from './reactions/channel-disabled';
export * from './reactions/payment-attempt';
export * from './reactions/payment-succeeded';
export * from './reactions/protection-turned-off';
export * from './reactions/resale-turned-off';
export * from './reactions/shows-cancelled';
export * from './reactions/tickets-changed-hands';
export * from './reactions/tickets-invalidated';
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
export * from './ticket-history';
export * from './payouts';
export * from './buyer-pages';
export * from './payment-order';
export { seatText } from './payment-lines';
export { type MarketOffer, quantitiesOf } from './offers';
export { BUY_PAGE_HTML, BUY_PAGE_LAYER_MS, BUY_PAGE_OFFERS_MS } from './offers-cache';
export * from './seller-states';
export * from './secure-view';
export * from './promises';
export * from './gauges';
export * from './wipe';
