/**
 * Partners: the partner itself, its API keys, its integration settings (verification, feed, auth
 * header, feed schedule), its channels (external platforms with their own `sk_ch_` keys) and the
 * partner-side client that calls its servers. Owns the tables of
 * db/schema/partners.ts and db/schema/integrations.ts. The lowest module: it imports no other. Publishes
 * events.ts (`onChannelDisabled`).
 */
export * from './channels';
export * from './client';
export * from './events';
export * from './integration';
export * from './return-origins';
export * from './schemas';
export * from './api-keys';
export * from './key-authentication';
export * from './key-prefixes';
export * from './partners';
export * from './test-twins';
