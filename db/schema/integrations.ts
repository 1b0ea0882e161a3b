import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { partners } from './partners';

/**
 * How Encore calls a partner's own servers: the ticket verification endpoint (PULL ownership checks),
 * the public event feed, and the auth header both calls carry. Set by staff on the partner page.
 */
export const partnerIntegrations = pgTable('partner_integrations', {
  partnerId: text()
    .primaryKey()
    .references(() => partners.id, { onDelete: 'cascade' }),
  verificationUrl: text(),
  /** Partner field name → our field name, for verification answers whose names differ (spec: "may differ"). */
  verificationFieldMap: jsonb().$type<Record<string, string>>().notNull().default({}),
  feedUrl: text(),
  feedIntervalMinutes: integer().notNull().default(15),
  authHeaderName: text(),
  authHeaderValue: text(),
  feedLastRunAt: timestamp({ withTimezone: true }),
  feedLastError: text(),
  feedNextRunAt: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
