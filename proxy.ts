import { type NextRequest, NextResponse } from 'next/server';

const VALID = /^[\w.:-]{1,128}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when sane) and echoes it on every response,
 * including the ones Next.js answers itself (405s, pages). Route handlers read the same header.
 */
export function proxy(req: NextRequest) {
  const given = req.headers.get('x-request-id');
  const id = given && VALID.test(given) ? given : `req_${crypto.randomUUID().replace(/-/g, '')}`;
  const headers = new Headers(req.headers);
  headers.set('x-request-id', id);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set('x-request-id', id);
  return res;
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
