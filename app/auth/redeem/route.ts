import { type NextRequest, NextResponse } from 'next/server';
import { publicBaseUrl } from '@/server/env';
import {
  EXPIRED_PATH,
  endFanSession,
  FAN_SESSION_COOKIE,
  fanSessionMaxAge,
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
  const token = req.nextUrl.searchParams.get(ONE_TIME_TOKEN_PARAM) ?? '';
  const next = safeNextPath(req.nextUrl.searchParams.get('next'));
  const fan = await redeemOneTimeToken(token);
  if (!fan) {
    const expired = new URLSearchParams({ next });
    const partnerId = await partnerOfOneTimeToken(token);
    if (partnerId) expired.set('partner', partnerId);
    return redirectTo(`${EXPIRED_PATH}?${expired}`);
  }
  await endFanSession(req.cookies.get(FAN_SESSION_COOKIE)?.value);
  const session = await startFanSession(fan.partnerId, fan.email);
  const res = redirectTo(next);
  res.cookies.set(FAN_SESSION_COOKIE, session, {
    httpOnly: true,
    secure: isHttps(req),
    sameSite: 'lax',
    path: '/',
    maxAge: fanSessionMaxAge(),
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
