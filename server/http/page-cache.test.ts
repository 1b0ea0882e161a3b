import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUY_PAGE_LAYER_MS } from '@/server/modules/fan-pages';
import { forgetPages } from './page-cache';
import { installRenderGate } from './render-gate';

/*
 * The buy page shared by address (page-cache.ts), over a real HTTP server standing in for Next.js: it
 * renders a page with a fresh nonce in its policy, its scripts and its payload, streamed in two parts.
 */

let server: http.Server;
let base: string;
const renders: { url: string; acceptEncoding?: string }[] = [];

beforeAll(async () => {
  installRenderGate(2);
  server = http.createServer((req, res) => {
    renders.push({ url: req.url!, acceptEncoding: req.headers['accept-encoding'] });
    const url = new URL(req.url!, 'http://page');
    const nonce = randomBytes(18).toString('base64');
    res.statusCode = Number(url.searchParams.get('status') ?? 200);
    res.setHeader('content-type', url.searchParams.get('type') ?? 'text/html; charset=utf-8');
    res.setHeader('content-security-policy', `default-src 'self'; script-src 'self' 'nonce-${nonce}'`);
    // As the proxy does: the caller's id echoed, else one of its own.
    res.setHeader('x-request-id', req.headers['x-request-id'] ?? 'req_of_the_render');
    const cookie = url.searchParams.get('cookie');
    if (cookie) res.setHeader('set-cookie', cookie);
    res.write(`<html><head><script nonce="${nonce}" src="/a.js"></script></head><body>`);
    setTimeout(() => {
      res.end(
        `<p>${req.headers['accept-language'] ?? 'none'} · № ${renders.length}</p>` +
          `<script nonce="${nonce}">self.__next_f.push([1,"{\\"nonce\\":\\"${nonce}\\"}"])</script></body></html>`,
      );
    }, 50);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const rendersOf = (path: string) => renders.filter((r) => r.url === path).length;

/** The nonce of an answer's policy, after checking that its body carries that one and no other. */
async function nonceOf(answer: Response): Promise<string> {
  expect(answer.status).toBe(200);
  const nonce = /'nonce-([^']+)'/.exec(answer.headers.get('content-security-policy') ?? '')?.[1] ?? '';
  expect(nonce).not.toBe('');
  const body = await answer.text();
  const inBody = [...body.matchAll(/nonce="([^"]+)"|\\"nonce\\":\\"([^\\]+)\\"/g)].map((m) => m[1] ?? m[2]);
  expect(inBody).toEqual([nonce, nonce, nonce]);
  return nonce;
}

describe('buy pages shared by address', () => {
  it('renders an address once for 20 anonymous fans at once; each answer has its own nonce and request id', async () => {
    const path = '/market/evt_one?page=2';
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => fetch(`${base}${path}`, { headers: { 'x-request-id': `fan-${i}` } })),
    );
    expect(rendersOf(path)).toBe(1);
    const nonces = await Promise.all(answers.map(nonceOf));
    expect(new Set(nonces).size).toBe(20);
    expect(answers.map((a) => a.headers.get('x-request-id'))).toEqual(answers.map((_, i) => `fan-${i}`));
    // Stored uncompressed (the nonce is replaced in it); a fan who takes gzip gets it compressed.
    expect(renders.find((r) => r.url === path)?.acceptEncoding).toBeUndefined();
    const again = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(again.headers.get('content-encoding')).toBe('gzip');
    expect(again.headers.get('x-request-id')).toMatch(/^req_\w{32}$/);
    expect(nonces).not.toContain(await nonceOf(again));
    expect(rendersOf(path)).toBe(1);
  });

  it('renders for itself what carries a person or the router: a session cookie, a sign-in token, an RSC request', async () => {
    const path = '/market/evt_two';
    await fetch(`${base}${path}`);
    await fetch(`${base}${path}`, { headers: { cookie: 'encore_fan=abc' } });
    await fetch(`${base}${path}`, { headers: { cookie: 'encore_lang=es; encore_fan=abc' } });
    await fetch(`${base}${path}`, { headers: { rsc: '1' } });
    await fetch(`${base}${path}`, { headers: { authorization: 'Bearer x' } });
    expect(rendersOf(path)).toBe(5);
    // The remembered language alone is shared, by its value.
    await fetch(`${base}${path}`, { headers: { cookie: 'encore_lang=es' } });
    await fetch(`${base}${path}`, { headers: { cookie: 'encore_lang=es' } });
    expect(rendersOf(path)).toBe(6);
    await fetch(`${base}${path}?token=ott_1`);
    await fetch(`${base}${path}?token=ott_1`);
    expect(rendersOf(`${path}?token=ott_1`)).toBe(2);
    // Another language asked by the browser is another page.
    const es = await fetch(`${base}${path}`, { headers: { 'accept-language': 'es' } });
    expect(await es.text()).toContain('<p>es ·');
    expect(rendersOf(path)).toBe(7);
    expect(await (await fetch(`${base}/market/evt_two/listing`)).text()).toContain('<p>');
    await fetch(`${base}/market/evt_two/listing`);
    expect(rendersOf('/market/evt_two/listing')).toBe(2);
  });

  it('shares only a plain 200 page whose one cookie is the language the address chose', async () => {
    const lang = '/market/evt_three?lang=es&cookie=encore_lang%3Des%3B%20Path%3D%2F';
    await fetch(`${base}${lang}`);
    const replay = await fetch(`${base}${lang}`);
    expect(replay.headers.get('set-cookie')).toBe('encore_lang=es; Path=/');
    expect(rendersOf(lang)).toBe(1);
    for (const path of [
      '/market/evt_three?cookie=encore_fan%3Dsecret',
      '/market/evt_three?status=404',
      '/market/evt_three?type=application%2Fjson',
    ]) {
      const first = await fetch(`${base}${path}`);
      await first.text();
      const second = await fetch(`${base}${path}`);
      expect(second.headers.get('x-request-id')).toBe('req_of_the_render');
      await second.text();
      expect(rendersOf(path)).toBe(2);
    }
  });

  it('renders again after a listing write in this process, and once the window has passed', async () => {
    const path = '/market/evt_four';
    await nonceOf(await fetch(`${base}${path}`));
    await nonceOf(await fetch(`${base}${path}`));
    expect(rendersOf(path)).toBe(1);
    // What every committed listing write in the process does (the listingsChanged reaction; the e2e buy-page test holds one).
    forgetPages();
    await nonceOf(await fetch(`${base}${path}`));
    expect(rendersOf(path)).toBe(2);
    await new Promise((r) => setTimeout(r, BUY_PAGE_LAYER_MS + 20));
    await nonceOf(await fetch(`${base}${path}`));
    expect(rendersOf(path)).toBe(3);
  });
});
