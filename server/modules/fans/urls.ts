/**
 * Pure URL rules of fan sign-in, shared by the proxy (which sends fan URLs carrying a token to the
 * redeem route) and the redeem route itself. No database here: the proxy runs them on every request.
 */

/** The query parameter that carries a one-time token on any Encore fan URL. */
export const ONE_TIME_TOKEN_PARAM = 'token';

/** The cookie that carries a fan session (staff sessions use next-auth's own cookies). */
export const FAN_SESSION_COOKIE = 'encore_fan';

/**
 * The partner a fan last signed in with (its id; a hint, checked when read): pages with no partner of
 * their own (/me signed out, a not-found page) show that partner's brand and its sign-in.
 */
export const LAST_PARTNER_COOKIE = 'encore_partner';

/** Request header the proxy sets on fan pages: the address asked for (path and query), for not-found pages. */
export const FAN_ADDRESS_HEADER = 'x-encore-address';

/** Where a token is redeemed: `?token=…&next=/relative/path`. */
export const REDEEM_PATH = '/auth/redeem';

/** The friendly page a used, expired or unknown token lands on. */
export const EXPIRED_PATH = '/auth/expired';

/** The page a client that tried too many bad links lately lands on: `?minutes=…&next=…`. */
export const TOO_MANY_PATH = '/auth/too-many';

/** Where a fan lands after signing in when the link named no page. */
export const DEFAULT_FAN_PATH = '/me';

// Paths that are not fan pages: the partner API, the dashboard and its sign-in, the docs, the auth
// routes themselves and Next's internals. A `token` parameter there is left alone.
const NOT_FAN_PAGES = [
  '/v1',
  '/api',
  '/dashboard',
  '/docs',
  '/auth',
  '/signin',
  '/setup',
  '/invite',
  '/healthz',
  '/metrics',
  '/_next',
];

function isFanPage(pathname: string): boolean {
  return !NOT_FAN_PAGES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/**
 * Whether a page is shown in the fan's language: every fan page, plus the expired-link and too-many-links
 * pages, which sit under /auth (so a token there is never redeemed) but are read by fans.
 */
export function getsFanLocale(pathname: string): boolean {
  return isFanPage(pathname) || pathname === EXPIRED_PATH || pathname === TOO_MANY_PATH;
}

/**
 * A same-site path to redirect to, or the default. Only a path starting with one `/` is kept: `//host`,
 * `/\host`, schemes and control characters would send the fan elsewhere (open redirect), so they fall
 * back to the default page. The path is judged as resolved, since that is what goes into `Location`:
 * `/.//evil.example` resolves to `//evil.example`, which a browser reads as another host.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || next.length > 2000 || !next.startsWith('/') || next.startsWith('//')) return DEFAULT_FAN_PATH;
  if ([...next].some((c) => c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return DEFAULT_FAN_PATH;
  try {
    const base = 'http://encore.invalid';
    const resolved = new URL(next, base);
    if (resolved.origin !== base) return DEFAULT_FAN_PATH;
    const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
    // Read again as a browser reads the Location header: it must name a path on this same origin.
    if (path.startsWith('//') || new URL(path, base).origin !== base) return DEFAULT_FAN_PATH;
    return path;
  } catch {
    return DEFAULT_FAN_PATH;
  }
}

/**
 * For a GET of a fan page whose query carries `token`: the redeem URL (same origin) that spends it and
 * comes back to the same page without the token. Null for anything else.
 */
export function redeemRedirectFor(url: URL): URL | null {
  const token = url.searchParams.get(ONE_TIME_TOKEN_PARAM);
  if (token === null || !isFanPage(url.pathname)) return null;
  const back = new URL(url.href);
  back.searchParams.delete(ONE_TIME_TOKEN_PARAM);
  const target = new URL(REDEEM_PATH, url.origin);
  target.searchParams.set(ONE_TIME_TOKEN_PARAM, token);
  target.searchParams.set('next', `${back.pathname}${back.search}`);
  return target;
}
