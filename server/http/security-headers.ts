/**
 * Security headers of every answer. Pages get a Content Security Policy with a nonce made per
 * request (Next.js's documented way: the proxy puts the policy on the request too, and Next.js gives its
 * own scripts that nonce), so no script runs unless this server rendered it; `/v1` answers are data and
 * get a policy that allows nothing. Framing is refused (`frame-ancestors 'none'`, and X-Frame-Options
 * for browsers that predate it), except on the fan pages a partner may embed (buy, resale entry, sell):
 * those may be framed by the partner's allowed origins only, and then carry no X-Frame-Options (DENY
 * would override the policy in browsers that honour both). Web Crypto only, so it runs wherever the
 * proxy runs.
 */

/** The request header the proxy hands the nonce to the page in (read by the root layout). */
export const NONCE_HEADER = 'x-nonce';

export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The policy of a page. Scripts: only this response's (the nonce; `strict-dynamic` lets the scripts
 * Next.js loads from them run). Styles: the stylesheet and React's `style` attributes ('unsafe-inline'
 * allows no script). Images: ours, data/blob (the QR code, previews) and partner logos over https.
 * Forms post to us, or leave for https (a payment provider's page). Development adds what the dev
 * server's overlay and hot reload need.
 */
export function pageContentSecurityPolicy(nonce: string, dev = false, frameAncestors = "'none'"): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self' https:",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

/** The policy of an API answer: JSON is never a document, so nothing may load and nothing may frame it. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Headers on every answer, pages and API alike (next.config.ts sets them, static files included). */
export const COMMON_SECURITY_HEADERS: { key: string; value: string }[] = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=()' },
];

/**
 * The referrer policy, by whether the address carries a one-time token (`?token=`): then none at all, so no
 * Referer carries the token on. Set in next.config.ts, whose headers win over a route handler's own.
 */
export const REFERRER_POLICY = {
  usual: { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  tokenInAddress: { key: 'Referrer-Policy', value: 'no-referrer' },
  tokenParam: 'token',
};

/** Refuses framing in browsers without `frame-ancestors`; on every answer but the embeddable pages'. */
export const FRAME_OPTIONS_DENY = { key: 'X-Frame-Options', value: 'DENY' };

/**
 * The path prefixes under which a page may be embedded by its partner. next.config.ts leaves
 * X-Frame-Options off these (a config header cannot be removed later); the proxy adds it there unless
 * the page's partner has allowed origins.
 */
const EMBEDDABLE_PREFIXES = ['market', 'resale', 'sell'] as const;

/** next.config.ts `source` of every path but those under EMBEDDABLE_PREFIXES. */
export const NOT_EMBEDDABLE_SOURCE = `/:path((?!(?:${EMBEDDABLE_PREFIXES.join('|')})(?:/|$)).*)`;

export function underEmbeddablePrefix(pathname: string): boolean {
  return EMBEDDABLE_PREFIXES.some((p) => pathname === `/${p}` || pathname.startsWith(`/${p}/`));
}

/**
 * HSTS, only on an answer to a request that came over https: our own TLS (`https`), or the proxy in front
 * saying so (its `X-Forwarded-Proto`, the first value).
 */
export function strictTransportSecurity(https: boolean, forwardedProto: string | null | undefined): string | null {
  const forwarded = forwardedProto?.split(',')[0]?.trim();
  return https || forwarded === 'https' ? 'max-age=31536000; includeSubDomains' : null;
}
