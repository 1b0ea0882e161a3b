import { type NextRequest, NextResponse } from 'next/server';
import { getDb } from '@/db';
import { publicBaseUrl } from '@/server/env';
import { clientAddressOf } from '@/server/http/client-address';
import { LOCALE_COOKIE, resolveLocale, translator } from '@/server/lib/i18n';
import {
  countRedeemAttempt,
  EXPIRED_PATH,
  endFanSession,
  FAN_SESSION_COOKIE,
  LAST_PARTNER_COOKIE,
  fanSessionMaxAge,
  giveBackRedeemAttempt,
  ONE_TIME_TOKEN_PARAM,
  partnerOfOneTimeToken,
  redeemOneTimeToken,
  safeNextPath,
  startFanSession,
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

/** 429, in the fan's language: this client tried too many bad links lately. The token is left unspent. */
function tooManyRedeems(req: NextRequest, retryAfter: number): NextResponse {
  const locale = resolveLocale({
    cookie: req.cookies.get(LOCALE_COOKIE)?.value,
    acceptLanguage: req.headers.get('accept-language'),
  });
  const text = translator(locale, 'signin')('tooManyRedeems', { minutes: Math.ceil(retryAfter / 60) });
  const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Encore</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem"><h1 style="font-size:1.25rem">Encore</h1><p role="alert">${text}</p></body></html>`;
  return new NextResponse(html, {
    status: 429,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'retry-after': String(retryAfter),
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    },
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
 * explaining how to get a fresh link.
 */
export async function GET(req: NextRequest): Promise<NextResponse> {
  const client = clientAddressOf(req.headers);
  const retryAfter = await countRedeemAttempt(client);
  if (retryAfter) return tooManyRedeems(req, retryAfter);
  const token = req.nextUrl.searchParams.get(ONE_TIME_TOKEN_PARAM) ?? '';
  const next = safeNextPath(req.nextUrl.searchParams.get('next'));
  const fan = await redeemOneTimeToken(token, getDb());
  if (fan) await giveBackRedeemAttempt(client);
  if (!fan) {
    const expired = new URLSearchParams({ next });
    const partnerId = await partnerOfOneTimeToken(token, getDb());
    if (partnerId) expired.set('partner', partnerId);
    return redirectTo(`${EXPIRED_PATH}?${expired}`);
  }
  await endFanSession(req.cookies.get(FAN_SESSION_COOKIE)?.value, getDb());
  const session = await startFanSession(fan.partnerId, fan.email, getDb(), pageLocale(req, next));
  const res = redirectTo(next);
  res.cookies.set(FAN_SESSION_COOKIE, session, {
    httpOnly: true,
    secure: isHttps(req),
    sameSite: 'lax',
    path: '/',
    maxAge: fanSessionMaxAge(),
  });
  // Outlives the session: once it has ended, /me and not-found pages still offer this partner's sign-in.
  res.cookies.set(LAST_PARTNER_COOKIE, fan.partnerId, {
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
