import { type NextRequest, NextResponse } from 'next/server';
import { getDb } from '@/db';
import { publicBaseUrl } from '@/server/env';
import { clientAddressOf } from '@/server/http/client-address';
import { LOCALE_COOKIE, resolveLocale } from '@/server/lib/i18n';
import {
  EXPIRED_PATH,
  endFanSession,
  FAN_SESSION_COOKIE,
  LAST_PARTNER_COOKIE,
  fanSessionMaxAge,
  ONE_TIME_TOKEN_PARAM,
  redeemFromClient,
  safeNextPath,
  startFanSession,
  TOO_MANY_PATH,
} from '@/server/modules/fans';

export const dynamic = 'force-dynamic';

/** A redirect with a relative Location, so the fan stays on the host the cookie was set for. */
function redirectTo(path: string): NextResponse {
  return new NextResponse(null, {
    status: 303,
    // The token was in this request's URL: no cache keeps it, no Referer carries it on.
    headers: { location: path, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  });
}

/** The language of the page the fan signs in to: its `lang`, else as the proxy chooses for fan pages. */
function pageLocale(req: NextRequest, next: string) {
  return resolveLocale({
    lang: new URL(next, req.nextUrl.origin).searchParams.get('lang'),
    cookie: req.cookies.get(LOCALE_COOKIE)?.value,
    acceptLanguage: req.headers.get('accept-language'),
  });
}

function isHttps(req: NextRequest): boolean {
  const forwarded = req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  return req.nextUrl.protocol === 'https:' || forwarded === 'https' || publicBaseUrl().startsWith('https:');
}

/**
 * `GET /auth/redeem?token=ott_…&next=/relative/path`: spends a one-time token, opens a fan session bound
 * to the token's partner (replacing any fan session this browser had) and goes on to `next` — a
 * same-site path only; anything else goes to /me. A used, expired or unknown token goes to a page
 * explaining how to get a fresh link; a client that tried too many bad links lately, to a page saying
 * when to try again (a token Encore issued always opens, whatever others did from the same address).
 */
export async function GET(req: NextRequest): Promise<NextResponse> {
  const token = req.nextUrl.searchParams.get(ONE_TIME_TOKEN_PARAM) ?? '';
  const next = safeNextPath(req.nextUrl.searchParams.get('next'));
  const redeemed = await redeemFromClient(token, clientAddressOf(req.headers), getDb());
  if (redeemed.outcome === 'tooMany') {
    const minutes = String(Math.ceil(redeemed.retryAfterSeconds / 60));
    return redirectTo(`${TOO_MANY_PATH}?${new URLSearchParams({ minutes, next })}`);
  }
  if (redeemed.outcome === 'expired') {
    const expired = new URLSearchParams({ next });
    if (redeemed.partnerId) expired.set('partner', redeemed.partnerId);
    return redirectTo(`${EXPIRED_PATH}?${expired}`);
  }
  await endFanSession(req.cookies.get(FAN_SESSION_COOKIE)?.value, getDb());
  const session = await startFanSession(redeemed.partnerId, redeemed.email, getDb(), pageLocale(req, next));
  const res = redirectTo(next);
  res.cookies.set(FAN_SESSION_COOKIE, session, {
    httpOnly: true,
    secure: isHttps(req),
    sameSite: 'lax',
    path: '/',
    maxAge: fanSessionMaxAge(),
  });
  // Outlives the session: once it has ended, /me and not-found pages still offer this partner's sign-in.
  res.cookies.set(LAST_PARTNER_COOKIE, redeemed.partnerId, {
    httpOnly: true,
    secure: isHttps(req),
    sameSite: 'lax',
    path: '/',
    maxAge: 365 * 86_400,
  });
  return res;
}

/** Link checkers and previews that only ask HEAD must not spend the token (Next would answer HEAD with GET). */
export function HEAD(): Response {
  return new Response(null, {
    status: 204,
    headers: { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  });
}
