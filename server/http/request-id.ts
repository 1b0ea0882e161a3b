const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The caller's X-Request-Id when it is sane, else a new one. Used by the proxy and the route wrapper
 * (Web Crypto, so it runs in any runtime the proxy may be given).
 */
export function requestIdOf(req: Request): string {
  const given = req.headers.get('x-request-id');
  return given && REQUEST_ID.test(given) ? given : `req_${crypto.randomUUID().replace(/-/g, '')}`;
}
