import { getDb } from '@/db';
import { publicBaseUrl, env } from '@/server/env';
import { type Locale } from '@/server/lib/i18n';
import { consume, type RateLimit, release } from '@/server/lib/rate-limit';
import { transaction } from '@/server/lib/transaction';
import { queueMail } from '@/server/modules/mail';
import { getPartner } from '@/server/modules/partners';
import { fanEmail } from './schemas';
import { issueOneTimeToken } from './one-time-tokens';
import { ONE_TIME_TOKEN_PARAM, REDEEM_PATH, safeNextPath } from './urls';

/** Sign-in links asked for one e-mail (any partner) and from one address, per 15 minutes. */
const SIGN_IN_LINK_PER_EMAIL: RateLimit = { name: 'fan-sign-in-email', limit: 5, windowSeconds: 900 };
const SIGN_IN_LINK_PER_IP: RateLimit = { name: 'fan-sign-in-ip', limit: 30, windowSeconds: 900 };
/**
 * Failed one-time-token redemptions (unknown, used or expired tokens) per client address per 15 minutes.
 * Tokens are unguessable (~190 bits), so this is defence in depth: a client trying tokens wholesale is
 * stopped after a few dozen. Each attempt is counted before the token is looked at (so a burst cannot
 * slip past the count) and given back when the token was good: a fan following their links is never
 * limited.
 */
export const REDEEM_FAILURES_PER_CLIENT: RateLimit = { name: 'ott-redeem', limit: 30, windowSeconds: 900 };

/** Counts a redemption attempt: seconds before this client may try again, or 0 (an unknown client is not counted). */
export async function countRedeemAttempt(clientAddress: string | null): Promise<number> {
  if (!clientAddress) return 0;
  const decision = await consume(REDEEM_FAILURES_PER_CLIENT, clientAddress, getDb());
  return decision.allowed ? 0 : decision.retryAfter;
}

/** The attempt redeemed a good token: it does not count against the client. */
export async function giveBackRedeemAttempt(clientAddress: string | null): Promise<void> {
  if (clientAddress) await release(REDEEM_FAILURES_PER_CLIENT, clientAddress, getDb());
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
export async function requestSignInLink(input: {
  partnerId: string;
  email: string;
  next?: string | null;
  locale: Locale;
  /** The client's address, for the per-address limit (null when unknown). */
  ip: string | null;
}): Promise<SignInLinkResult> {
  const parsed = fanEmail.safeParse(input.email.trim());
  if (!parsed.success) return { ok: false, error: 'invalidEmail' };
  const email = parsed.data.toLowerCase();
  const partner = await getPartner(input.partnerId, getDb()).catch(() => null);
  if (!partner || partner.disabledAt) return { ok: false, error: 'unavailable' };
  for (const [limit, subject] of [
    [SIGN_IN_LINK_PER_IP, input.ip],
    [SIGN_IN_LINK_PER_EMAIL, email],
  ] as const) {
    if (!subject) continue;
    const decision = await consume(limit, subject, getDb());
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
  });
  return { ok: true, email, minutes };
}
