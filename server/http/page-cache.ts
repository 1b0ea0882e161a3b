import type http from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { shortCache } from '@/server/lib/short-cache';
import { LOCALE_COOKIE } from '@/server/lib/i18n/locales';
import { BUY_PAGE_HTML, BUY_PAGE_LAYER_MS } from '@/server/modules/fan-pages';
import { requestIdFrom } from './request-id';
import { newNonce } from './security-headers';

/**
 * The buy page as sent, shared for BUY_PAGE_LAYER_MS by the anonymous fans asking for the same address
 * (issue 34). In an on-sale rush a few hundred fans a second ask for a few dozen addresses of one show (its
 * pages and filters); each address is rendered once per window, the fans who arrive while it renders wait
 * for that render, and the ones after it get its bytes. React's render and payload were most of the page's
 * cost, so the rush is served at the rate of a cache, not of renders.
 *
 * What makes a stored page safe to send to another fan:
 * - only a request that carries nothing of a person: no cookie but the remembered language (so no fan
 *   session), no Authorization, no one-time `token`, not one of the router's own requests (RSC, prefetch,
 *   server action). Everything else the page depends on is the address and the headers in the key;
 * - only a plain 200 HTML answer whose only cookie is the language the address itself chose (`?lang=`);
 * - each answer gets a fresh CSP nonce (the stored page's is replaced in the body and in the policy) and
 *   its own X-Request-Id.
 * Freshness: offers, answers and pages each keep a third of BUY_PAGE_OFFERS_MS (offers-cache.ts), so an
 * offer held or sold elsewhere is shown as buyable at most that long; a listing write in this process
 * forgets all three at once.
 */

/** A page kept is at most this big, and at most MAX_PAGES are kept (~80 KB each: the memory stays small). */
const MAX_BYTES = 512_000;
const MAX_PAGES = 200;
const gzip = promisify(zlib.gzip);

interface StoredPage {
  headers: http.OutgoingHttpHeaders;
  /** The body cut at every occurrence of its nonce, to be joined with a fresh one. */
  parts: string[];
  nonce: string;
}

const pages = () =>
  shortCache<StoredPage | null>(BUY_PAGE_HTML, BUY_PAGE_LAYER_MS, {
    maxEntries: MAX_PAGES,
    maxBytes: 32 * 1024 * 1024,
    sizeOf: (page) => (page ? page.parts.reduce((n, part) => n + part.length, 0) : 1),
  });

/** The buy page itself: /market/<event>, with any query. */
const BUY_PAGE = /^\/market\/[^/?#]+(\?|$)/;
const ROUTER_HEADERS = [
  'rsc',
  'next-action',
  'next-router-state-tree',
  'next-router-prefetch',
  'next-router-segment-prefetch',
];

/** The key under which a request's page may be shared, or null when the request must be rendered for itself. */
export function pageCacheKey(req: http.IncomingMessage): string | null {
  const url = req.url ?? '';
  if (req.method !== 'GET' || !BUY_PAGE.test(url)) return null;
  const h = req.headers;
  if (h.authorization || ROUTER_HEADERS.some((name) => h[name] !== undefined)) return null;
  if (/[?&](token|_rsc)=/.test(url)) return null;
  // The one cookie a page may be shared with: the remembered language (part of the key); any other is a person's.
  const cookies = (h.cookie ?? '')
    .split(';')
    .map((c) => c.trim())
    .filter(Boolean);
  if (cookies.some((c) => !c.startsWith(`${LOCALE_COOKIE}=`))) return null;
  const parts = [url, h.host, h['accept-language'], h['x-forwarded-proto'], h['x-forwarded-host'], cookies.join('; ')];
  return parts.map((v) => v ?? '').join('\n');
}

/**
 * Answers the request under `key`: from the stored page, or by waiting for the render in progress for the
 * same key, or by rendering it (`render` hands the request to Next.js) and storing what was sent.
 */
export function answerFromPageCache(
  key: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  render: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): void {
  let mine = false;
  const page = pages().get(key, () => {
    mine = true;
    return capture(req, res, render);
  });
  if (mine) return;
  page.then(
    (stored) => (stored ? send(stored, req, res) : render(req, res)),
    () => render(req, res),
  );
}

/** Forgets every stored page: what a committed listing write does (fan-pages reacts to listingsChanged; same cache, by name). */
export function forgetPages(): void {
  pages().forget();
}

/** Renders the request, recording what is sent; resolves to the page when it may be shared, else null. */
function capture(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  render: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<StoredPage | null> {
  // Stored uncompressed (the nonce is replaced in it); each answer is compressed for its own client.
  delete req.headers['accept-encoding'];
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let given: http.OutgoingHttpHeaders = {};
    let shareable = true;
    const add = (chunk: unknown, encoding: unknown) => {
      if (chunk == null || typeof chunk === 'function') return;
      const bytes =
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : chunk instanceof Uint8Array
            ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
            : null;
      if (!bytes) shareable = false;
      else if ((size += bytes.length) > MAX_BYTES) shareable = false;
      else chunks.push(Buffer.from(bytes));
    };
    const writeHead = res.writeHead;
    const write = res.write;
    const end = res.end;
    res.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
      const headers = args.find((a, i) => i > 0 && a && typeof a === 'object');
      if (Array.isArray(headers)) shareable = false;
      else if (headers) given = { ...given, ...(headers as http.OutgoingHttpHeaders) };
      return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
    } as typeof res.writeHead;
    res.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
      add(chunk, rest[0]);
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof res.write;
    res.end = function (this: http.ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      add(chunk, rest[0]);
      return (end as (...a: unknown[]) => http.ServerResponse).call(this, chunk, ...rest);
    } as typeof res.end;
    // Sent whole ('finish'): the page may be shared; the client gone first ('close' alone): it may not.
    let done = false;
    const settle = (finished: boolean) => {
      if (done) return;
      done = true;
      res.writeHead = writeHead;
      res.write = write;
      res.end = end;
      resolve(shareable && finished ? stored(res.statusCode, { ...res.getHeaders(), ...lower(given) }, chunks) : null);
    };
    res.once('finish', () => settle(true));
    res.once('close', () => settle(false));
    render(req, res);
  });
}

function lower(headers: http.OutgoingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** The page as it may be shared, or null when the answer was personal, not a page, or not a success. */
function stored(status: number, headers: http.OutgoingHttpHeaders, chunks: Buffer[]): StoredPage | null {
  if (status !== 200 || headers['content-encoding']) return null;
  if (!String(headers['content-type'] ?? '').startsWith('text/html')) return null;
  const cookies = [headers['set-cookie'] ?? []].flat().map(String);
  if (cookies.some((c) => !c.startsWith(`${LOCALE_COOKIE}=`))) return null;
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(String(headers['content-security-policy'] ?? ''))?.[1];
  if (!nonce) return null;
  const kept = { ...headers };
  for (const name of ['content-length', 'transfer-encoding', 'date', 'connection', 'keep-alive', 'x-request-id']) {
    delete kept[name];
  }
  return { headers: kept, parts: Buffer.concat(chunks).toString('utf8').split(nonce), nonce };
}

/** One answer from a stored page: a fresh nonce and request id, compressed when the client takes gzip. */
async function send(page: StoredPage, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (res.destroyed || res.writableEnded) return;
  const nonce = newNonce();
  const headers: http.OutgoingHttpHeaders = {
    ...page.headers,
    'content-security-policy': String(page.headers['content-security-policy']).split(page.nonce).join(nonce),
    'x-request-id': requestIdFrom(req.headers['x-request-id']),
  };
  let body = Buffer.from(page.parts.join(nonce), 'utf8');
  if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    body = await gzip(body, { level: 1 });
    headers['content-encoding'] = 'gzip';
    headers.vary = [headers.vary, 'Accept-Encoding'].flat().filter(Boolean).join(', ');
  }
  if (res.destroyed || res.writableEnded) return;
  headers['content-length'] = body.length;
  res.writeHead(200, headers);
  res.end(body);
}
