import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { type DbOrTx, getSql } from '@/db';
import { fanSessions, oneTimeTokens } from '@/db/schema/fans';
import { env } from '@/server/env';
import { appSecret } from '@/server/lib/app-secret';
import { badRequest } from '@/server/lib/errors';
import { deferredTouch } from '@/server/lib/deferred-touch';
import type { Locale } from '@/server/lib/i18n';
import { newId, sha256Hex } from '@/server/lib/ids';
import { fanEmail, ONE_TIME_TOKEN_PATTERN, oneTimeTokenMethod, type OneTimeTokenMethod } from './schemas';
import { ONE_TIME_TOKEN_PARAM } from './urls';

/** A signed-in fan: always bound to the one partner whose token opened the session. */
export interface FanSession {
  id: string;
  partnerId: string;
  email: string;
  createdAt: Date;
  expiresAt: Date;
}

const SESSION_PATTERN = /^fs_[A-Za-z0-9_-]{43}$/;

/** 32 random bytes (256 bits), base64url: safe in a URL and a cookie as is. */
function secret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** Tokens issued before they carried a tag (issue 43): redeemed the old way until they expire (a day at most). */
const UNTAGGED_TOKEN_PATTERN = /^ott_[A-Za-z0-9_-]{43}$/;
const TOKEN_RANDOM_END = 'ott_'.length + 43;

/** The key of one-time token tags: generated once per deployment, kept in app_settings. */
export function oneTimeTokenKey(): Promise<string> {
  return appSecret('one_time_token_key');
}

/** 128 bits of HMAC-SHA256 of the token's random part, base64url (22 characters). */
function tagOf(random: string, key: string): string {
  return createHmac('sha256', key).update(random).digest().subarray(0, 16).toString('base64url');
}

function taggedToken(key: string): string {
  const random = randomBytes(32).toString('base64url');
  return `ott_${random}${tagOf(random, key)}`;
}

/**
 * What a token on a URL is, told without reading the token table: `issued` (its tag verifies, so Encore
 * made it: only the table says whether it is still good), `untagged` (the shape of tokens issued before
 * tags: only the table can tell it from a guess) or `guess` (anything else, a forged tag included).
 */
export type OneTimeTokenKind = 'issued' | 'untagged' | 'guess';

export async function oneTimeTokenKind(token: unknown): Promise<OneTimeTokenKind> {
  if (typeof token !== 'string') return 'guess';
  if (UNTAGGED_TOKEN_PATTERN.test(token)) return 'untagged';
  if (!ONE_TIME_TOKEN_PATTERN.test(token)) return 'guess';
  const expected = Buffer.from(tagOf(token.slice(4, TOKEN_RANDOM_END), await oneTimeTokenKey()));
  return timingSafeEqual(Buffer.from(token.slice(TOKEN_RANDOM_END)), expected) ? 'issued' : 'guess';
}

function normalisedEmail(email: string): string {
  const parsed = fanEmail.safeParse(email.trim());
  if (!parsed.success) {
    throw badRequest('user is not a valid e-mail address', [
      { path: 'user', message: parsed.error.issues[0]?.message ?? 'is invalid' },
    ]);
  }
  return parsed.data.toLowerCase();
}

/**
 * A fresh single-use token for the fan `email` of `partnerId`, valid for ONE_TIME_TOKEN_TTL_SECONDS
 * (by the database clock). Only its SHA-256 hash is stored. Every call issues a new token; earlier
 * ones stay valid until used or expired.
 */
export async function issueOneTimeToken(
  partnerId: string,
  email: string,
  method: OneTimeTokenMethod = 'email',
  db: DbOrTx,
): Promise<string> {
  const parsedMethod = oneTimeTokenMethod.safeParse(method);
  if (!parsedMethod.success) {
    throw badRequest('method is not supported', [{ path: 'method', message: parsedMethod.error.issues[0].message }]);
  }
  const token = taggedToken(await oneTimeTokenKey());
  await db.insert(oneTimeTokens).values({
    tokenHash: sha256Hex(token),
    partnerId,
    email: normalisedEmail(email),
    method: parsedMethod.data,
    expiresAt: sql`now() + ${env().ONE_TIME_TOKEN_TTL_SECONDS}::int * interval '1 second'`,
  });
  return token;
}

/**
 * `count` tokens for one fan in one statement: the access layer puts a fresh one on each of its URLs
 * (a token works once, and a fan may follow any of them).
 */
export async function issueOneTimeTokens(
  partnerId: string,
  email: string,
  count: number,
  db: DbOrTx,
): Promise<string[]> {
  if (count <= 0) return [];
  const key = await oneTimeTokenKey();
  const tokens = Array.from({ length: count }, () => taggedToken(key));
  const owner = normalisedEmail(email);
  await db.insert(oneTimeTokens).values(
    tokens.map((token) => ({
      tokenHash: sha256Hex(token),
      partnerId,
      email: owner,
      method: 'email' as const,
      expiresAt: sql`now() + ${env().ONE_TIME_TOKEN_TTL_SECONDS}::int * interval '1 second'`,
    })),
  );
  return tokens;
}

/**
 * Spends a token: one atomic UPDATE marks it used only if it is unused and unexpired, so of any number
 * of simultaneous redemptions exactly one gets the fan back. Null for an unknown, used or expired token;
 * a guess (see `oneTimeTokenKind`) is not looked up.
 */
export async function redeemOneTimeToken(
  token: string,
  db: DbOrTx,
): Promise<{ partnerId: string; email: string } | null> {
  if ((await oneTimeTokenKind(token)) === 'guess') return null;
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, sha256Hex(token)),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ partnerId: oneTimeTokens.partnerId, email: oneTimeTokens.email });
  return row ?? null;
}

/** `url` with a fresh one-time token for the fan appended as `token`, for the URLs Encore hands partners. */
export async function withOneTimeToken(url: string, partnerId: string, email: string, db: DbOrTx): Promise<string> {
  const out = new URL(url);
  out.searchParams.set(ONE_TIME_TOKEN_PARAM, await issueOneTimeToken(partnerId, email, 'email', db));
  return out.toString();
}

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
  (ids) => getSql()`
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
  // Noted, not written here: a page view never writes (issue 34); at most once a minute per session.
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

/**
 * The partner a token was issued for, used or expired alike, without spending it: lets the page for a
 * spent link name the partner to go back to. Null for a token Encore never issued (or already swept); a
 * guess is not looked up.
 */
export async function partnerOfOneTimeToken(token: string, db: DbOrTx): Promise<string | null> {
  if ((await oneTimeTokenKind(token)) === 'guess') return null;
  const [row] = await db
    .select({ partnerId: oneTimeTokens.partnerId })
    .from(oneTimeTokens)
    .where(eq(oneTimeTokens.tokenHash, sha256Hex(token)));
  return row?.partnerId ?? null;
}
