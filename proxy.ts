import { type NextRequest, NextResponse } from 'next/server';
import { getDb } from '@/db';
import { AppError } from '@/server/lib/errors';
import { errorResponse } from '@/server/http/envelope';
import { allowedMethodsFor, compileTemplates } from '@/server/http/methods';
import { allRoutes } from '@/server/http/registry';
import {
  actionIdRefusal,
  addressRefusal,
  decodable,
  foreignOriginRefusal,
  actionBodyRefusal,
  isServerActionPost,
  type Refusal,
  refusalPage,
} from '@/server/http/page-guard';
import { requestIdOf } from '@/server/http/request-id';
import { PRIVATE_CACHE_CONTROL, sharedPageAddress } from '@/server/http/shared-page-address';
import {
  API_CONTENT_SECURITY_POLICY,
  FRAME_OPTIONS_DENY,
  newNonce,
  NONCE_HEADER,
  pageContentSecurityPolicy,
  strictTransportSecurity,
  underEmbeddablePrefix,
} from '@/server/http/security-headers';
import { frameAncestors } from '@/server/lib/return-origins';
import {
  chosenLocale,
  defaultLocale,
  type Locale,
  LOCALE_COOKIE,
  LOCALE_COOKIE_OPTIONS,
  LOCALE_HEADER,
  localeOfCountry,
  resolveLocale,
  supportedLocale,
} from '@/server/lib/i18n/locales';
import { FAN_ADDRESS_HEADER, getsFanLocale, redeemRedirectFor } from '@/server/modules/fans';
import { eventCountryOfPage, framingOriginsOf } from '@/server/modules/fan-pages';

const templates = compileTemplates(allRoutes);

/**
 * Gives every request an id (the caller's X-Request-Id when sane) and echoes it on every response,
 * including the ones Next.js answers itself. Route handlers read the same header. On /v1, answers in
 * the API's envelope what Next.js would otherwise answer itself: a path whose percent-encoding is not
 * UTF-8 (Next.js fails decoding it with a 500) gets a 400, a known path called with a method it does
 * not have a 405. Elsewhere, bad input Next.js or a page would answer with a 500 (server/http/page-guard.ts)
 * is a 400 or 403 with a branded page, in the fan's language on fan pages. On fan pages, a `token` query parameter (a one-time sign-in token) is sent to
 * /auth/redeem first, and the page's language is chosen (URL `lang`, remembered in a cookie, then the
 * browser, then the event's country on a buy or sell page, then DEFAULT_LANG) and handed to the page in a request header — on fan pages and on the
 * expired-link page under /auth, where tokens are still never redeemed.
 */
export async function proxy(req: NextRequest) {
  const id = requestIdOf(req);
  const { pathname } = req.nextUrl;
  const api = pathname.startsWith('/v1/');
  const nonce = api ? null : newNonce();
  // The pages a partner may embed are framed only by its allowed origins (looked up here, since a page
  // cannot set its own headers; cached, see server/modules/fan-pages/framing.ts); all else by nobody.
  const embeddable = !api && underEmbeddablePrefix(pathname);
  const framers =
    embeddable && (req.method === 'GET' || req.method === 'HEAD')
      ? // A failed look-up refuses framing rather than failing the page.
        await framingOriginsOf(pathname, getDb()).catch(() => [])
      : [];
  const csp = nonce
    ? pageContentSecurityPolicy(nonce, process.env.NODE_ENV === 'development', frameAncestors(framers))
    : API_CONTENT_SECURITY_POLICY;
  const refusal = api ? null : await pageRefusal(req);
  // An anonymous fan's buy page is the one answer shared by everyone asking for its address:
  // Encore's server (server/http/shared-page-render.ts) makes it cacheable; every other answer is private.
  const shared =
    !api &&
    !refusal &&
    sharedPageAddress({
      method: req.method,
      url: `${pathname}${req.nextUrl.search}`,
      header: (name) => req.headers.get(name),
    }) !== null;
  const locale = !refusal && !api && getsFanLocale(pathname) ? await fanPageLocale(req) : null;
  const res = refusal ? refused(req, refusal) : route(req, id, nonce, csp, shared, locale);
  if (!shared && !res.headers.has('cache-control')) res.headers.set('cache-control', PRIVATE_CACHE_CONTROL);
  res.headers.set('x-request-id', id);
  res.headers.set('content-security-policy', csp);
  // next.config.ts leaves X-Frame-Options off these paths: DENY unless the partner's origins may frame it.
  if (embeddable && !framers.length) res.headers.set(FRAME_OPTIONS_DENY.key, FRAME_OPTIONS_DENY.value);
  const hsts = strictTransportSecurity(req.nextUrl.protocol === 'https:', req.headers.get('x-forwarded-proto'));
  if (hsts) res.headers.set('strict-transport-security', hsts);
  return res;
}

/** Bad input outside /v1 that would otherwise be a 500: the address, then a server action's origin, id and body. */
async function pageRefusal(req: NextRequest): Promise<Refusal | null> {
  const address = addressRefusal(req.nextUrl);
  if (address) return address;
  if (!isServerActionPost(req) || req.nextUrl.pathname.startsWith('/api/')) return null;
  return foreignOriginRefusal(req) ?? actionIdRefusal(req) ?? (await actionBodyRefusal(req));
}

/**
 * A fan page's language: what the fan chose (URL `lang`, the remembered cookie, the browser), else the
 * primary language of the country of the event the page is about (a buy or sell page; a failed look-up is
 * none), else DEFAULT_LANG. A shared buy page is asked for with `lang=auto` when nothing of the fan's chose
 * (shared-page-address.ts EVENT_LANG): `auto` is no language, so it lands here too.
 */
async function fanPageLocale(req: NextRequest): Promise<Locale> {
  const chosen = chosenLocale({
    lang: req.nextUrl.searchParams.get('lang'),
    cookie: req.cookies.get(LOCALE_COOKIE)?.value,
    acceptLanguage: req.headers.get('accept-language'),
  });
  if (chosen) return chosen;
  const country = await eventCountryOfPage(req.nextUrl.pathname, getDb()).catch(() => null);
  return localeOfCountry(country) ?? defaultLocale();
}

function refused(req: NextRequest, refusal: Refusal): Response {
  const fanPage = getsFanLocale(req.nextUrl.pathname);
  const locale = resolveLocale({
    lang: req.nextUrl.searchParams.get('lang'),
    cookie: req.cookies.get(LOCALE_COOKIE)?.value,
    acceptLanguage: req.headers.get('accept-language'),
  });
  return refusalPage(refusal, fanPage ? locale : 'en', fanPage);
}

function route(
  req: NextRequest,
  id: string,
  nonce: string | null,
  csp: string,
  shared: boolean,
  locale: Locale | null,
): Response {
  const { pathname } = req.nextUrl;

  if (pathname.startsWith('/v1/')) {
    if (!decodable(pathname)) {
      return errorResponse(
        new AppError('BAD_REQUEST', 'The request path is not valid UTF-8 once percent-decoded', {
          details: [{ path: '', message: 'is not valid UTF-8 once percent-decoded', in: 'path' }],
        }),
        id,
      );
    }
    if (req.method !== 'OPTIONS' && req.method !== 'HEAD') {
      const allowed = allowedMethodsFor(templates, req.method, pathname);
      if (allowed) {
        return errorResponse(
          new AppError(
            'METHOD_NOT_ALLOWED',
            `Method ${req.method} is not allowed on ${pathname}; use ${allowed.join(' or ')}`,
            { headers: { allow: allowed.join(', ') } },
          ),
          id,
        );
      }
    }
  }

  // A fan page opened with a one-time token (`?token=ott_…`) goes through the redeem route first, which
  // signs the fan in and comes back to the same page without the token.
  if (req.method === 'GET' && !pathname.startsWith('/v1/')) {
    const redeem = redeemRedirectFor(req.nextUrl);
    if (redeem) {
      const res = NextResponse.redirect(redeem, 303);
      res.headers.set('cache-control', 'no-store');
      res.headers.set('referrer-policy', 'no-referrer');
      return res;
    }
  }

  const headers = new Headers(req.headers);
  headers.set('x-request-id', id);
  // Next.js reads the policy on the request to give its own scripts the nonce; the layout reads the nonce.
  headers.delete(NONCE_HEADER);
  if (nonce) {
    headers.set('content-security-policy', csp);
    headers.set(NONCE_HEADER, nonce);
  }
  const fanPage = locale !== null;
  const lang = supportedLocale(req.nextUrl.searchParams.get('lang'));
  // A not-found page is handed no address: it reads this one to wear the brand of the partner it names.
  headers.delete(FAN_ADDRESS_HEADER);
  if (fanPage) {
    headers.set(FAN_ADDRESS_HEADER, `${pathname}${req.nextUrl.search}`);
    headers.set(LOCALE_HEADER, locale);
  } else headers.delete(LOCALE_HEADER);
  const res = NextResponse.next({ request: { headers } });
  // A shared page carries no cookie: there the page remembers the language itself (LanguageSwitch).
  if (fanPage && lang && !shared && req.cookies.get(LOCALE_COOKIE)?.value !== lang) {
    res.cookies.set(LOCALE_COOKIE, lang, LOCALE_COOKIE_OPTIONS);
  }
  return res;
}

export const config = {
  // The widget's script (app/widget/v1.js) is a public file partners' pages load: no page policy, its own caching.
  // The buy page's seat map document (fan-pages seat-map.ts) answers its own headers: a policy by hashes,
  // framed by the buy page only.
  matcher: ['/((?!_next/static|_next/image|favicon.ico|widget/v1.js|market/[A-Za-z0-9_]+/map$).*)'],
};
