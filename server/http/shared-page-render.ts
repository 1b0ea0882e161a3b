import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { LRUCache } from 'lru-cache';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { metrics } from '@/server/lib/metrics';
import { shortCache } from '@/server/lib/short-cache';
import { singleFlight } from '@/server/lib/single-flight';
import { BUY_PAGE_HTML, BUY_PAGE_LAYER_MS, PAGE_VERSION_META } from '@/server/lib/freshness';
import { requestIdFrom } from './request-id';
import { SHARED_PAGE_CACHE_CONTROL, SHARED_PAGE_VARY } from './shared-page-address';

/**
 * The shared buy page as sent: the answer every anonymous fan asking for one address gets,
 * made cacheable by any shared HTTP cache — the reference edge (edge/nginx.conf), a CDN, and, for the
 * one-instance default, this process itself.
 *
 * Encore's own HTTP server (server/start.ts) asks Next.js for the page over loopback, as a cache in front
 * of it would (a "fill", marked with FILL_HEADER and this process's secret), and reads it whole before
 * the first byte goes out (why over loopback: docs/architecture.md "The buy page under a rush"). Then:
 * - the Content Security Policy stays strict without a nonce in the stored bytes: the inline scripts of the
 *   render that carry the render's nonce (Next.js's own; markup injected into the page cannot know it) are
 *   allowed by their SHA-256 hashes instead, and `script-src` keeps `'self'` for Next.js's script files
 *   (docs/decisions.md "The rush through a shared cache" says why not `'strict-dynamic'`);
 * - it says `Cache-Control: public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=60`
 *   (SHARED_PAGE_CACHE_CONTROL: fresh 1 s, stale 1 s more while one refresh runs, a minute while the origin
 *   fails) and its Vary, and it never carries a cookie (the proxy sets none on a shared page; an answer with one is not shared);
 * - each fan's answer gets its own X-Request-Id; the body is the same bytes for everyone (gzip made once).
 * With `keep` (the default when no shared cache stands in front, EDGE_CACHE=false), the page is also kept
 * here for BUY_PAGE_LAYER_MS in a bounded LRU (short-cache.ts), one render per address at a time; a
 * committed listing write in this process forgets it (fan-pages reacts to listingsChanged).
 *
 * Kept fresh without renders while it holds: the page stamps the version of the model it was drawn from
 * (fan-pages buy-page-model.ts), sent as a weak ETag with the build's id. A cache's revalidation
 * (If-None-Match, as the reference edge sends with `proxy_cache_revalidate`) is answered 304 when the model
 * read now has that version — a render now would draw the same page — and a page kept here is kept on the
 * same terms when its third of a second is up. A render happens only when the page would change.
 */

/** The request header of a fill; its value is this process's secret, so no client can pass for one. */
export const FILL_HEADER = 'x-encore-fill';

/** A page kept is at most this big (a buy page is ~80–200 KB); a bigger answer is sent, not shared. */
const MAX_BYTES = 1_000_000;
const gzip = promisify(zlib.gzip);

export interface SharedPage {
  headers: http.OutgoingHttpHeaders;
  body: Buffer;
  gzipped: Buffer;
  /** The page's ETag (the build and the version of the model it was drawn from); null when it stamped none. */
  etag: string | null;
}

/** What Next.js answered a fill, as received. */
interface Filled {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  shared: SharedPage | null;
}

/** Headers of a fill's answer that belong to its connection: never passed on as they came. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'content-length'];
/** Headers of a fill's answer that are the connection's or the one answer's, never a shared page's. */
const NOT_SHARED = new Set([
  ...HOP_BY_HOP,
  'date',
  'content-encoding',
  'x-request-id',
  'cache-control',
  'vary',
  'set-cookie',
  'x-nextjs-cache',
  'x-nextjs-prerender',
  'x-nextjs-stale-time',
  'etag',
]);
/** The request headers a fill passes on: what the key holds besides the path, and the fan's request id for the logs. */
const FORWARDED = ['host', 'x-forwarded-proto', 'x-forwarded-host', 'x-request-id'];

const pages = () =>
  shortCache<SharedPage | null>(BUY_PAGE_HTML, BUY_PAGE_LAYER_MS, {
    maxEntries: 1000,
    maxBytes: 64 * 1024 * 1024,
    sizeOf: (page) => (page ? page.body.length + page.gzipped.length : 1),
  });

export interface SharedPagesOptions {
  /** The port this process's server listens on (known once it listens). */
  port: () => number;
  /** Keep pages in this process (no shared cache in front). */
  keep: boolean;
  /**
   * The version of the page at a canonical address as a render now would stamp it (null: no shared page
   * there, or not known). Without it every page is rendered again when its time is up.
   */
  version?: (path: string) => Promise<string | null>;
  /** The build's id (a page of another build is another page, whatever its model). */
  buildId?: string;
}

export interface SharedPages {
  /** The secret a fill carries in FILL_HEADER. */
  readonly secret: string;
  /** Answers an anonymous fan's request for the shared page at `path` (shared-page-address.ts's canonical address). */
  answer(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void>;
}

/** Asks Next.js (through this process's own server) for the page, and reads it whole. */
function filler(
  options: SharedPagesOptions,
  secret: string,
): (req: http.IncomingMessage, path: string) => Promise<Filled> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  return function fill(req: http.IncomingMessage, path: string): Promise<Filled> {
    // The page is made from its address and the host it is served under, never from the fan who asked
    // first: no cookie, no client address, no language header (the address says the language).
    const headers: http.OutgoingHttpHeaders = { accept: 'text/html', 'user-agent': 'Encore shared page' };
    for (const name of FORWARDED) if (req.headers[name] !== undefined) headers[name] = req.headers[name];
    headers[FILL_HEADER] = secret;
    metrics().sharedPageRenders.inc();
    return new Promise((resolve, reject) => {
      const ask = http.request(
        { host: '127.0.0.1', port: options.port(), method: 'GET', path, headers, agent },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('error', reject);
          answer.on('end', () => {
            const body = Buffer.concat(chunks);
            const filled = { status: answer.statusCode ?? 502, headers: answer.headers, body };
            void shareable(filled, options.buildId ?? '').then((shared) => resolve({ ...filled, shared }), reject);
          });
        },
      );
      ask.on('error', reject);
      ask.end();
    });
  };
}

export function sharedPages(options: SharedPagesOptions): SharedPages {
  const secret = randomBytes(24).toString('base64url');
  const fill = filler(options, secret);

  // The reads a crowd of fans at one address would each make, made once for all who ask while one runs:
  // when a shared cache in front lets many requests through at once (its copy expired while its refresh ran
  // long), each costs the origin a wait, not a model read or a render (docs/architecture.md).
  const versionReads = singleFlight<string | null>();
  const renders = singleFlight<Filled>();

  /** The ETag a page at `path` would have if rendered now; null when not known (an error is not a match). */
  async function currentEtag(path: string): Promise<string | null> {
    const { version } = options;
    if (!version) return null;
    const read = await versionReads(path, () => version(path).catch(() => null)).answer;
    return read ? etagOf(options.buildId ?? '', read) : null;
  }

  /**
   * A render of the page for this fan: in this process's keep (one per address already), its own; otherwise
   * the render in flight for the same key if there is one. An answer that is not a page to share and sets a
   * cookie was made for the fan who asked first: whoever joined it gets a render of their own.
   */
  async function render(req: http.IncomingMessage, path: string, key: string): Promise<Filled> {
    if (options.keep) return fill(req, path);
    const { answer, joined } = renders(key, () => fill(req, path));
    const filled = await answer;
    return joined && !filled.shared && filled.headers['set-cookie'] ? fill(req, path) : filled;
  }

  /** The last page made for each key (bounded like the pages kept), to keep when its model has not changed. */
  const last = new LRUCache<string, SharedPage>({
    max: 1000,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (page) => Math.max(1, page.body.length + page.gzipped.length),
  });

  return {
    secret,
    async answer(req, res, path) {
      const key = [path, req.headers.host, req.headers['x-forwarded-proto'], req.headers['x-forwarded-host']].join(
        '\n',
      );
      try {
        // A cache (or a browser) asking whether its copy is still the page: yes when the model has not changed.
        const asked = req.headers['if-none-match'];
        if (asked) {
          const etag = await currentEtag(path);
          if (etag && etagMatches(asked, etag)) {
            metrics().sharedPagesUnchanged.inc();
            return notModified(etag, req, res);
          }
        }
        let own: Promise<Filled> | undefined;
        const read = async () => {
          const kept = options.keep ? last.get(key) : undefined;
          if (kept?.etag && kept.etag === (await currentEtag(path))) {
            metrics().sharedPagesUnchanged.inc();
            return kept;
          }
          own = render(req, path, key);
          const filled = await own;
          if (options.keep && filled.shared) last.set(key, filled.shared);
          return filled.shared;
        };
        const page = await (options.keep ? pages().get(key, read) : read()).catch(() => null);
        if (own) {
          const filled = await own;
          return filled.shared ? send(filled.shared, req, res) : sendAsIs(filled, res);
        }
        if (page) return send(page, req, res);
        // The render this fan waited for was not to be shared (a cookie, an error): one of its own.
        const filled = await fill(req, path);
        return filled.shared ? send(filled.shared, req, res) : sendAsIs(filled, res);
      } catch {
        if (res.headersSent || res.destroyed) return;
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '1' });
        res.end('The page could not be made just now. Please try again.');
      }
    },
  };
}

/** The page as it may be shared, or null when the answer was a person's, not a page, or not a success. */
async function shareable(filled: Omit<Filled, 'shared'>, buildId: string): Promise<SharedPage | null> {
  const { status, headers, body } = filled;
  if (status !== 200 || headers['content-encoding'] || headers['set-cookie'] || body.length > MAX_BYTES) return null;
  if (!String(headers['content-type'] ?? '').startsWith('text/html')) return null;
  const policy = headers['content-security-policy'];
  const nonce = typeof policy === 'string' ? /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1] : undefined;
  if (!policy || !nonce) return null;
  const html = body.toString('utf8');
  const kept: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!NOT_SHARED.has(name)) kept[name] = value;
  kept['content-security-policy'] = hashedPolicy(String(policy), html, nonce);
  kept['cache-control'] = SHARED_PAGE_CACHE_CONTROL;
  kept.vary = SHARED_PAGE_VARY;
  const version = stampedVersion(html);
  const etag = version ? etagOf(buildId, version) : null;
  if (etag) kept.etag = etag;
  return { headers: kept, body, gzipped: await gzip(body, { level: 6 }), etag };
}

/** The version a page stamped into its HTML (`<meta name="encore-page-version" content="…">`), if any. */
function stampedVersion(html: string): string | null {
  return new RegExp(`<meta name="${PAGE_VERSION_META}" content="([A-Za-z0-9_-]{1,64})"`).exec(html)?.[1] ?? null;
}

/**
 * A weak ETag: the identity and gzip bodies of one page are the same page (RFC 9110 8.8.1), and nginx makes a
 * strong one weak anyway when it (un)compresses.
 */
function etagOf(buildId: string, version: string): string {
  return `W/"${buildId.replace(/[^A-Za-z0-9_-]/g, '')}.${version}"`;
}

/** If-None-Match's weak comparison (RFC 9110 13.1.2): any listed tag, `W/` or not, or `*`. */
function etagMatches(header: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}

/** "Your copy is the page": the shared page's caching headers again, so a cache keeps it for another window. */
function notModified(etag: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(304, {
    'cache-control': SHARED_PAGE_CACHE_CONTROL,
    vary: SHARED_PAGE_VARY,
    etag,
    'x-request-id': requestIdFrom(req.headers['x-request-id']),
  });
  res.end();
}

/**
 * The render's policy with its nonce replaced by the hashes of the inline scripts that carried the nonce:
 * exactly the scripts Next.js rendered are allowed, and nothing injected into the page (which could not
 * know the nonce, made for this render after the page's data was read) is. `'strict-dynamic'` goes with
 * the nonce: Next.js's own script files are allowed by `'self'`.
 */
export function hashedPolicy(policy: string, html: string, nonce: string): string {
  const hashes = new Set<string>();
  for (const script of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const [, attributes, text] = script;
    if (/\bsrc\s*=/i.test(attributes) || !attributes.includes(`nonce="${nonce}"`)) continue;
    hashes.add(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
  }
  return policy
    .split(';')
    .map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      if (name !== 'script-src') return directive.trim();
      const kept = sources.filter((s) => !s.startsWith("'nonce-") && s !== "'strict-dynamic'");
      return [name, ...kept, ...hashes].join(' ');
    })
    .join('; ');
}

/** One fan's answer from a shared page: its own request id, compressed when the fan takes gzip. */
function send(page: SharedPage, req: http.IncomingMessage, res: http.ServerResponse): void {
  if (res.destroyed || res.writableEnded) return;
  const gzipped = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = gzipped ? page.gzipped : page.body;
  res.writeHead(200, {
    ...page.headers,
    ...(gzipped ? { 'content-encoding': 'gzip' } : {}),
    'content-length': body.length,
    'x-request-id': requestIdFrom(req.headers['x-request-id']),
  });
  res.end(body);
}

/** An answer that is not to be shared, sent to the one fan it was made for, as Next.js made it. */
function sendAsIs(filled: Filled, res: http.ServerResponse): void {
  if (res.destroyed || res.writableEnded) return;
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(filled.headers)) {
    if (!HOP_BY_HOP.includes(name)) headers[name] = value;
  }
  headers['content-length'] = filled.body.length;
  res.writeHead(filled.status, headers);
  res.end(filled.body);
}

/** Whether a request is a fill of this process (its secret in FILL_HEADER); the header is removed either way. */
export function takeFillMark(req: http.IncomingMessage, secret: string): boolean {
  const mark = req.headers[FILL_HEADER];
  delete req.headers[FILL_HEADER];
  return mark === secret;
}
