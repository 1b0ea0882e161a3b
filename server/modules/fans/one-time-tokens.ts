import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { oneTimeTokens } from '@/db/schema/fans';
import { env } from '@/server/env';
import { appSecret } from '@/server/lib/app-secret';
import { badRequest } from '@/server/lib/errors';
import { sha256Hex } from '@/server/lib/ids';
import { fanEmail, ONE_TIME_TOKEN_PATTERN, oneTimeTokenMethod, type OneTimeTokenMethod } from './schemas';
import { ONE_TIME_TOKEN_PARAM } from './urls';

/** 32 random bytes (256 bits), base64url: safe in a URL and a cookie as is. */
export function secret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** Tokens issued before they carried a tag: redeemed the old way until they expire (a day at most). */
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

export function normalisedEmail(email: string): string {
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

/**
 * The fan a token still signs in (unused, unexpired), read without spending it: the sell widget shows the
 * fan's tickets from the token the partner put on its page, and a read never writes. Null for
 * an unknown, used or expired token; a guess is not looked up.
 */
export async function fanOfOneTimeToken(
  token: string,
  db: DbOrTx,
): Promise<{ partnerId: string; email: string } | null> {
  if ((await oneTimeTokenKind(token)) === 'guess') return null;
  const [row] = await db
    .select({ partnerId: oneTimeTokens.partnerId, email: oneTimeTokens.email })
    .from(oneTimeTokens)
    .where(
      and(
        eq(oneTimeTokens.tokenHash, sha256Hex(token)),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, sql`now()`),
      ),
    );
  return row ?? null;
}

/** `url` with a fresh one-time token for the fan appended as `token`, for the URLs Encore hands partners. */
export async function withOneTimeToken(url: string, partnerId: string, email: string, db: DbOrTx): Promise<string> {
  const out = new URL(url);
  out.searchParams.set(ONE_TIME_TOKEN_PARAM, await issueOneTimeToken(partnerId, email, 'email', db));
  return out.toString();
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
