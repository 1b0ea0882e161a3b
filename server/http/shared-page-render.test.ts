import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUY_PAGE_LAYER_MS, forgetOffersOfChangedListings } from '@/server/modules/fan-pages';
import { CLIENT_ADDRESS_HEADER } from './client-address';
import { encoreListener } from './listener';
import { FILL_HEADER, hashedPolicy } from './shared-page-render';

/*
 * Encore's server in front of a stand-in for Next.js (server/http/listener.ts, as server/start.ts runs it):
 * the stand-in renders as the proxy and Next.js do, with a fresh nonce in its policy and on its own
 * scripts, a private Cache-Control, and one script injected into the page without the nonce.
 */

interface Render {
  url: string;
  headers: http.IncomingHttpHeaders;
}
const renders: Render[] = [];
const INJECTED = 'alert(document.cookie)';
/** For the events named `evt_v…`: the version of the page's model, which the stand-in stamps as the app does. */
const versions = new Map<string, number>();
/** Made to fail: the version read of `evt_vfail`. */
const versionReads: string[] = [];
/** Held until opened: the version reads and renders of a path, so that a crowd's requests all arrive first. */
const gates = new Map<string, Promise<void>>();
async function pageVersion(path: string): Promise<string | null> {
  const { pathname } = new URL(path, 'http://page');
  versionReads.push(pathname);
  await gates.get(pathname);
  if (pathname === '/market/evt_vfail') throw new Error('the database is away');
  const version = versions.get(pathname);
  return version === undefined ? null : `v${version}`;
}

async function standIn(req: http.IncomingMessage, res: http.ServerResponse) {
  renders.push({ url: req.url!, headers: { ...req.headers } });
  const url = new URL(req.url!, 'http://page');
  await gates.get(url.pathname);
  const nonce = randomBytes(18).toString('base64');
  res.statusCode = url.pathname.includes('missing') ? 404 : 200;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'private, no-cache, no-store, max-age=0, must-revalidate');
  res.setHeader(
    'content-security-policy',
    `default-src 'self'; script-src 'self' 'nonce-${nonce}' 'strict-dynamic'; frame-ancestors 'none'`,
  );
  res.setHeader('x-request-id', req.headers['x-request-id'] ?? 'req_of_the_render');
  if (req.headers.cookie?.includes('encore_fan=')) res.setHeader('set-cookie', 'encore_fan=renewed; HttpOnly');
  if (url.pathname.endsWith('_sets_cookie')) res.setHeader('set-cookie', `encore_trial=${renders.length}`);
  const version = versions.get(url.pathname);
  const stamp = version === undefined ? '' : `<meta name="encore-page-version" content="v${version}"/>`;
  res.write(`<html><head>${stamp}<script nonce="${nonce}" src="/_next/static/a.js" async></script></head><body>`);
  setTimeout(() => {
    res.end(
      `<p>${url.search} · ${req.headers[CLIENT_ADDRESS_HEADER] ?? 'nobody'} · № ${renders.length}</p>` +
        `<script nonce="${nonce}">self.__next_f.push([1,"a"])</script>` +
        `<script>${INJECTED}</script>` +
        `<script nonce="${nonce}">self.__next_f.push([1,"b"])</script></body></html>`,
    );
  }, 30);
}

let server: http.Server;
let base = '';
let edgeServer: http.Server;
let edgeBase = '';

/** The fans' requests each server received, by address as asked (fills included). */
const arrived: string[] = [];

async function listen(keepPages: boolean): Promise<[http.Server, string]> {
  const s = http.createServer();
  s.on('request', (req: http.IncomingMessage) => arrived.push(req.url!));
  const listener = encoreListener({
    handle: standIn,
    hops: 0,
    keepPages,
    port: () => (s.address() as AddressInfo).port,
    pageVersion,
    buildId: 'b1',
  });
  s.on('request', listener);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return [s, `http://127.0.0.1:${(s.address() as AddressInfo).port}`];
}

beforeAll(async () => {
  [server, base] = await listen(true);
  [edgeServer, edgeBase] = await listen(false);
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await new Promise<void>((r) => edgeServer.close(() => r()));
});

const rendersOf = (url: string) => renders.filter((r) => r.url === url).length;
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('the shared buy page', () => {
  it('renders an address once for 20 anonymous fans at once, as one cacheable answer with a hashed policy', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${base}/market/evt_one?page=2`, { headers: { 'x-request-id': `fan-${i}` } }),
      ),
    );
    expect(rendersOf('/market/evt_one?lang=auto&page=2')).toBe(1);
    const bodies = await Promise.all(answers.map((a) => a.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(answers.map((a) => a.headers.get('x-request-id'))).toEqual(answers.map((_, i) => `fan-${i}`));
    const [first] = answers;
    expect(first.headers.get('cache-control')).toBe(
      'public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=60',
    );
    expect(first.headers.get('vary')).toBe('Accept-Encoding, Accept-Language, Cookie');
    expect(first.headers.get('set-cookie')).toBeNull();
    // Next.js's two inline scripts are allowed by their hashes; the injected one is not; no nonce is left.
    const policy = first.headers.get('content-security-policy')!;
    expect(policy).toBe(
      `default-src 'self'; script-src 'self' ${sha('self.__next_f.push([1,"a"])')} ${sha('self.__next_f.push([1,"b"])')}; frame-ancestors 'none'`,
    );
    expect(policy).not.toContain(sha(INJECTED));
    // The page is made from the address alone: nothing of the fan who asked first reaches the render.
    expect(bodies[0]).toContain('<p>?lang=auto&page=2 · nobody ·');
    const render = renders.find((r) => r.url === '/market/evt_one?lang=auto&page=2')!;
    expect(Object.keys(render.headers).sort()).toEqual(['accept', 'connection', 'host', 'user-agent', 'x-request-id']);
    // Kept plain, sent compressed to a fan who takes gzip: the same bytes.
    const zipped = await fetch(`${base}/market/evt_one?page=2`, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    // (fetch undoes the gzip it was sent)
    expect(await zipped.text()).toBe(bodies[0]);
    expect(rendersOf('/market/evt_one?lang=auto&page=2')).toBe(1);
  });

  it('keys a page by the parameters it reads: a shared link’s utm_*, fbclid, gclid and unknown ones share it', async () => {
    await (await fetch(`${base}/market/evt_two?show=s1`)).text();
    for (const extra of ['utm_source=x&utm_medium=y', 'fbclid=abc', 'gclid=def', 'x=1', 'x=2&show=s1']) {
      await (await fetch(`${base}/market/evt_two?show=s1&${extra}`)).text();
    }
    expect(renders.filter((r) => r.url.startsWith('/market/evt_two')).map((r) => r.url)).toEqual([
      '/market/evt_two?lang=auto&show=s1',
    ]);
    // The language is part of the address: from Accept-Language, the cookie, or the URL.
    await (await fetch(`${base}/market/evt_two?show=s1`, { headers: { 'accept-language': 'es-AR,es;q=0.9' } })).text();
    await (await fetch(`${base}/market/evt_two?show=s1`, { headers: { cookie: 'encore_lang=es' } })).text();
    await (await fetch(`${base}/market/evt_two?show=s1&lang=es`)).text();
    expect(rendersOf('/market/evt_two?lang=es&show=s1')).toBe(1);
  });

  it('renders for itself, privately, whatever carries a person or the router', async () => {
    const path = '/market/evt_three';
    const asked: RequestInit[] = [
      { headers: { cookie: 'encore_fan=abc' } },
      { headers: { cookie: 'encore_lang=es; encore_fan=abc' } },
      { headers: { rsc: '1' } },
      { headers: { authorization: 'Bearer x' } },
    ];
    for (const init of [...asked, ...asked]) {
      const answer = await fetch(`${base}${path}`, init);
      expect(answer.headers.get('cache-control')).toContain('private');
      await answer.text();
    }
    expect(rendersOf(path)).toBe(8);
    const signedIn = await fetch(`${base}${path}`, { headers: { cookie: 'encore_fan=abc' } });
    expect(signedIn.headers.get('set-cookie')).toBe('encore_fan=renewed; HttpOnly');
    await signedIn.text();
    for (let i = 0; i < 2; i++) await (await fetch(`${base}${path}?token=ott_1`)).text();
    expect(rendersOf(`${path}?token=ott_1`)).toBe(2);
    // Not the buy page itself: rendered every time.
    for (let i = 0; i < 2; i++) await (await fetch(`${base}/market/evt_three/listing`)).text();
    expect(rendersOf('/market/evt_three/listing')).toBe(2);
  });

  it('shares no answer but a plain 200 page, and passes the others on as they were made', async () => {
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${base}/market/evt_missing`, { headers: { 'x-request-id': `req_fan_${i}` } });
      expect(answer.status).toBe(404);
      expect(answer.headers.get('cache-control')).toContain('private');
      // The render's own header (it names the fan's request, which the fill passed on).
      expect(answer.headers.get('x-request-id')).toBe(`req_fan_${i}`);
      await answer.text();
    }
    expect(rendersOf('/market/evt_missing?lang=auto')).toBe(2);
  });

  it('renders again after a listing write in this process, and once the window has passed', async () => {
    const path = '/market/evt_five';
    await (await fetch(`${base}${path}`)).text();
    await (await fetch(`${base}${path}`)).text();
    expect(rendersOf(`${path}?lang=auto`)).toBe(1);
    // What every committed listing write in the process does (the listingsChanged reaction).
    await forgetOffersOfChangedListings();
    await (await fetch(`${base}${path}`)).text();
    expect(rendersOf(`${path}?lang=auto`)).toBe(2);
    const passed = Date.now() + BUY_PAGE_LAYER_MS + 5;
    while (Date.now() < passed) await new Promise((r) => setTimeout(r, 20));
    await (await fetch(`${base}${path}`)).text();
    expect(rendersOf(`${path}?lang=auto`)).toBe(3);
  });

  it('behind a shared cache (EDGE_CACHE) keeps nothing itself, and still answers cacheable bytes', async () => {
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${edgeBase}/market/evt_six?utm_source=z`);
      expect(answer.headers.get('cache-control')).toContain('s-maxage=1');
      await answer.text();
    }
    expect(rendersOf('/market/evt_six?lang=auto')).toBe(3);
  });

  it('behind a shared cache, makes one render and one model read for the fans who ask while it runs', async () => {
    const path = '/market/evt_vcrowd';
    versions.set(path, 1);
    // Twenty fans whose requests have all arrived before the first read or render is let go.
    const crowd = async (headers: Record<string, string> = {}) => {
      let open!: () => void;
      gates.set(path, new Promise<void>((resolve) => (open = resolve)));
      const before = arrived.filter((url) => url === path).length;
      const answers = Promise.all(
        Array.from({ length: 20 }, async () => {
          const answer = await fetch(`${edgeBase}${path}`, { headers });
          return [answer.status, answer.headers.get('etag'), await answer.text()] as const;
        }),
      );
      while (arrived.filter((url) => url === path).length < before + 20) await new Promise((r) => setTimeout(r, 5));
      gates.delete(path);
      open();
      return answers;
    };
    const pages = await crowd();
    expect(rendersOf(`${path}?lang=auto`)).toBe(1);
    expect(new Set(pages.map(([status, etag, body]) => `${status} ${etag} ${body}`)).size).toBe(1);
    expect(pages[0]![0]).toBe(200);

    // A shared cache's copy expired while its refresh ran long: the crowd asks whether it still holds.
    const readsBefore = versionReads.filter((p) => p === path).length;
    const revalidations = await crowd({ 'if-none-match': 'W/"b1.v1"' });
    expect(revalidations.every(([status]) => status === 304)).toBe(true);
    expect(versionReads.filter((p) => p === path).length - readsBefore).toBe(1);
    expect(rendersOf(`${path}?lang=auto`)).toBe(1);

    // Changed since: one render for all of them, whose page is the new one.
    versions.set(path, 2);
    const changed = await crowd({ 'if-none-match': 'W/"b1.v1"' });
    expect(changed.every(([status, etag]) => status === 200 && etag === 'W/"b1.v2"')).toBe(true);
    expect(rendersOf(`${path}?lang=auto`)).toBe(2);
    // Nothing kept once it settled: the next fan's is a render of its own.
    await (await fetch(`${edgeBase}${path}`)).text();
    expect(rendersOf(`${path}?lang=auto`)).toBe(3);
  });

  it('behind a shared cache, gives nobody the cookie a render set for the fan who asked first', async () => {
    const path = '/market/evt_sets_cookie';
    const cookies = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const answer = await fetch(`${edgeBase}${path}`);
        await answer.text();
        expect(answer.headers.get('cache-control')).toContain('private');
        return answer.headers.get('set-cookie');
      }),
    );
    expect(new Set(cookies).size).toBe(5);
    expect(rendersOf(`${path}?lang=auto`)).toBe(5);
  });

  it('keeps its page past the window without a render while the model holds, and renders when it changes', async () => {
    const path = '/market/evt_vkeep';
    versions.set(path, 1);
    const waitWindow = async () => {
      const passed = Date.now() + BUY_PAGE_LAYER_MS + 5;
      while (Date.now() < passed) await new Promise((r) => setTimeout(r, 20));
    };
    const first = await (await fetch(`${base}${path}`)).text();
    for (let i = 0; i < 2; i++) {
      await waitWindow();
      expect(await (await fetch(`${base}${path}`)).text()).toBe(first);
    }
    expect(rendersOf(`${path}?lang=auto`)).toBe(1);
    versions.set(path, 2);
    await waitWindow();
    const changed = await (await fetch(`${base}${path}`)).text();
    expect(rendersOf(`${path}?lang=auto`)).toBe(2);
    expect(changed).toContain('content="v2"');
  });

  it('answers a revalidation of an unchanged page with a 304 and no render, anything else with the page', async () => {
    const path = '/market/evt_vetag';
    versions.set(path, 1);
    const page = await fetch(`${edgeBase}${path}?show=1`);
    await page.text();
    const etag = page.headers.get('etag');
    expect(etag).toBe('W/"b1.v1"');
    expect(rendersOf(`${path}?lang=auto&show=1`)).toBe(1);

    for (const asked of [etag!, '"b1.v1"', 'W/"x", W/"b1.v1"', '*']) {
      const again = await fetch(`${edgeBase}${path}?show=1`, {
        headers: { 'if-none-match': asked, 'x-request-id': 'revalidation' },
      });
      expect([asked, again.status]).toEqual([asked, 304]);
      expect(again.headers.get('cache-control')).toBe(
        'public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=60',
      );
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('x-request-id')).toBe('revalidation');
      expect(await again.text()).toBe('');
    }
    expect(rendersOf(`${path}?lang=auto&show=1`)).toBe(1);

    // Another version, another build, or the model changed since: the page, rendered now.
    for (const asked of ['W/"b1.v0"', 'W/"b0.v1"']) {
      const other = await fetch(`${edgeBase}${path}?show=1`, { headers: { 'if-none-match': asked } });
      expect(other.status).toBe(200);
      await other.text();
    }
    versions.set(path, 2);
    const changed = await fetch(`${edgeBase}${path}?show=1`, { headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).toBe('W/"b1.v2"');
    expect(await changed.text()).toContain('content="v2"');
    expect(rendersOf(`${path}?lang=auto&show=1`)).toBe(4);
  });

  it('renders when the version cannot be read, and gives a page that stamped none no ETag', async () => {
    versions.set('/market/evt_vfail', 1);
    const failing = await fetch(`${edgeBase}/market/evt_vfail`, { headers: { 'if-none-match': 'W/"b1.v1"' } });
    expect(failing.status).toBe(200);
    await failing.text();
    expect(rendersOf('/market/evt_vfail?lang=auto')).toBe(1);
    const unstamped = await fetch(`${edgeBase}/market/evt_unstamped`);
    expect(unstamped.headers.get('etag')).toBeNull();
    await unstamped.text();
    const asked = await fetch(`${edgeBase}/market/evt_unstamped`, { headers: { 'if-none-match': '*' } });
    expect(asked.status).toBe(200);
    await asked.text();
    expect(rendersOf('/market/evt_unstamped?lang=auto')).toBe(2);
  });

  it('trusts no fill mark from outside, and writes the client address from the socket', async () => {
    const answer = await fetch(`${base}/market/evt_seven/listing`, {
      headers: { [FILL_HEADER]: 'guess', [CLIENT_ADDRESS_HEADER]: '6.6.6.6' },
    });
    await answer.text();
    const seen = renders.find((r) => r.url === '/market/evt_seven/listing')!;
    expect(seen.headers[FILL_HEADER]).toBeUndefined();
    expect(seen.headers[CLIENT_ADDRESS_HEADER]).toBe('127.0.0.1');
  });
});

describe('hashedPolicy', () => {
  it('hashes only the inline scripts carrying the nonce, and drops the nonce and strict-dynamic', () => {
    const html = `<script nonce="n1">a()</script><script nonce="n2">b()</script><script src="/x.js" nonce="n1"></script><SCRIPT nonce="n1" type="module">c()</SCRIPT >`;
    expect(hashedPolicy("script-src 'self' 'nonce-n1' 'strict-dynamic'; img-src 'self'", html, 'n1')).toBe(
      `script-src 'self' ${sha('a()')} ${sha('c()')}; img-src 'self'`,
    );
  });
});
