import { env } from '@/server/env';
import { AppError } from '@/server/lib/errors';
import { log } from '@/server/lib/log';
import { recordApiRequest } from '@/server/lib/metrics';
import { enforceInMemory } from '@/server/lib/memory-rate-limit';
import type { RateLimit } from '@/server/lib/rate-limit';
import { type AuthenticatedKey, kindOfKey } from '@/server/modules/partners';
import { presentedKey } from './auth';
import { clientAddressOf } from './client-address';
import { requestIdOf } from './request-id';

/*
 * Calls made with a publishable key (`pk_live_…` / `pk_test_…`): the widget on a partner's web pages calls
 * the buy access layer's GET and the fan's resale entry from the fan's browser (docs/decisions.md,
 * "Publishable keys and CORS").
 * CORS is answered for these calls only, and their preflights: a secret key's call never carries a CORS
 * header, so no page of any site can read what a secret key is answered.
 */

/** Headers a widget may read besides the CORS-safelisted ones: the id to quote, and when to try again. */
const EXPOSED_HEADERS = 'X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining';
/** What the widget sends: its key; a content type does no harm on a GET. */
const ALLOWED_HEADERS = 'Authorization, Content-Type';
/** How long a browser may keep a preflight's answer (Chromium keeps at most 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/**
 * Calls one client address may make a minute with one publishable key from one origin
 * (`PUBLISHABLE_KEY_RATE_LIMIT`, 600 by default): a fan's widget reads twice a minute per show, so this is
 * hundreds of fans behind one address (a venue's Wi-Fi, a carrier's NAT) before any is refused.
 */
function clientRateLimit(): RateLimit {
  return {
    name: 'publishable-key',
    limit: env().PUBLISHABLE_KEY_RATE_LIMIT,
    windowSeconds: 60,
    scope: 'for this key from one address and site',
  };
}

/**
 * Calls one publishable key may make a minute from one origin, all addresses together, on one instance
 * (`PUBLISHABLE_KEY_SITE_RATE_LIMIT`, 60,000 by default): a ceiling on what one site's widgets (or anyone
 * sending its Origin from many addresses) can ask of an instance, far above a sold-out show's rush.
 */
function siteRateLimit(): RateLimit {
  return {
    name: 'publishable-key-site',
    limit: env().PUBLISHABLE_KEY_SITE_RATE_LIMIT,
    windowSeconds: 60,
    scope: 'for this key from one site',
  };
}

/**
 * Counts a call with a publishable key from `site` (an origin, `encore` for Encore's own pages, `none`)
 * in this process's memory (server/lib/memory-rate-limit.ts): nothing is written per call, so the widget's
 * read stays a read however many fans load it. Windows per key, site and client address, and
 * per key and site.
 */
function countPublishableCall(req: Request, key: AuthenticatedKey, site: string): Record<string, string> {
  const address = clientAddressOf(req.headers) ?? 'unknown';
  return enforceInMemory([
    { limit: clientRateLimit(), subject: `${key.keyId}:${site}:${address}` },
    { limit: siteRateLimit(), subject: `${key.keyId}:${site}` },
  ]);
}

/**
 * The Origin header as an origin (`https://shop.example`, normalised), `null` for the opaque origin browsers
 * send from sandboxed frames and files, undefined when there is none. Anything else is a 400 naming it.
 */
function originOf(req: Request): string | undefined {
  const value = req.headers.get('origin');
  if (value === null) return undefined;
  if (value === 'null') return 'null';
  if (/^https?:\/\/[^/?#@\s]+$/i.test(value)) {
    try {
      return new URL(value).origin;
    } catch {
      // Falls through to the 400.
    }
  }
  throw new AppError('BAD_REQUEST', 'The Origin header is not an origin (scheme://host[:port])', {
    details: [{ path: 'Origin', message: 'is not an origin (scheme://host[:port])', in: 'header' }],
  });
}

/** Whether a page of `origin` may use a key with these widget origins: any when none are set. */
function originAllowed(origin: string | undefined, widgetOrigins: readonly string[]): boolean {
  if (widgetOrigins.length === 0) return true;
  return origin !== undefined && widgetOrigins.includes(origin);
}

/**
 * Admits a call made with a publishable key, once the key is known to be genuine: a page may use it only from
 * one of the partner's widget origins (any origin while none are set; with a list, a call without an Origin is
 * refused too, since every browser sends one), answered 403 naming the header; then the call is counted
 * against its key and origin (429 with Retry-After past the limit). Answers the rate-limit headers.
 */
export function admitPublishableCall(req: Request, key: AuthenticatedKey): Record<string, string> {
  const origin = originOf(req);
  // A browser sends no Origin on a GET to its own origin: Encore's own pages (the dashboard's Embed preview)
  // say so in Sec-Fetch-Site, a header no page can set. A server could send it, as it could any Origin: the
  // list keeps other sites' pages out, not other servers.
  const ownPage = origin === undefined && req.headers.get('sec-fetch-site') === 'same-origin';
  if (ownPage) return countPublishableCall(req, key, 'encore');
  if (!originAllowed(origin, key.widgetOrigins ?? [])) {
    throw new AppError(
      'FORBIDDEN',
      origin === undefined
        ? 'This publishable key answers only pages of its partner’s allowed widget origins, and the call sent no Origin header'
        : `This publishable key may not be used by pages of ${origin}: it is not one of its partner’s allowed widget origins`,
      { details: [{ path: 'Origin', message: 'is not an allowed widget origin', in: 'header' }] },
    );
  }
  return countPublishableCall(req, key, origin ?? 'none');
}

/**
 * The CORS headers of an answer, whatever it is (200 or error): only on an operation that takes a publishable
 * key, for a call that presents one (`pk_…`) from a page (an Origin header), unless the key is known and that
 * page's origin may not use it (the 403 of `admitPublishableCall` is then unreadable by the page). Before the
 * key is known (a 401), the page may read why. A secret key's call: none, ever.
 */
export function widgetCorsHeaders(
  req: Request,
  takesPublishableKey: boolean,
  key: AuthenticatedKey | undefined,
): Record<string, string> {
  if (!takesPublishableKey) return {};
  const presented = presentedKey(req);
  if (!presented || kindOfKey(presented) !== 'publishable') return {};
  let origin: string | undefined;
  try {
    origin = originOf(req);
  } catch {
    return {};
  }
  if (origin === undefined) return {};
  if (key && (key.kind !== 'publishable' || !originAllowed(origin, key.widgetOrigins ?? []))) return {};
  return {
    // The page's own origin, never `*`: the answer differs by origin (allowed or not), hence Vary.
    'access-control-allow-origin': req.headers.get('origin') ?? origin,
    'access-control-expose-headers': EXPOSED_HEADERS,
    vary: 'Origin',
  };
}

/**
 * `OPTIONS` on a path whose GET takes a publishable key: the browser's preflight before the widget's GET (its
 * `Authorization` header makes the call not "simple"). A preflight carries no key, so it cannot know the
 * partner: it allows a GET with those headers from any page, and the GET itself is refused (403, no CORS
 * header) for a page whose origin the key's partner does not allow. Any other method is not allowed (no CORS
 * header: the browser then sends nothing), so the sell access layer's POST on the same path stays closed.
 */
export function widgetPreflight(route: string, methods: readonly string[]) {
  const allow = [...methods, 'OPTIONS'].join(', ');
  return async (req: Request): Promise<Response> => {
    const requestId = requestIdOf(req);
    const headers = new Headers({
      allow,
      'x-request-id': requestId,
      'cache-control': 'no-store',
      vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    });
    const origin = req.headers.get('origin');
    if (origin && req.headers.get('access-control-request-method') === 'GET') {
      headers.set('access-control-allow-origin', origin);
      headers.set('access-control-allow-methods', 'GET');
      headers.set('access-control-allow-headers', ALLOWED_HEADERS);
      headers.set('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS));
    }
    recordApiRequest('OPTIONS', route, 204, 0);
    log.info('request', { requestId, method: 'OPTIONS', route, status: 204, durationMs: 0 });
    return new Response(null, { status: 204, headers });
  };
}
