const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The caller's X-Request-Id when it is sane, else a new one. Used by the proxy and the route wrapper
 * (Web Crypto, so it runs in any runtime the proxy may be given).
 */
export function requestIdOf(req: Request): string {
  return requestIdFrom(req.headers.get('x-request-id'));
}

/** The same from the header's value (a Node.js request's header may be a list: then a new id). */
export function requestIdFrom(given: string | string[] | null | undefined): string {
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : `req_${crypto.randomUUID().replace(/-/g, '')}`;
}
