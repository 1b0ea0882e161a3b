/**
 * The catalogue: events, shows, ticket options, price types, combinations and resale rules (PUSH API,
 * the partner's feed PULL, the staff browser). Owns the tables of db/schema/catalog.ts; other modules
 * read them only through lookups.ts (`catalogueFor`, `showDirectory`, `showPksOfEvents`) and learn of
 * cancellations and resale turned off through events.ts (`onShowsCancelled`, `onResaleTurnedOff`).
 */
export * from './browse';
export * from './contracts';
export * from './events';
export * from './examples';
export * from './feed';
export * from './feed-jobs';
export * from './feed-schemas';
export * from './lookups';
export * from './rules';
export * from './rules-schemas';
export * from './schemas';
export * from './event-api';
export * from './rules-admin';
export * from './wipe';
