/**
 * Audit: the append-only record of every staff action and every change to a partner's configuration
 * (who, when, what, before → after, secrets redacted), written in the transaction of the change. Owns
 * the table of db/schema/audit.ts.
 */
export * from './schemas';
export * from './audit-log';
