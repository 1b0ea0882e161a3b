import type { Db } from '@/db';
import { publicBaseUrl, env } from '@/server/env';
import { type Locale } from '@/server/lib/i18n';
import { consume, type RateLimit, release } from '@/server/lib/rate-limit';
import { transaction } from '@/server/lib/transaction';
import { queueMail } from '@/server/modules/mail';
import { getPartner } from '@/server/modules/partners';
import { fanEmail } from './schemas';
import { issueOneTimeToken, oneTimeTokenKind, partnerOfOneTimeToken, redeemOneTimeToken } from './one-time-tokens';
import { ONE_TIME_TOKEN_PARAM, REDEEM_PATH, safeNextPath } from './urls';

/** Sign-in links asked for one e-mail (any partner) and from one address, per 15 minutes. */
const SIGN_IN_LINK_PER_EMAIL: RateLimit = { name: 'fan-sign-in-email', limit: 5, windowSeconds: 900 };
const SIGN_IN_LINK_PER_IP: RateLimit = { name: 'fan-sign-in-ip', limit: 30, windowSeconds: 900 };
/**
 * Failed one-time-token redemptions per client address per 15 minutes: what stops a client trying tokens
 * wholesale. Many fans share an address (venue Wi-Fi, carrier NAT), so only bad tokens count and only bad
 * tokens are refused: a token Encore issued (its tag verifies, `oneTimeTokenKind`) is always redeemed,
 * whatever others did from the same address, and counts only when it turns out used or expired (after the
 * look-up; such tokens are bounded by what Encore issued). A guess counts and, over the limit, is refused;
 * either way it is never looked up in the database. Untagged tokens (issued before tags, gone within a
 * day) keep the old rule: counted before the look-up, so a burst cannot slip past the count, and given
 * back when good.
 */
export const REDEEM_FAILURES_PER_CLIENT: RateLimit = { name: 'ott-redeem', limit: 30, windowSeconds: 900 };

/** What following a one-time link from a client comes to. */
export type RedeemOutcome =
  | { outcome: 'signedIn'; partnerId: string; email: string }
  /** Used, expired or unknown: the expired-link page, naming the partner when the token is one we issued. */
  | { outcome: 'expired'; partnerId: string | null }
  /** This client tried too many bad links lately; the token is left unspent. */
  | { outcome: 'tooMany'; retryAfterSeconds: number };

/** Counts a failed attempt: seconds before this client may try again, or 0 (an unknown client is not counted). */
async function countFailure(clientAddress: string | null, db: Db): Promise<number> {
  if (!clientAddress) return 0;
  const decision = await consume(REDEEM_FAILURES_PER_CLIENT, clientAddress, db);
  return decision.allowed ? 0 : decision.retryAfter;
}

/**
 * Redeems a one-time token from a link a client followed, under the per-address limit of bad links
 * (REDEEM_FAILURES_PER_CLIENT): a token Encore issued is always redeemed; a guess costs no database
 * look-up of tokens, only its count.
 */
export async function redeemFromClient(
  token: string,
  clientAddress: string | null,
  // The handle, not a transaction: the count stays when the redemption fails (consume commits on its own).
  db: Db,
): Promise<RedeemOutcome> {
  const kind = await oneTimeTokenKind(token);
  if (kind === 'guess') {
    const retryAfterSeconds = await countFailure(clientAddress, db);
    return retryAfterSeconds ? { outcome: 'tooMany', retryAfterSeconds } : { outcome: 'expired', partnerId: null };
  }
  if (kind === 'untagged') {
    const retryAfterSeconds = await countFailure(clientAddress, db);
    if (retryAfterSeconds) return { outcome: 'tooMany', retryAfterSeconds };
  }
  const fan = await redeemOneTimeToken(token, db);
  if (fan) {
    if (kind === 'untagged' && clientAddress) await release(REDEEM_FAILURES_PER_CLIENT, clientAddress, db);
    return { outcome: 'signedIn', ...fan };
  }
  // An issued token that is used or expired counts now; an untagged one was counted before its look-up.
  if (kind === 'issued') await countFailure(clientAddress, db);
  return { outcome: 'expired', partnerId: await partnerOfOneTimeToken(token, db) };
}

export type SignInLinkResult =
  | { ok: true; email: string; minutes: number }
  | { ok: false; error: 'invalidEmail' | 'unavailable' }
  | { ok: false; error: 'tooMany'; retryAfterSeconds: number };

/** Minutes a sign-in link lasts (the one-time token's life), as the page and the mail say it. */
function signInLinkMinutes(): number {
  return Math.max(1, Math.round(env().ONE_TIME_TOKEN_TTL_SECONDS / 60));
}

/** The link a sign-in mail carries: the redeem route with the token and the same-site page to go on to. */
function signInLinkUrl(token: string, next: string): string {
  const url = new URL(`${publicBaseUrl()}${REDEEM_PATH}`);
  url.searchParams.set(ONE_TIME_TOKEN_PARAM, token);
  url.searchParams.set('next', safeNextPath(next));
  return url.toString();
}

/**
 * A fan asks for a sign-in link by e-mail on a partner's page: a one-time token for (partner, e-mail) and
 * the mail carrying it are written in one transaction (the mail is sent after the commit). The answer is
 * the same whether or not the e-mail holds tickets there. Limited per e-mail and per client address; a
 * disabled or unknown partner gives no link.
 */
export async function requestSignInLink(
  input: {
    partnerId: string;
    email: string;
    next?: string | null;
    locale: Locale;
    /** The client's address, for the per-address limit (null when unknown). */
    ip: string | null;
  },
  db: Db,
): Promise<SignInLinkResult> {
  const parsed = fanEmail.safeParse(input.email.trim());
  if (!parsed.success) return { ok: false, error: 'invalidEmail' };
  const email = parsed.data.toLowerCase();
  const partner = await getPartner(input.partnerId, db).catch(() => null);
  if (!partner || partner.disabledAt) return { ok: false, error: 'unavailable' };
  for (const [limit, subject] of [
    [SIGN_IN_LINK_PER_IP, input.ip],
    [SIGN_IN_LINK_PER_EMAIL, email],
  ] as const) {
    if (!subject) continue;
    const decision = await consume(limit, subject, db);
    if (!decision.allowed) return { ok: false, error: 'tooMany', retryAfterSeconds: decision.retryAfter };
  }
  const minutes = signInLinkMinutes();
  await transaction(async (work) => {
    const token = await issueOneTimeToken(partner.id, email, 'email', work.tx);
    await queueMail(work, {
      partnerId: partner.id,
      to: email,
      kind: 'signInLink',
      locale: input.locale,
      data: { partnerName: partner.name, url: signInLinkUrl(token, input.next ?? ''), minutes },
    });
  }, db);
  return { ok: true, email, minutes };
}
