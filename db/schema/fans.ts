import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { fanLocale, partnerRef } from './columns';

/**
 * One-time sign-in tokens a partner asks for (`GET /v1/auth/oneTimeToken`) and appends to an Encore URL.
 * Only the SHA-256 hash of the token is stored, so a database read never yields a usable token. A token
 * is bound to one partner and one fan e-mail, expires, and is spent by setting `used_at` once.
 */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    tokenHash: text().primaryKey(), // sha-256 hex of ott_…
    partnerId: partnerRef(),
    email: text().notNull(), // stored lower-cased
    method: text({ enum: ['email'] })
      .notNull()
      .default('email'),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('one_time_tokens_expires_idx').on(t.expiresAt)],
);

/**
 * Fan sessions: opened by redeeming a one-time token, bound to one partner (a session of partner A never
 * opens partner B's pages) and never mixed with staff sessions (another cookie, another table). The
 * cookie carries a random value; only its SHA-256 hash is stored. Ending a session sets `revoked_at`.
 */
export const fanSessions = pgTable(
  'fan_sessions',
  {
    id: text().primaryKey(), // fss_…
    tokenHash: text().notNull(),
    partnerId: partnerRef(),
    email: text().notNull(), // stored lower-cased
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp({ withTimezone: true }),
    /** The language of the page the fan signed in from. */
    locale: fanLocale(),
  },
  (t) => [
    uniqueIndex('fan_sessions_token_idx').on(t.tokenHash),
    index('fan_sessions_expires_idx').on(t.expiresAt),
    index('fan_sessions_partner_email_idx').on(t.partnerId, t.email),
  ],
);
