import { chosenLocale, defaultLocale, LOCALE_COOKIE, type Locale } from '@/server/lib/i18n/locales';

/**
 * Which answers may be shared by every fan who asks for the same address: an anonymous fan's
 * buy page. Everything such a page depends on is in its address (the event, the query parameters below)
 * and its language; nothing of a person is in it. Every shared cache in front of Encore (the reference
 * edge, edge/nginx.conf; a CDN; this process's own, shared-page-render.ts) keys it the same way, so what one
 * fan is sent is exactly what another asking the same is sent.
 */

/** The buy page itself: /market/<event>, with any query. */
const BUY_PAGE = /^\/market\/[^/?#]+$/;

/**
 * The query parameters the buy page reads (app/(market)/market/[eventId]/page.tsx), in the order of the
 * canonical query. Anything else a shared link carries (`utm_*`, `fbclid`, `gclid`, `?x=1`) is not part of
 * the page, so it is not part of its key either: the fans of one shared link share one page.
 * The reference edge's edge/edge.js lists the same (server/http/shared-page-address.test.ts checks).
 */
export const BUY_PAGE_PARAMS = [
  'show',
  'ticket',
  'ticketOptionId',
  'zone',
  'section',
  'qty',
  'sort',
  'page',
  'returnTo',
  'returnURL',
] as const;

/** Request headers of the router's own requests (RSC payloads, prefetches, server actions): never shared. */
const ROUTER_HEADERS = [
  'rsc',
  'next-action',
  'next-router-state-tree',
  'next-router-prefetch',
  'next-router-segment-prefetch',
];

/**
 * What a shared buy page answers with: fresh in a shared cache for a second (`s-maxage`; the freshness
 * bound, docs/decisions.md "The rush through a shared cache"), served stale for at most one more while one
 * refresh runs (`stale-while-revalidate`), served stale for at most a minute past its freshness while the
 * origin fails (`stale-if-error`: refused, timed out, a 5xx), and never kept by the fan's browser past its
 * use (`max-age=0`). A shared cache must keep to these bounds: the reference edge (edge/nginx.conf) takes
 * them from here and adds none of its own.
 */
export const SHARED_PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=60';
/**
 * The request headers the page depends on besides its address: the language is chosen from the
 * Accept-Language header and the `encore_lang` cookie when the address has no `lang`.
 */
export const SHARED_PAGE_VARY = 'Accept-Encoding, Accept-Language, Cookie';
/**
 * The `lang=` of a shared page's address when nothing of the fan's chose a language (no `lang`, no
 * remembered one, no browser language Encore speaks): "the event's own", the primary language of the
 * event's country, else DEFAULT_LANG (server/lib/i18n/locales.ts resolveLocale). Every such fan of one
 * event gets that same page, so it is one key: neither a shared cache nor the edge (edge/edge.js) knows the
 * event's country, and need not. The page itself, asked with it, resolves it (the proxy looks the country up).
 */
export const EVENT_LANG = 'auto';

/** Every answer that is not a shared page (a person's page, checkout, the API, anything with a token). */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** A request as both Node.js's server and the proxy see it. */
export interface RequestFacts {
  method: string;
  /** Path and query, as sent. */
  url: string;
  header(name: string): string | null | undefined;
}

/**
 * The canonical address of a shared page request: its path and the parameters it reads, in a fixed order,
 * after the language the fan chose, or EVENT_LANG when nothing of theirs chose one (`lang=`). Null when the answer is a person's (a session or
 * any cookie but the remembered language, Authorization, a one-time `token`, the router's own requests)
 * or not a buy page.
 */
export function sharedPageAddress(req: RequestFacts): string | null {
  if (req.method !== 'GET') return null;
  const url = new URL(req.url, 'http://encore');
  if (!BUY_PAGE.test(url.pathname)) return null;
  if (req.header('authorization') || ROUTER_HEADERS.some((name) => req.header(name) != null)) return null;
  if (url.searchParams.has('token') || url.searchParams.has('_rsc')) return null;
  if (cookiesOf(req.header('cookie')).some((c) => !c.startsWith(`${LOCALE_COOKIE}=`))) return null;
  const lang = pageLang(url, req.header);
  const query = new URLSearchParams({ lang });
  for (const name of BUY_PAGE_PARAMS) {
    const value = url.searchParams.get(name);
    if (value !== null) query.set(name, value);
  }
  return `${url.pathname}?${query}`;
}

function cookiesOf(header: string | null | undefined): string[] {
  return (header ?? '')
    .split(';')
    .map((c) => c.trim())
    .filter(Boolean);
}

/**
 * What the fan chose for a request as Encore's server sees it (before Next.js): the address's `lang`, then
 * the remembered one (the last `encore_lang` cookie), then the browser's; null when none names a language
 * Encore speaks.
 */
function fanChoice(url: URL, header: (name: string) => string | null | undefined): Locale | null {
  const remembered = cookiesOf(header('cookie')).filter((c) => c.startsWith(`${LOCALE_COOKIE}=`));
  return chosenLocale({
    lang: url.searchParams.get('lang'),
    cookie: remembered.length ? remembered[remembered.length - 1].slice(LOCALE_COOKIE.length + 1) : null,
    acceptLanguage: header('accept-language'),
  });
}

/** The `lang=` of a buy page's canonical address: the fan's choice, else EVENT_LANG (the event's own). */
export function pageLang(url: URL, header: (name: string) => string | null | undefined): Locale | typeof EVENT_LANG {
  return fanChoice(url, header) ?? EVENT_LANG;
}

/**
 * A fan's language for a request Encore answers before Next.js, without its database (the outage page):
 * the fan's choice, else the default.
 */
export function requestLocale(url: URL, header: (name: string) => string | null | undefined): Locale {
  return fanChoice(url, header) ?? defaultLocale();
}
