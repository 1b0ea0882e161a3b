import { sql } from 'drizzle-orm';
import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Small process-independent settings, e.g. the generated session secret shared by all instances. */
export const appSettings = pgTable('app_settings', {
  key: text().primaryKey(),
  value: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Sliding-window request logs shared by every app instance (server/http/rate-limit.ts): per key, the
 * epoch-millisecond times (database clock) of the calls accepted in the current window.
 */
export const rateLimitWindows = pgTable('rate_limit_windows', {
  key: text().primaryKey(),
  hits: bigint({ mode: 'number' })
    .array()
    .notNull()
    .default(sql`'{}'`),
});
