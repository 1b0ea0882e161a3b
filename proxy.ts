import { type NextRequest, NextResponse } from 'next/server';
import { allowedMethodsFor, compileTemplates } from '@/server/http/methods';
import { allRoutes } from '@/server/http/registry';

const VALID = /^[\w.:-]{1,128}$/;
const templates = compileTemplates(allRoutes);

/**
 * Gives every request an id (the caller's X-Request-Id when sane) and echoes it on every response,
 * including the ones Next.js answers itself. Route handlers read the same header. A known /v1 path
 * called with a method it does not have gets a 405 in the API's envelope instead of an empty body.
 */
export function proxy(req: NextRequest) {
  const given = req.headers.get('x-request-id');
  const id = given && VALID.test(given) ? given : `req_${crypto.randomUUID().replace(/-/g, '')}`;
  const { pathname } = req.nextUrl;

  if (pathname.startsWith('/v1/') && req.method !== 'OPTIONS' && req.method !== 'HEAD') {
    const allowed = allowedMethodsFor(templates, req.method, pathname);
    if (allowed) {
      return NextResponse.json(
        {
          status: 405,
          data: null,
          errors: {
            message: `Method ${req.method} is not allowed on ${pathname}; use ${allowed.join(' or ')}`,
            code: 'METHOD_NOT_ALLOWED',
          },
        },
        { status: 405, headers: { allow: allowed.join(', '), 'x-request-id': id, 'cache-control': 'no-store' } },
      );
    }
  }

  const headers = new Headers(req.headers);
  headers.set('x-request-id', id);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set('x-request-id', id);
  return res;
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
