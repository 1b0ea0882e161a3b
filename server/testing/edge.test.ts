import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyAnswerHeaders, OUTAGE_PAGE_POLICY } from '@/server/http/listener';
import { errorBody } from '@/server/http/envelope';
import { outageDocument } from '@/server/http/page-guard';
import { strictTransportSecurity } from '@/server/http/security-headers';
import { EVENT_LANG, pageLang, requestLocale, SHARED_PAGE_CACHE_CONTROL } from '@/server/http/shared-page-address';
import { OUTAGE_RETRY_AFTER_S } from '@/server/lib/db-faults';
import { databaseUnavailable } from '@/server/lib/errors';
import { LOCALES } from '@/server/lib/i18n/locale-codes';
import { buyPageSort, requestedPage, wantedQuantity } from '@/server/modules/fan-pages';
import { type Edge, renderEdgeConfig, startEdge } from './edge';

/*
 * The reference edge (edge/nginx.conf in Debian's nginx) in front of a fake origin that answers like
 * Encore does: an anonymous buy page shareable for a second, a person's page private. What is checked is
 * what a shared cache can get wrong: how many renders reach the origin, what address the origin is asked
 * for, and whose page a fan is given. No assertion rests on a tight timing: the machine may be busy, so the
 * tests poll with generous deadlines and compare orders and counts.
 */

/** What Encore sends with a shared buy page: fresh 1 s, stale-while-revalidate 1 s, stale-if-error 60 s. */
const SHAREABLE = SHARED_PAGE_CACHE_CONTROL;
/**
 * For the events named `steady-…`: the same page kept a minute, for the tests that look at one entry
 * over several requests (with a 1 s entry a refresh could fall between two of them and make a count
 * depend on the clock).
 */
const SHAREABLE_STEADY = SHAREABLE.replace('s-maxage=1,', 's-maxage=60,');
/**
 * For the events named `sie-…`: a stale-if-error of 3 s instead of 60, so that a test sees it run out. Counted
 * from the end of the page's second, it still ends at least 3 s after the render, a second past where
 * stale-while-revalidate alone would have stopped (2 s), whatever the fraction of the second it was made in.
 */
const SHAREABLE_BRIEF_ERRORS = SHAREABLE.replace('stale-if-error=60', 'stale-if-error=3');
const PRIVATE = 'private, no-cache, no-store, max-age=0, must-revalidate';
const PERSON_HEADERS = ['authorization', 'rsc', 'next-action', 'next-router-state-tree', 'next-router-prefetch'];

/** What the fake origin writes into every page, to tell which render a fan was given. */
interface PageMarker {
  render: number;
  url: string;
  lang: string;
  /** Who the page was rendered for: `anonymous`, or the signed-in fan. */
  fan: string;
  born: number;
}

interface OriginRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The ETag answered (`etag-…` pages). */
  etag?: string;
}

/** Encore as the edge sees it, over real HTTP: counts what it is asked and can hold a page's renders. */
class FakeOrigin {
  readonly requests: OriginRequest[] = [];
  readonly renders: PageMarker[] = [];
  private readonly held = new Map<string, { released: Promise<void>; release: () => void }>();
  /** Renders in progress and the most at once, by path. */
  private readonly inFlight = new Map<string, number>();
  readonly maxInFlight = new Map<string, number>();
  /** For the events named `etag-…`: the version of each page's data (Encore's model version), by path. */
  readonly versions = new Map<string, number>();
  /** The 304s answered: to which path, and when (ms). */
  readonly unchanged: { path: string; at: number }[] = [];
  /** What the origin answers instead of a page, by path: a redirect, a 404, its own 500. */
  readonly overrides = new Map<string, { status: number; headers: http.OutgoingHttpHeaders; body: string }>();

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<FakeOrigin> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = new FakeOrigin(server);
    server.on('request', (req, res) => void origin.answer(req, res));
    return origin;
  }

  get address(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The requests the origin received for exactly this path and query. */
  count(url: string): number {
    return this.requests.filter((r) => r.url === url).length;
  }

  /** The requests for a path, whatever their query. */
  requestsFor(path: string): OriginRequest[] {
    return this.requests.filter((r) => r.url === path || r.url.startsWith(`${path}?`));
  }

  /** Renders of `path` wait until the returned function is called. */
  hold(path: string): () => void {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    this.held.set(path, { released, release });
    return () => {
      this.held.delete(path);
      release();
    };
  }

  async close(): Promise<void> {
    for (const { release } of this.held.values()) release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const request: OriginRequest = { method: req.method ?? 'GET', url, headers: req.headers };
    this.requests.push(request);
    const address = new URL(url, 'http://origin.test');
    const path = address.pathname;
    const inFlight = (this.inFlight.get(path) ?? 0) + 1;
    this.inFlight.set(path, inFlight);
    this.maxInFlight.set(path, Math.max(this.maxInFlight.get(path) ?? 0, inFlight));
    await this.held.get(path)?.released;
    this.inFlight.set(path, (this.inFlight.get(path) ?? 1) - 1);

    const override = this.overrides.get(path);
    if (override) {
      res.writeHead(override.status, override.headers);
      res.end(override.body);
      return;
    }
    const fan = this.signedInFan(req, address);
    // As Encore does: a revalidation of a page whose data has not changed is a 304, not a render.
    const etag = path.startsWith('/market/etag-') ? `W/"build.${this.versions.get(path) ?? 1}"` : undefined;
    request.etag = etag;
    if (!fan && etag && req.headers['if-none-match'] === etag) {
      this.unchanged.push({ path, at: Date.now() });
      res.writeHead(304, { 'cache-control': SHAREABLE, etag });
      res.end();
      return;
    }
    const marker: PageMarker = {
      render: this.renders.length + 1,
      url,
      lang: address.searchParams.get('lang') ?? 'en',
      fan: fan ?? 'anonymous',
      born: Date.now(),
    };
    this.renders.push(marker);
    const event = path.split('/')[2] ?? '';
    const cacheControl =
      fan || req.method !== 'GET' || !path.startsWith('/market/') || event.startsWith('private-')
        ? PRIVATE
        : event.startsWith('steady-')
          ? SHAREABLE_STEADY
          : event.startsWith('sie-')
            ? SHAREABLE_BRIEF_ERRORS
            : SHAREABLE;
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': cacheControl,
      vary: 'Accept-Encoding, Accept-Language, Cookie',
      ...(etag && !fan ? { etag } : {}),
    });
    // Over gzip_min_length, so that the compression path is the one a real page takes.
    res.end(`<!doctype html><p id="page">${JSON.stringify(marker)}</p>${'<div>offer</div>'.repeat(200)}`);
  }

  /** Who the request is from, the way Encore decides a page is a person's: null when anonymous. */
  private signedInFan(req: http.IncomingMessage, address: URL): string | null {
    const cookies = (req.headers.cookie ?? '')
      .split(';')
      .map((c) => c.trim())
      .filter(Boolean);
    const session = cookies.find((c) => c.startsWith('encore_fan='));
    if (session) return session.slice('encore_fan='.length);
    if (req.method !== 'GET' && req.method !== 'HEAD') return 'someone';
    if (cookies.some((c) => !c.startsWith('encore_lang='))) return 'someone';
    if (PERSON_HEADERS.some((h) => req.headers[h] !== undefined)) return 'someone';
    if (address.searchParams.has('token') || address.searchParams.has('_rsc')) return 'someone';
    return null;
  }
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Decompressed. */
  body: string;
  page: PageMarker;
  cache: string;
  /** When the request was sent (ms). */
  sentAt: number;
  /** When its last byte arrived (ms). */
  receivedAt: number;
}

let origin: FakeOrigin;
let edge: Edge;
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One request to the edge, on a kept-alive connection unless `newConnection`: nginx keeps the connection of
 * the request that started a background refresh busy until that refresh ends, so a test holding a refresh
 * asks on new connections.
 */
function get(
  path: string,
  headers: http.OutgoingHttpHeaders = {},
  { method = 'GET', newConnection = false, base = edge.url } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sentAt = Date.now();
    const req = http.request(
      `${base}${path}`,
      { method, agent: newConnection ? false : agent, headers: { 'accept-encoding': 'gzip', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const body = (res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw) : raw).toString('utf8');
          const json = /<p id="page">(.*?)<\/p>/.exec(body)?.[1];
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            page: json ? (JSON.parse(json) as PageMarker) : ({} as PageMarker),
            cache: String(res.headers['x-cache-status'] ?? ''),
            sentAt,
            receivedAt: Date.now(),
          });
        });
      },
    );
    req.on('error', reject);
    // A clear failure rather than the test's own timeout when the edge keeps a fan waiting.
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${method} ${path} within 10 s`)));
    req.end();
  });
}

/** Polls `check` until it holds; fails after `ms` (generous: the machine may be busy). */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Asks for `path` again and again, one request at a time, until `done` holds of an answer; returns them all. */
async function askUntil(
  path: string,
  done: (answer: Answer) => boolean,
  options: { headers?: http.OutgoingHttpHeaders; base?: string; ms?: number } = {},
): Promise<Answer[]> {
  const answers: Answer[] = [];
  await until(
    `${path} to be answered as expected`,
    async () => {
      const answer = await get(path, options.headers, { base: options.base });
      answers.push(answer);
      return done(answer);
    },
    options.ms,
  );
  return answers;
}

/**
 * The freshness bound (edge/nginx.conf): a page is fresh until the end of the second it reached the edge in,
 * then served stale for at most one second more while a refresh runs (Encore's stale-while-revalidate=1):
 * never to a fan who asks 2 s after its render began or later, plus the render. The fake origin renders at
 * once; this allows half a second for the page's way from the origin into the cache on a busy machine (it
 * may reach the edge in the next second).
 */
const FRESHNESS_BOUND_MS = 2000;
const HOP_MS = 500;

beforeAll(async () => {
  origin = await FakeOrigin.start();
  // No nginx is a failure, not a skip: CI installs it first (.ci/ensure-nginx.sh).
  edge = await startEdge({ upstreams: [origin.address] });
});

afterAll(async () => {
  agent.destroy();
  await edge?.stop();
  await origin?.close();
});

describe('the edge configuration template', () => {
  it('is rendered with every placeholder filled, one server line per instance', () => {
    const text = renderEdgeConfig({
      listen: '127.0.0.1:8080',
      upstreams: ['127.0.0.1:3001', '10.0.0.2:3001'],
      prefix: '/tmp/edge-x',
    });
    // Filled in every directive (the comments keep naming the placeholders).
    const directives = text.split('\n').filter((line) => !line.trimStart().startsWith('#'));
    expect(directives.join('\n')).not.toMatch(/\{\{/);
    expect(text).toContain('listen 127.0.0.1:8080;');
    expect(text).toMatch(/server 127\.0\.0\.1:3001;\s+server 10\.0\.0\.2:3001;\s+keepalive 64;/);
    expect(text).toContain('proxy_cache_path /tmp/edge-x/cache ');
    // njs: Debian's module (NGINX_MODULES_PATH, or `modules`, elsewhere) and the edge's code beside the template.
    expect(
      renderEdgeConfig({
        listen: '127.0.0.1:8080',
        upstreams: ['127.0.0.1:3001'],
        prefix: '/tmp/x',
        modules: '/opt/m/',
      }),
    ).toMatch(/^load_module \/opt\/m\/ngx_http_js_module\.so;$/m);
    expect(text).toContain(`js_import edge from ${process.cwd()}/edge/edge.js;`);
  });

  it('refuses values that would write other directives into it', () => {
    const values = { listen: '127.0.0.1:8080', upstreams: ['127.0.0.1:3001'], prefix: '/tmp/edge-x' };
    expect(() => renderEdgeConfig({ ...values, upstreams: ['127.0.0.1:1; include /etc/passwd'] })).toThrow(/host:port/);
    expect(() => renderEdgeConfig({ ...values, upstreams: [] })).toThrow(/at least one/);
    expect(() => renderEdgeConfig({ ...values, prefix: '/tmp/x; y' })).toThrow(/plain absolute path/);
    expect(() => renderEdgeConfig({ ...values, listen: '80; include x' })).toThrow(/listen/);
    expect(() => renderEdgeConfig({ ...values, modules: '/usr/lib; include x' })).toThrow(/plain absolute path/);
  });
});

describe('the edge in front of the origin', () => {
  it('renders a page once for 20 fans asking for it at the same time', async () => {
    const release = origin.hold('/market/steady-a');
    const answers = Array.from({ length: 20 }, () => get('/market/steady-a?show=1'));
    await until('the origin to be asked', () => origin.requestsFor('/market/steady-a').length > 0);
    release();
    const all = await Promise.all(answers);
    expect(origin.count('/market/steady-a?lang=auto&show=1')).toBe(1);
    expect(origin.requestsFor('/market/steady-a')).toHaveLength(1);
    expect(all.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(all.map((a) => a.page.render)).size).toBe(1);
    // The one that rendered it, and 19 that waited for it (cache lock) and were given the stored page.
    expect(all.filter((a) => a.cache === 'MISS')).toHaveLength(1);
    expect(all.filter((a) => a.cache === 'HIT')).toHaveLength(19);
  });

  it('keeps one copy for fans with and without gzip, unzipping it for the latter', async () => {
    const plain = await get('/market/steady-z', { 'accept-encoding': 'identity' });
    const zipped = await get('/market/steady-z');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.cache).toBe('HIT');
    expect(plain.body).toBe(zipped.body);
    expect(origin.requestsFor('/market/steady-z')).toHaveLength(1);
    // Whatever the fan accepts, the origin is asked for gzip (one stored form for everyone).
    expect(origin.requestsFor('/market/steady-z')[0]?.headers['accept-encoding']).toBe('gzip');
  });

  it('shares the plain address with its tracking variants and asks the origin for the canonical query', async () => {
    const plain = await get('/market/steady-b');
    const variants = await Promise.all(
      [
        '/market/steady-b?utm_source=x&fbclid=y&gclid=z&foo=1',
        '/market/steady-b?utm_medium=email',
        '/market/steady-b?gclid=abc&',
      ].map((path) => get(path)),
    );
    expect(plain.cache).toBe('MISS');
    expect(variants.map((a) => a.cache)).toEqual(['HIT', 'HIT', 'HIT']);
    expect(variants.map((a) => a.page.render)).toEqual(Array(3).fill(plain.page.render));
    expect(origin.requestsFor('/market/steady-b').map((r) => r.url)).toEqual(['/market/steady-b?lang=auto']);

    // The parameters the page reads, in any order, make one key and reach the origin in a fixed order.
    const a = await get('/market/steady-b?page=2&utm_source=x&show=7');
    const b = await get('/market/steady-b?show=7&page=2');
    expect([a.cache, b.cache]).toEqual(['MISS', 'HIT']);
    expect(origin.count('/market/steady-b?lang=auto&show=7&page=2')).toBe(1);
  });

  it('does not let ?SHOW=2 poison ?show=2 (parameter names are matched as the app reads them)', async () => {
    const upper = await get('/market/steady-c?SHOW=2');
    const lower = await get('/market/steady-c?show=2');
    expect(upper.cache).toBe('MISS');
    expect(lower.cache).toBe('MISS');
    expect(origin.requestsFor('/market/steady-c').map((r) => r.url)).toEqual([
      '/market/steady-c?lang=auto',
      '/market/steady-c?lang=auto&show=2',
    ]);
    expect(lower.page.render).not.toBe(upper.page.render);
    expect(lower.page.url).toBe('/market/steady-c?lang=auto&show=2');
  });

  it('never stores a signed-in fan’s page nor gives one fan’s page to another', async () => {
    const anonymous = await get('/market/steady-d?show=1');
    expect(anonymous.cache).toBe('MISS');

    // A session cookie: to the origin as it came (original address, cookies), every time.
    for (const fan of ['alice', 'alice', 'bob']) {
      const signedIn = await get('/market/steady-d?show=1&utm_source=mail', {
        cookie: `encore_lang=es; encore_fan=${fan}`,
      });
      expect(signedIn.cache).toBe('BYPASS');
      expect(signedIn.page.fan).toBe(fan);
    }
    const sessionRequests = origin.requestsFor('/market/steady-d').filter((r) => r.headers.cookie);
    expect(sessionRequests.map((r) => r.url)).toEqual(Array(3).fill('/market/steady-d?show=1&utm_source=mail'));
    expect(sessionRequests[0]?.headers.cookie).toBe('encore_lang=es; encore_fan=alice');

    // The anonymous page is still the anonymous one.
    const again = await get('/market/steady-d?show=1');
    expect(again.cache).toBe('HIT');
    expect(again.page).toEqual(anonymous.page);

    // Anything else of a person's, or a request that is not a plain read, goes to the origin too.
    const personal: [string, http.OutgoingHttpHeaders, string?][] = [
      ['/market/steady-d?show=1', { cookie: 'foo=1' }],
      ['/market/steady-d?show=1', { cookie: 'encore_lang=en; other=1' }],
      ['/market/steady-d?show=1', { authorization: 'Bearer abc' }],
      ['/market/steady-d?show=1&token=ott_123', {}],
      ['/market/steady-d?show=1&_rsc=x1', {}],
      ['/market/steady-d?show=1', { rsc: '1' }],
      ['/market/steady-d?show=1', { 'next-router-prefetch': '1' }],
      ['/market/steady-d?show=1', { 'next-action': 'a'.repeat(42) }],
      ['/market/steady-d?show=1', {}, 'POST'],
    ];
    for (const [path, headers, method] of personal) {
      const before = origin.requests.length;
      const answer = await get(path, headers, { method });
      // nginx looks nothing up for a POST (only GET and HEAD are cached), so it has no cache status at all.
      expect(answer.cache, `${method ?? 'GET'} ${path} ${JSON.stringify(headers)}`).toBe(method ? '' : 'BYPASS');
      expect(answer.page.fan).toBe('someone');
      expect(origin.requests.slice(before).map((r) => r.url)).toEqual([path]);
    }

    // A signed-in fan first on a new address: their page is not stored, the next anonymous fan gets their own.
    const first = await get('/market/steady-d2', { cookie: 'encore_fan=carol' });
    const next = await get('/market/steady-d2');
    expect(first.page.fan).toBe('carol');
    expect(next.cache).toBe('MISS');
    expect(next.page.fan).toBe('anonymous');
  });

  it('keeps a page per language and tells the origin which one', async () => {
    const es = await get('/market/steady-e', { 'accept-language': 'es' });
    const en = await get('/market/steady-e', { 'accept-language': 'en' });
    expect([es.cache, en.cache]).toEqual(['MISS', 'MISS']);
    expect([es.page.lang, en.page.lang]).toEqual(['es', 'en']);
    expect(origin.requestsFor('/market/steady-e').map((r) => r.url)).toEqual([
      '/market/steady-e?lang=es',
      '/market/steady-e?lang=en',
    ]);
    // No cookie and a fixed Accept-Language reach the render: the key holds all it may depend on.
    expect(origin.requestsFor('/market/steady-e').map((r) => [r.headers.cookie, r.headers['accept-language']])).toEqual(
      [
        [undefined, 'es'],
        [undefined, 'en'],
      ],
    );

    // The same language chosen other ways: the address (any case, a region), the remembered cookie, the browser.
    const sameAsEs: [string, http.OutgoingHttpHeaders][] = [
      ['/market/steady-e', { 'accept-language': 'es-AR,es;q=0.9,en;q=0.8' }],
      ['/market/steady-e', { 'accept-language': 'ja-JP, ES;q=0.5' }],
      ['/market/steady-e', { cookie: 'encore_lang=es', 'accept-language': 'en' }],
      ['/market/steady-e?lang=es', { 'accept-language': 'en' }],
      ['/market/steady-e?lang=es_419', {}],
      ['/market/steady-e?lang=ES-ar', { cookie: 'encore_lang=en' }],
    ];
    for (const [path, headers] of sameAsEs) {
      const answer = await get(path, headers);
      expect([answer.cache, answer.page.render], `${path} ${JSON.stringify(headers)}`).toEqual(['HIT', es.page.render]);
    }
    expect(origin.requestsFor('/market/steady-e')).toHaveLength(2);

    // The same bytes for every fan: no cookie (the page remembers a language itself), each its own request id.
    const chosen = await get('/market/steady-e?lang=es');
    const again = await get('/market/steady-e?lang=es');
    expect([chosen.headers['set-cookie'], again.headers['set-cookie']]).toEqual([undefined, undefined]);
    expect(chosen.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(again.headers['x-request-id']).not.toBe(chosen.headers['x-request-id']);
  });

  it('keeps one page in the event’s own language for every fan whose request names none, and asks the origin for it', async () => {
    // Nothing of the fan's names a language Encore speaks: the key and the origin's address say `auto`, the
    // event's own language, which only the origin knows (its country's) and which is the same for all of them.
    const first = await get('/market/steady-auto');
    expect([first.cache, first.page.lang]).toEqual(['MISS', EVENT_LANG]);
    const same: [string, http.OutgoingHttpHeaders][] = [
      ['/market/steady-auto', { 'accept-language': 'ja-JP, ko;q=0.5' }],
      ['/market/steady-auto?lang=xx', { 'accept-language': '*' }],
      ['/market/steady-auto?lang=auto', {}],
      ['/market/steady-auto', { cookie: 'encore_lang=tlh' }],
    ];
    for (const [path, headers] of same) {
      const answer = await get(path, headers);
      expect([answer.cache, answer.page.render], `${path} ${JSON.stringify(headers)}`).toEqual([
        'HIT',
        first.page.render,
      ]);
    }
    expect(origin.requestsFor('/market/steady-auto').map((r) => [r.url, r.headers['accept-language']])).toEqual([
      ['/market/steady-auto?lang=auto', 'auto'],
    ]);
    // A fan who names one gets that page, not the event's.
    const german = await get('/market/steady-auto', { 'accept-language': 'de-AT' });
    expect([german.cache, german.page.lang]).toEqual(['MISS', 'de']);
  });

  it('never stores an answer the origin marks private', async () => {
    const answers = [await get('/market/private-f'), await get('/market/private-f'), await get('/market/private-f')];
    expect(answers.map((a) => a.cache)).toEqual(['MISS', 'MISS', 'MISS']);
    expect(new Set(answers.map((a) => a.page.render)).size).toBe(3);
    expect(origin.requestsFor('/market/private-f')).toHaveLength(3);
  });

  it('passes every other path to the origin as it came, uncached', async () => {
    const a = await get('/market/steady-o/checkout?utm_source=x&SHOW=1');
    const b = await get('/market/steady-o/checkout?utm_source=x&SHOW=1');
    expect([a.cache, b.cache]).toEqual(['', '']);
    expect(origin.requestsFor('/market/steady-o/checkout').map((r) => r.url)).toEqual(
      Array(2).fill('/market/steady-o/checkout?utm_source=x&SHOW=1'),
    );
    const forwarded = origin.requestsFor('/market/steady-o/checkout')[0]!.headers;
    expect(forwarded['x-forwarded-for']).toBe('127.0.0.1');
    expect(forwarded['x-forwarded-proto']).toBe('http');
    expect(forwarded.host).toBe(`127.0.0.1:${edge.port}`);
    expect(forwarded['x-forwarded-host']).toBe(`127.0.0.1:${edge.port}`);
  });

  it('answers from the stale page while one refresh runs, within the freshness bound, then from the new one', async () => {
    const first = await get('/market/fresh-g', {}, { newConnection: true });
    expect(first.cache).toBe('MISS');
    const release = origin.hold('/market/fresh-g');

    // Fresh until the end of the second it was made in; then the first request starts the refresh.
    const hits: Answer[] = [];
    let stale: Answer | undefined;
    await until('the page to expire', async () => {
      const answer = await get('/market/fresh-g', {}, { newConnection: true });
      if (answer.cache === 'HIT') hits.push(answer);
      else stale = answer;
      return stale !== undefined;
    });
    expect(['STALE', 'UPDATING']).toContain(stale!.cache);
    expect(stale!.page.render).toBe(first.page.render);
    // The refresh reached the origin and is held there, yet the fans are answered at once.
    await until('the refresh to reach the origin', () => origin.requestsFor('/market/fresh-g').length === 2);
    const meanwhile = await Promise.all(
      Array.from({ length: 10 }, () => get('/market/fresh-g', {}, { newConnection: true })),
    );
    for (const answer of meanwhile) {
      expect([answer.cache, answer.page.render]).toEqual(['UPDATING', first.page.render]);
      expect(answer.sentAt - first.page.born).toBeLessThan(FRESHNESS_BOUND_MS + HOP_MS);
    }
    // Not past the bound, however long the refresh takes: once Encore's stale-while-revalidate (1 s past the
    // entry's validity) has run out, a fan's request goes to the origin itself (here it waits for the
    // held render like the refresh) instead of being given the old page.
    const pastBound = first.page.born + FRESHNESS_BOUND_MS + HOP_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, pastBound - Date.now())));
    const late = get('/market/fresh-g', {}, { newConnection: true });
    await until('the late fan’s request to reach the origin', () => origin.requestsFor('/market/fresh-g').length === 3);

    release();
    const answered = await late;
    expect(answered.page.render).toBeGreaterThan(first.page.render);
    expect(answered.cache).toBe('EXPIRED');
    let fresh: Answer | undefined;
    await until('the refreshed page', async () => {
      const answer = await get('/market/fresh-g', {}, { newConnection: true });
      if (answer.page.render !== first.page.render) fresh = answer;
      return fresh !== undefined;
    });
    expect(fresh!.page.render).toBeGreaterThan(first.page.render);
    expect(origin.requestsFor('/market/fresh-g').every((r) => r.url === '/market/fresh-g?lang=auto')).toBe(true);
    // Served fresh no longer than the end of the second it was made in, with half a second for the
    // answer's way from the origin into the cache (without the render hop's X-Accel-Expires: up to 2 s).
    for (const hit of hits) expect(hit.sentAt - first.page.born).toBeLessThan(1500);
  });

  it('under a steady load, renders a page at most once a second and serves nothing older than that', async () => {
    const path = '/market/fresh-l';
    const answers: Answer[] = [];
    let stop = false;
    const clients = Array.from({ length: 10 }, async () => {
      while (!stop) answers.push(await get(path));
    });
    await until('four renders under load', () => origin.requestsFor(path).length >= 4, 20_000).finally(() => {
      stop = true;
    });
    await Promise.all(clients);

    const renders = origin.renders.filter((r) => r.url.startsWith(`${path}?`));
    // One render at a time (cache lock, then one background refresh), each in a later second than the last.
    expect(origin.maxInFlight.get(path)).toBe(1);
    const seconds = renders.map((r) => Math.floor(r.born / 1000));
    expect(seconds).toEqual([...seconds].sort((a, b) => a - b));
    expect(new Set(seconds).size).toBe(seconds.length);
    // Every fan was answered from the cache but the first, and many per render.
    expect(answers.filter((a) => a.cache === 'MISS')).toHaveLength(1);
    expect(answers.every((a) => ['MISS', 'HIT', 'STALE', 'UPDATING'].includes(a.cache))).toBe(true);
    expect(answers.length).toBeGreaterThan(renders.length * 5);
    for (const answer of answers) {
      // Fresh until the end of its second (plus the answer's way into the cache)...
      if (answer.cache === 'HIT') expect(answer.sentAt - answer.page.born).toBeLessThan(1500);
      // ...and never more than one render behind the newest the origin had made when the fan asked.
      const newest = renders.findLastIndex((r) => r.born <= answer.sentAt);
      if (newest > 0) expect(answer.page.render).toBeGreaterThanOrEqual(renders[newest - 1]!.render);
    }
  });

  it('revalidates an unchanged page with a 304 instead of a render, once a second, and renders a changed one', async () => {
    const path = '/market/etag-r';
    const first = await get(path);
    expect(first.cache).toBe('MISS');
    expect(first.headers.etag).toBe('W/"build.1"');
    const answers: Answer[] = [];
    let stop = false;
    const clients = Array.from({ length: 5 }, async () => {
      while (!stop) answers.push(await get(path));
    });
    await until(
      'three revalidations under load',
      () => origin.unchanged.filter((u) => u.path === path).length >= 3,
      20_000,
    )
      .then(() => {
        // A change of the page's data: the next refresh renders it.
        origin.versions.set(path, 2);
        return until('the changed page', () => answers.some((a) => a.page.render !== first.page.render), 20_000);
      })
      .finally(() => {
        stop = true;
      });
    await Promise.all(clients);

    const requests = origin.requestsFor(path);
    // Every request after the first asked whether the stored page was still the page: the ETag last answered.
    expect(requests.slice(1).map((r) => r.headers['if-none-match'])).toEqual(requests.slice(0, -1).map((r) => r.etag));
    expect(requests.some((r) => r.headers['if-none-match'] === 'W/"build.1"' && r.etag === 'W/"build.2"')).toBe(true);
    // One render for the first page and one for the changed page; the refreshes in between were 304s.
    const renders = origin.renders.filter((r) => r.url.startsWith(`${path}?`));
    expect(renders).toHaveLength(2);
    const unchanged = origin.unchanged.filter((u) => u.path === path);
    expect(requests.length).toBe(renders.length + unchanged.length);
    // Each 304 kept the page fresh for another window: one refresh a second, not one per request.
    const seconds = unchanged.map((u) => Math.floor(u.at / 1000));
    expect(new Set(seconds).size).toBe(seconds.length);
    expect(answers.length).toBeGreaterThan(requests.length * 2);
    // Every fan got a whole page: the first render until the change, then the second.
    expect(
      answers.every((a) => a.status === 200 && [first.page.render, renders[1]!.render].includes(a.page.render)),
    ).toBe(true);
    // Once a fan had the changed page, everyone asking after that had it too.
    const changedAt = Math.min(...answers.filter((a) => a.page.render === renders[1]!.render).map((a) => a.receivedAt));
    const after = answers.filter((a) => a.sentAt > changedAt);
    expect(after.every((a) => a.page.render === renders[1]!.render)).toBe(true);
  });
});

describe('the edge’s freshness bound, whatever came before', () => {
  it('gives the first fan after an idle spell the changed page, not the one made before it', async () => {
    const path = '/market/etag-idle';
    const first = await get(path);
    expect([first.cache, first.headers.etag]).toEqual(['MISS', 'W/"build.1"']);
    // Nobody asks for longer than the bound (1 s fresh, 1 s stale-while-revalidate: a refresh would have
    // served the old page once more), then the page's data changes.
    const idleUntil = (Math.floor((first.page.born + HOP_MS) / 1000) + 2) * 1000 + 50;
    await new Promise((resolve) => setTimeout(resolve, idleUntil - Date.now()));
    origin.versions.set(path, 2);

    const next = await get(path);
    expect(next.cache).toBe('EXPIRED');
    expect(next.page.render).toBeGreaterThan(first.page.render);
    expect(next.headers.etag).toBe('W/"build.2"');
    // The origin was asked whether the stored page still held, and it did not.
    expect(origin.requestsFor(path).map((r) => r.headers['if-none-match'])).toEqual([undefined, 'W/"build.1"']);
  });

  it('gives fans the origin’s redirect or 404 within the bound once a stored page’s address answers one', async () => {
    const cases = [
      {
        path: '/market/fresh-moved',
        answer: { status: 307, headers: { location: '/listing/lst_1', 'cache-control': PRIVATE }, body: '' },
      },
      {
        path: '/market/fresh-gone',
        answer: { status: 404, headers: { 'content-type': 'text/html', 'cache-control': PRIVATE }, body: 'gone' },
      },
    ];
    await Promise.all(
      cases.map(async ({ path, answer }) => {
        const first = await get(path);
        expect(first.cache).toBe('MISS');
        origin.overrides.set(path, answer);
        // Asked again and again until well past the bound.
        const pastBound = first.page.born + FRESHNESS_BOUND_MS + HOP_MS;
        const answers = await askUntil(path, (a) => a.sentAt > pastBound + 300);
        for (const a of answers) {
          if (a.status === 200) {
            expect(a.page.render).toBe(first.page.render);
            expect(a.sentAt - first.page.born, path).toBeLessThan(FRESHNESS_BOUND_MS + HOP_MS);
          } else {
            expect([a.status, a.headers.location, a.body], path).toEqual([
              answer.status,
              answer.headers.location,
              answer.body,
            ]);
          }
        }
        const late = answers.filter((a) => a.sentAt > pastBound);
        expect(late.length).toBeGreaterThan(0);
        expect(late.every((a) => a.status === answer.status)).toBe(true);
      }),
    );
  });
});

describe('the edge when the origin fails', () => {
  let failing: FakeOrigin;
  let failingEdge: Edge;

  beforeAll(async () => {
    failing = await FakeOrigin.start();
    failingEdge = await startEdge({ upstreams: [failing.address] });
  });

  afterAll(async () => {
    await failingEdge?.stop();
    await failing?.close();
  });

  /**
   * Asks for a page past its stale-if-error (3 s here; past the second the page was made in) and checks the
   * stale page was given until then, beyond stale-while-revalidate, and `failure` after; returns the last answer.
   */
  async function staleThenFailure(
    path: string,
    born: number,
    failure: number,
    headers: http.OutgoingHttpHeaders = {},
  ): Promise<Answer> {
    const staleIfErrorEnds = (Math.floor((born + HOP_MS) / 1000) + 4) * 1000;
    const answers = await askUntil(path, (a) => a.sentAt > staleIfErrorEnds + 300, { base: failingEdge.url, headers });
    for (const a of answers) {
      expect([200, failure], `${path} at ${a.sentAt - born} ms`).toContain(a.status);
      if (a.status === 200) expect(['HIT', 'STALE', 'UPDATING']).toContain(a.cache);
    }
    const stale = answers.filter((a) => a.status === 200);
    // Stale past stale-while-revalidate (2 s past the render at the latest): stale-if-error's doing...
    expect(stale.filter((a) => a.sentAt > born + FRESHNESS_BOUND_MS + HOP_MS).length).toBeGreaterThan(0);
    // ...and never past it (4 s past the render's second at the latest).
    expect(Math.max(...stale.map((a) => a.sentAt))).toBeLessThan(staleIfErrorEnds);
    const after = answers.filter((a) => a.sentAt > staleIfErrorEnds);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((a) => a.status === failure)).toBe(true);
    return answers.at(-1)!;
  }

  it('serves the last page while the origin answers 5xx, for the origin’s stale-if-error, then Encore’s 503', async () => {
    const path = '/market/sie-5xx';
    const first = await get(path, {}, { base: failingEdge.url });
    expect(first.cache).toBe('MISS');
    failing.overrides.set(path, {
      status: 500,
      headers: { 'content-type': 'text/html', 'cache-control': PRIVATE },
      body: 'the origin’s own error page',
    });
    const last = await staleThenFailure(path, first.page.born, 503);
    expect(last.body).toBe(outageDocument('en', path));
    expectOutageHeaders(last, OUTAGE_PAGE_POLICY);
  });

  it('unreachable: the last page for stale-if-error, then Encore’s branded 503 in the fan’s language; /v1 its envelope', async () => {
    const path = '/market/sie-down?show=s1';
    const spanish = { 'accept-language': 'es-ES,es;q=0.9' };
    const first = await get(path, spanish, { base: failingEdge.url });
    expect([first.cache, first.page.lang]).toEqual(['MISS', 'es']);
    await failing.close();

    const outage = await staleThenFailure(path, first.page.born, 503, spanish);
    expectOutageHeaders(outage, OUTAGE_PAGE_POLICY);
    expect(outage.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(outage.body).toBe(outageDocument('es', path));

    // A page never stored, a person's page, any other page: the same, in each fan's language.
    const origins = (asked: string, headers: Record<string, string>) =>
      requestLocale(new URL(asked, 'http://encore'), (name) => headers[name]);
    for (const [asked, headers, lang] of [
      ['/market/never-stored?lang=es', {}, 'es'],
      ['/market/never-stored?lang=de', {}, 'de'],
      // Nothing of the fan's chose: neither can look the event's country up, so DEFAULT_LANG, as the origin's.
      ['/market/never-stored-either', { 'accept-language': 'ja' }, 'en'],
      ['/market/sie-down', { cookie: 'encore_fan=alice' }, 'en'],
      ['/account/tickets?a=1&b=2', { cookie: 'encore_lang=es' }, 'es'],
      ['/', { 'accept-language': 'en-GB' }, 'en'],
    ] as const) {
      const answer = await get(asked, headers, { base: failingEdge.url });
      expect(origins(asked, headers), asked).toBe(lang);
      expect([answer.status, answer.body], asked).toEqual([503, outageDocument(lang, asked)]);
      expectOutageHeaders(answer, OUTAGE_PAGE_POLICY);
    }

    // The partners' API: the envelope the origin answers its own outage with.
    for (const method of ['GET', 'POST']) {
      const api = await get('/v1/listings?limit=1', {}, { base: failingEdge.url, method });
      expect(api.status).toBe(503);
      expect(api.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(api.body)).toEqual(errorBody(databaseUnavailable()));
      expectOutageHeaders(api, "default-src 'none'; frame-ancestors 'none'");
    }
  });
});

/** The headers the origin gives its own outage answers (server/http/listener.ts answerOutage), on the edge's. */
function expectOutageHeaders(answer: Answer, policy: string): void {
  const origins = everyAnswerHeaders({ headers: {}, socket: {} } as http.IncomingMessage);
  for (const [name, value] of Object.entries(origins)) {
    if (name === 'x-request-id') expect(answer.headers[name]).toMatch(/^[0-9a-f]{32}$/);
    else expect(answer.headers[name], name).toBe(value);
  }
  expect(answer.headers['retry-after']).toBe(String(OUTAGE_RETRY_AFTER_S));
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers['content-security-policy']).toBe(policy);
  // HSTS only over https, as the origin decides it: the edge's is the origin's value.
  expect(answer.headers['strict-transport-security']).toBeUndefined();
  expect(fs.readFileSync('edge/nginx.conf', 'utf8')).toContain(`https "${strictTransportSecurity(true, null)}";`);
}

/**
 * Fans' requests and the language Encore gives them (`want`): the origin's own reading of a request
 * (pageLang, server/http/shared-page-address.ts, on chosenLocale: the fan's choice, else EVENT_LANG) and the
 * edge's (edge/edge.js) must both say it.
 */
const LANGUAGE_CASES: { query?: string; cookie?: string; acceptLanguage?: string; want: string }[] = [
  { want: EVENT_LANG },
  { acceptLanguage: 'es', want: 'es' },
  // Weighed by q-values, not taken in header order.
  { acceptLanguage: 'es;q=0.1, en;q=0.9', want: 'en' },
  { acceptLanguage: 'ja-JP, ES;q=0.5', want: 'es' },
  { acceptLanguage: 'fr-FR, ES;q=0.5', want: 'fr' },
  { acceptLanguage: 'de-CH,de;q=0.9,en;q=0.8', want: 'de' },
  { acceptLanguage: 'pt-PT, pt;q=0.9', want: 'pt' },
  { acceptLanguage: 'nl-BE', want: 'nl' },
  { acceptLanguage: 'it_IT', want: 'it' },
  { acceptLanguage: 'ja-JP,ja;q=0.9,en-US;q=0.3,es-MX;q=0.8', want: 'es' },
  { acceptLanguage: 'es-AR,es;q=0.9,en;q=0.8', want: 'es' },
  { acceptLanguage: 'es_419', want: 'es' },
  // Ties keep the header's order.
  { acceptLanguage: 'en;q=0.5, es;q=0.5', want: 'en' },
  { acceptLanguage: 'es;q=0.5, en;q=0.5', want: 'es' },
  // q=0 is "not this one"; a q that is no number weighs nothing; `Q=` is no q; spaces around parameters.
  { acceptLanguage: 'es;q=0, ja', want: EVENT_LANG },
  { acceptLanguage: 'en;q=0, es;q=0.001', want: 'es' },
  { acceptLanguage: 'es;q=abc, en;q=0.2', want: 'en' },
  { acceptLanguage: 'en;q=0.5, es ; q=1e-1', want: 'en' },
  { acceptLanguage: 'en;q=0.5,es;Q=0.1', want: 'es' },
  { acceptLanguage: 'es;q=-1, en;q=0.01', want: 'en' },
  { acceptLanguage: 'en;q=0.9, es;q=0x1', want: 'es' },
  // Only the first 20 entries count.
  { acceptLanguage: `${Array(20).fill('ja').join(',')},es`, want: EVENT_LANG },
  // Garbage.
  { acceptLanguage: '*', want: EVENT_LANG },
  { acceptLanguage: ';;, ,;q=1,', want: EVENT_LANG },
  { acceptLanguage: 'e s, español, en-', want: 'en' },
  // The address's `lang` first: any case, a region, decoded as URLSearchParams does.
  { query: '?lang=es', acceptLanguage: 'en', want: 'es' },
  { query: '?lang=ES', want: 'es' },
  { query: '?lang=es-AR', want: 'es' },
  { query: '?lang=es_419', cookie: 'encore_lang=en', want: 'es' },
  { query: '?lang=+es', want: 'es' },
  { query: '?lang=%20es%20', want: 'es' },
  { query: '?lang=e%73', want: 'es' },
  { query: '?l%61ng=es', want: 'es' },
  { query: '?lang=%C2%A0es', want: 'es' },
  { query: '?lang=%FFes', acceptLanguage: 'es', want: 'es' },
  { query: '?lang=es%FF', want: EVENT_LANG },
  { query: '?LANG=es', want: EVENT_LANG },
  { query: '?lang=ja', acceptLanguage: 'es', want: 'es' },
  { query: '?lang=fr', acceptLanguage: 'es', want: 'fr' },
  { query: '?lang=auto', acceptLanguage: 'nl', want: 'nl' },
  { query: '?lang=auto', want: EVENT_LANG },
  { query: '?lang=ja&lang=es', want: EVENT_LANG },
  { query: '?lang=&lang=en', acceptLanguage: 'es', want: 'es' },
  { query: '?lang', cookie: 'encore_lang=es', want: 'es' },
  // Then the remembered language (the last cookie), before the browser's.
  { cookie: 'encore_lang=es', acceptLanguage: 'en', want: 'es' },
  { cookie: 'encore_lang=ja', acceptLanguage: 'es', want: 'es' },
  { cookie: 'encore_lang=it', acceptLanguage: 'es', want: 'it' },
  { cookie: 'encore_lang=ES-419', want: 'es' },
  { cookie: 'encore_lang= es ;', want: 'es' },
  { cookie: 'encore_lang=es; encore_lang=en', acceptLanguage: 'es', want: 'en' },
  { cookie: 'encore_lang=', acceptLanguage: 'es', want: 'es' },
];

describe('the edge reads a request as the origin does', () => {
  it('chooses each fan’s language exactly as the origin does', async () => {
    const edgeSays = await Promise.all(
      LANGUAGE_CASES.map(async ({ query = '', cookie, acceptLanguage }, i) => {
        const path = `/market/steady-lang${i}`;
        const answer = await get(`${path}${query}`, {
          ...(cookie ? { cookie } : {}),
          ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}),
        });
        expect(answer.cache, `${query} ${cookie} ${acceptLanguage}`).toBe('MISS');
        const asked = origin.requestsFor(path);
        expect(asked).toHaveLength(1);
        return new URL(asked[0]!.url, 'http://origin.test').searchParams.get('lang');
      }),
    );
    const originSays = LANGUAGE_CASES.map(({ query = '', cookie, acceptLanguage }) =>
      pageLang(new URL(`/market/x${query}`, 'http://encore'), (name) =>
        name === 'cookie' ? cookie : name === 'accept-language' ? acceptLanguage : undefined,
      ),
    );
    const label = (langs: (string | null)[]) => LANGUAGE_CASES.map((c, i) => ({ ...c, lang: langs[i] }));
    const wanted = LANGUAGE_CASES.map((c) => c.want);
    expect(label(originSays)).toEqual(label(wanted));
    expect(label(edgeSays)).toEqual(label(wanted));
  });

  it('knows the languages the origin knows', () => {
    const code = fs.readFileSync('edge/edge.js', 'utf8');
    const copy = /^const OUTAGE_COPY = \{\n([^]*?)\n\};$/m.exec(code)?.[1] ?? '';
    expect([...copy.matchAll(/^ {2}(\w+): \{$/gm)].map((m) => m[1])).toEqual([...LOCALES]);
    expect(code).toMatch(/^const LANGS = Object\.keys\(OUTAGE_COPY\);$/m);
  });

  it('makes one key of the page’s numbers written in different ways, and asks the origin the canonical one', async () => {
    const path = '/market/steady-n';
    const pages = [];
    for (const query of ['page=11', 'page=011', 'page=0011', 'page=+11', 'page=11.0', 'page=1.1e1']) {
      pages.push(await get(`${path}?${query}`));
    }
    expect(pages.map((a) => a.cache)).toEqual(['MISS', ...Array(pages.length - 1).fill('HIT')]);
    expect(new Set(pages.map((a) => a.page.render)).size).toBe(1);
    const quantities = [await get(`${path}?qty=001`), await get(`${path}?qty=1`), await get(`${path}?qty=1.0&page=1`)];
    expect(quantities.map((a) => a.cache)).toEqual(['MISS', 'HIT', 'MISS']);
    expect(origin.requestsFor(path).map((r) => r.url)).toEqual([
      `${path}?lang=auto&page=11`,
      `${path}?lang=auto&qty=1`,
      `${path}?lang=auto&qty=1&page=1`,
    ]);
  });

  it('leaves out the values the page ignores, and reads every value as the page reads it', async () => {
    const path = '/market/steady-v';
    const plain = await get(path);
    const ignored = [
      'page=0',
      'page=-2',
      'page=abc',
      'page=1.5',
      'page=Infinity',
      'qty=0',
      'qty=abc',
      'qty=-1',
      'sort=cheap',
    ];
    for (const query of ignored) {
      const answer = await get(`${path}?${query}`);
      expect([query, answer.cache, answer.page.render]).toEqual([query, 'HIT', plain.page.render]);
    }
    expect(origin.requestsFor(path).map((r) => r.url)).toEqual([`${path}?lang=auto`]);

    // The page (server/modules/fan-pages buy-page-model.ts) reads the edge's value as it reads the client's.
    const readers = { page: requestedPage, qty: wantedQuantity, sort: buyPageSort } as const;
    const values = ['1', '2', '011', '+7', '%2B7', '7.0', '2e1', '1e21', '0x10', ' 3 ', 'Infinity', '-0', '', 'x'];
    const sent = Object.keys(readers).flatMap((name) =>
      [...values, 'price_desc', 'price_asc', 'PRICE_DESC'].map((value) => ({ name, value })),
    );
    await Promise.all(
      sent.map(async ({ name, value }, i) => {
        const at = `/market/steady-read${i}`;
        await get(`${at}?${name}=${value.replaceAll(' ', '%20')}`);
        const asked = new URL(origin.requestsFor(at)[0]!.url, 'http://origin.test').searchParams.get(name);
        const client = new URLSearchParams(`${name}=${value.replaceAll(' ', '%20')}`).get(name)!;
        const read = readers[name as keyof typeof readers] as (q: Record<string, string | undefined>) => unknown;
        expect(read({ [name]: asked ?? undefined }), `${name}=${value} sent as ${asked}`).toEqual(
          read({ [name]: client }),
        );
      }),
    );
  });
});
