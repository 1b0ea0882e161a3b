/**
 * A partner's allowed return origins: where a fan's "back" link (`returnTo`) may lead and who
 * may frame the partner's embeddable fan pages. Pure functions, shared by the partner API's check, the
 * staff form's validation and the fan pages' back link, so all three agree on what an origin is.
 */

export const RETURN_ORIGINS_MAX = 20;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The origin staff typed, normalised (`https://tickets.example`, no path, query, fragment or
 * credentials), or why it is refused. http only for a loopback host when private partner URLs are
 * allowed (local development and tests), as for the partner's other URLs.
 */
export function parseReturnOrigin(raw: string, allowLoopbackHttp: boolean): { origin: string } | { error: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { error: 'must be an origin like https://tickets.example.com' };
  }
  const loopbackHttp = url.protocol === 'http:' && allowLoopbackHttp && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) return { error: 'must use https://' };
  if (url.username || url.password) return { error: 'must not contain a user name or password' };
  if (url.pathname !== '/' || url.search || url.hash || /[?#]/.test(raw)) {
    return { error: 'must be an origin only (scheme, host and port), without a path' };
  }
  // A host name is letters, digits, dots and hyphens once in punycode; anything else (`;`, `'`, `,`)
  // would also break out of the CSP header the origin is written into.
  if (!/^(?:[a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(url.hostname)) {
    return { error: 'has a host name that is not valid' };
  }
  return { origin: url.origin };
}

/**
 * Whether `returnTo` may be used as a back link for a partner with these origins: an absolute http(s) URL
 * on one of them (compared as parsed origins, so case, default ports and encodings cannot slip another host
 * through). With no origins set, none may: anyone can craft an Encore link (`partnerBackLink` then offers
 * the partner's own site instead).
 */
export function returnToAllowed(returnTo: string, origins: readonly string[]): boolean {
  const origin = httpOriginOf(returnTo);
  return origin !== null && origins.includes(origin);
}

/** The origin of an absolute http(s) URL, or null. */
export function httpOriginOf(value: string | null | undefined): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
}

/**
 * The back link a fan page offers for an asked `returnTo`: the URL itself on one of the partner's allowed
 * return origins; with none set, the URL when it is on the partner's own site (the origin of its support
 * page, from its settings), else that site's home page, else nothing. A crafted link to another site is
 * never shown.
 */
export function partnerBackLink(
  asked: string,
  partner: { returnOrigins: readonly string[]; supportUrl: string | null },
): string | null {
  if (partner.returnOrigins.length) return returnToAllowed(asked, partner.returnOrigins) ? asked : null;
  const site = httpOriginOf(partner.supportUrl);
  if (!site) return null;
  return httpOriginOf(asked) === site ? asked : `${site}/`;
}

/** The CSP `frame-ancestors` source list of a page the partner may embed: its origins, else nobody. */
export function frameAncestors(origins: readonly string[]): string {
  return origins.length ? origins.join(' ') : "'none'";
}
