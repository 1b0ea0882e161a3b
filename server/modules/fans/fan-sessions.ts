import { and, desc, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { fanSessions, oneTimeTokens } from '@/db/schema/fans';
import { env } from '@/server/env';
import { deferredTouch } from '@/server/lib/deferred-touch';
import type { Locale } from '@/server/lib/i18n';
import { newId, sha256Hex } from '@/server/lib/ids';
import { normalisedEmail, secret } from './one-time-tokens';

/** A signed-in fan: always bound to the one partner whose token opened the session. */
export interface FanSession {
  id: string;
  partnerId: string;
  email: string;
  createdAt: Date;
  expiresAt: Date;
}

const SESSION_PATTERN = /^fs_[A-Za-z0-9_-]{43}$/;

/**
 * Opens a fan session for `partnerId` and returns the cookie value (only its hash is stored). `locale`:
 * the language of the page the fan signed in from, kept for their mails (see `lastFanLocale`).
 */
export async function startFanSession(
  partnerId: string,
  email: string,
  db: DbOrTx,
  locale: Locale | null = null,
): Promise<string> {
  const value = secret('fs_');
  await db.insert(fanSessions).values({
    id: newId('fss'),
    tokenHash: sha256Hex(value),
    partnerId,
    email: normalisedEmail(email),
    expiresAt: sql`now() + ${env().FAN_SESSION_TTL_SECONDS}::int * interval '1 second'`,
    locale,
  });
  return value;
}

/**
 * The language of the fan's latest session with this partner that recorded one, or null: what a mail
 * about something made without a fan page (the partner API) falls back to before DEFAULT_LANG.
 */
export async function lastFanLocale(partnerId: string, email: string, db: DbOrTx): Promise<Locale | null> {
  const [row] = await db
    .select({ locale: fanSessions.locale })
    .from(fanSessions)
    .where(
      and(
        eq(fanSessions.partnerId, partnerId),
        eq(fanSessions.email, normalisedEmail(email)),
        isNotNull(fanSessions.locale),
      ),
    )
    .orderBy(desc(fanSessions.createdAt))
    .limit(1);
  return row?.locale ?? null;
}

/** A session's last page view, written within 2 s off the request path (server/lib/deferred-touch.ts). */
const sessionSeen = deferredTouch(
  'fan session last seen',
  2_000,
  (sql, ids) => sql`
  update fan_sessions set last_seen_at = now()
  where id = any(${ids}) and last_seen_at < now() - interval '60 seconds'`,
);

const sessionColumns = {
  id: fanSessions.id,
  partnerId: fanSessions.partnerId,
  email: fanSessions.email,
  createdAt: fanSessions.createdAt,
  expiresAt: fanSessions.expiresAt,
  lastSeenAt: fanSessions.lastSeenAt,
};

async function liveSession(cookieValue: string | null | undefined, db: DbOrTx, partnerId?: string) {
  if (typeof cookieValue !== 'string' || !SESSION_PATTERN.test(cookieValue)) return null;
  const [row] = await db
    .select(sessionColumns)
    .from(fanSessions)
    .where(
      and(
        eq(fanSessions.tokenHash, sha256Hex(cookieValue)),
        partnerId === undefined ? undefined : eq(fanSessions.partnerId, partnerId),
        isNull(fanSessions.revokedAt),
        gt(fanSessions.expiresAt, sql`now()`),
      ),
    );
  if (!row) return null;
  // Noted, not written here: a page view never writes; at most once a minute per session.
  if (Date.now() - row.lastSeenAt.getTime() > 60_000) sessionSeen.note(row.id);
  const { lastSeenAt: _lastSeenAt, ...session } = row;
  return session satisfies FanSession;
}

/**
 * The fan signed in by this cookie on `partnerId`'s pages, or null: a session of partner A never opens
 * partner B's pages, and an ended or expired session opens none.
 */
export async function fanSessionFrom(
  cookieValue: string | null | undefined,
  partnerId: string,
  db: DbOrTx,
): Promise<FanSession | null> {
  return liveSession(cookieValue, db, partnerId);
}

/** The fan signed in by this cookie, whichever partner it belongs to (for pages not tied to a partner). */
export async function currentFanSession(
  cookieValue: string | null | undefined,
  db: DbOrTx,
): Promise<FanSession | null> {
  return liveSession(cookieValue, db);
}

/** Ends the session this cookie carries (sign-out); true when one was open. */
export async function endFanSession(cookieValue: string | null | undefined, db: DbOrTx): Promise<boolean> {
  if (typeof cookieValue !== 'string' || !SESSION_PATTERN.test(cookieValue)) return false;
  const rows = await db
    .update(fanSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(fanSessions.tokenHash, sha256Hex(cookieValue)), isNull(fanSessions.revokedAt)))
    .returning({ id: fanSessions.id });
  return rows.length > 0;
}

/** Ends every open session of one fan with one partner (e.g. staff acting on a report). */
export async function endFanSessionsOf(partnerId: string, email: string, db: DbOrTx): Promise<number> {
  const rows = await db
    .update(fanSessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(fanSessions.partnerId, partnerId),
        eq(fanSessions.email, email.trim().toLowerCase()),
        isNull(fanSessions.revokedAt),
      ),
    )
    .returning({ id: fanSessions.id });
  return rows.length;
}

/** Deletes expired tokens (used or not) and expired or ended sessions; the sweep job runs it. */
export async function sweepExpiredFanAuth(db: DbOrTx): Promise<{ tokens: number; sessions: number }> {
  const tokens = await db
    .delete(oneTimeTokens)
    .where(lt(oneTimeTokens.expiresAt, sql`now()`))
    .returning({ h: oneTimeTokens.tokenHash });
  const sessions = await db
    .delete(fanSessions)
    .where(or(lt(fanSessions.expiresAt, sql`now()`), sql`${fanSessions.revokedAt} is not null`))
    .returning({ id: fanSessions.id });
  return { tokens: tokens.length, sessions: sessions.length };
}

/** Seconds a fan session lasts: the session cookie's max-age. */
export function fanSessionMaxAge(): number {
  return env().FAN_SESSION_TTL_SECONDS;
}
