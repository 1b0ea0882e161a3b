import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { partners } from './partners';

/** Small process-independent settings, e.g. the generated session secret shared by all instances. */
export const appSettings = pgTable('app_settings', {
  key: text().primaryKey(),
  value: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Sliding-window request logs shared by every app instance (server/lib/rate-limit.ts): per key (a limit's
 * name and its subject: a fan's or staff member's e-mail, a client address, a partner), the
 * epoch-millisecond times (database clock) of the calls accepted in the current window. `expires_at`: when
 * the newest of them leaves its window, after which the row holds nothing; `rate-limit.sweepExpired` deletes it.
 */
export const rateLimitWindows = pgTable('rate_limit_windows', {
  key: text().primaryKey(),
  hits: bigint({ mode: 'number' })
    .array()
    .notNull()
    .default(sql`'{}'`),
  expiresAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * `Idempotency-Key` answers of mutating `/v1` calls (server/http/idempotency.ts), one row per key and
 * caller (`scope`: the partner, or the partner's channel). Claimed `in_progress` before the call runs,
 * `done` with the answer once it has; swept 24 hours after `created_at`.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text().notNull(),
    key: text().notNull(),
    partnerId: text()
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    /** sha256 of method, path, query and canonical body: the same key with another request is refused. */
    fingerprint: text().notNull(),
    method: text().notNull(),
    path: text().notNull(),
    state: text({ enum: ['in_progress', 'done'] })
      .notNull()
      .default('in_progress'),
    /** Random per claim, so a claim taken over after its lease ran out cannot be completed by its old owner. */
    claim: text().notNull(),
    claimedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    responseStatus: integer(),
    /** The answer's exact bytes (text, not jsonb, so a replay is byte for byte the first answer). */
    responseBody: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
    /**
     * When a transaction of the call holding the claim committed (set in that transaction): a claim left
     * `in_progress` with this set ran its effect and lost its answer, so only a route that is safe to repeat
     * runs again for it (server/http/idempotency.ts).
     */
    effectAt: timestamp({ withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index().on(t.createdAt), index().on(t.partnerId)],
);
