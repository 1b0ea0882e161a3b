import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { request as newRequest } from '@playwright/test';
import { type APIRequestContext, expect, test } from './fixtures';
import { ADMIN_EMAIL, ADMIN_PASSWORD, baseURL, createPartner, RUN, setUp } from './helpers';

/**
 * Bad input to any page or route handler outside /v1 is a 400, 403 or 404 with a branded page,
 * never a 500 and never an error log line. Every page and route handler is found by walking app/ (a new
 * one is fuzzed the day it lands), each dynamic segment is filled in turn with bad values (encodings
 * that are not UTF-8, a NUL, over-long ids), and each route gets bad queries, wrong methods, malformed
 * bodies and server-action posts from a foreign origin; every server action of the build is called from
 * a foreign origin and with arguments of the wrong shape. Dashboard routes are called as a signed-in staff
 * member and fan pages as a signed-in fan, so the bad values reach the code that reads the database.
 */

interface Route {
  template: string;
  page: boolean;
}

/** Every page.tsx and route.ts under app/ outside /v1, as a template: `/dashboard/partners/[partnerId]`. */
function appRoutes(dir = 'app', prefix = ''): Route[] {
  const found: Route[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && (entry.name === 'page.tsx' || entry.name === 'route.ts')) {
      found.push({ template: prefix || '/', page: entry.name === 'page.tsx' });
    } else if (entry.isDirectory() && !entry.name.startsWith('_') && !(prefix === '' && entry.name === 'v1')) {
      // Route groups `(market)` add nothing to the address.
      const segment = /^\(.*\)$/.test(entry.name) ? '' : `/${entry.name}`;
      found.push(...appRoutes(path.join(dir, entry.name), prefix + segment));
    }
  }
  return found;
}

const dynamicSegments = (template: string) => template.match(/\[[^\]]+\]/g) ?? [];

/** Values of a segment that could exist: a real partner id where one is named, a plausible id elsewhere. */
function validValue(segment: string, partnerId: string): string {
  if (segment === '[partnerId]') return partnerId;
  if (segment === '[...nextauth]') return 'session';
  return 'x_1';
}

// Not UTF-8, a NUL, far too long (all refused by the proxy), and one that reaches the page: longer than any
// id, with quotes and markup in it.
const BAD_SEGMENTS = ['%FF', '%C0%AF', 'a%00b', 'a'.repeat(5000), `%27%22%3C${'a'.repeat(300)}`];

function fill(template: string, partnerId: string, bad?: { index: number; value: string }): string {
  let i = 0;
  return template.replace(/\[[^\]]+\]/g, (segment) =>
    i++ === bad?.index ? bad.value : validValue(segment, partnerId),
  );
}

interface Probe {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

const FOREIGN = 'https://evil.example';
const UNKNOWN_ACTION = 'ab'.repeat(21);
const MULTIPART = { 'content-type': 'multipart/form-data; boundary=XYZ' };

/** The probes of one route: bad segments, a bad query, wrong methods, malformed bodies, foreign server actions. */
function probesOf(route: Route, partnerId: string): Probe[] {
  const probes: Probe[] = [];
  dynamicSegments(route.template).forEach((_, index) => {
    for (const value of BAD_SEGMENTS)
      probes.push({ method: 'GET', url: fill(route.template, partnerId, { index, value }) });
  });
  const url = fill(route.template, partnerId);
  probes.push(
    { method: 'GET', url: `${url}?q=%00&page=-1&lang=%FF&status=${'z'.repeat(3000)}` },
    { method: 'GET', url: `${url}?token=a%00b&next=%00` },
    { method: 'POST', url, headers: MULTIPART, body: '--XYZ\r\nContent-Disposition: form-da' },
    { method: 'POST', url, headers: { 'next-action': UNKNOWN_ACTION, origin: FOREIGN }, body: '[]' },
    { method: 'POST', url, headers: { 'next-action': 'not-an-action', 'content-type': 'text/plain' }, body: '[]' },
  );
  // Wrong methods and bodies that are not JSON where handlers read bodies (a page ignores both and renders).
  if (!route.page) {
    probes.push(
      { method: 'PUT', url, headers: { 'content-type': 'application/json' }, body: '{"a":' },
      { method: 'DELETE', url },
      { method: 'POST', url, headers: { 'content-type': 'application/json' }, body: '{"a":' },
    );
  }
  return probes;
}

/** The server actions of the build under test, each with a page that serves it (the build's manifest). */
function serverActions(): { id: string; page: string }[] {
  const dist = process.env.NEXT_DIST_DIR || '.next';
  const manifest = JSON.parse(readFileSync(path.join(dist, 'server', 'server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { workers: Record<string, unknown> }>;
  };
  return Object.entries(manifest.node).map(([id, action]) => {
    const page = Object.keys(action.workers)[0]
      .replace(/^app/, '')
      .replace(/\/page$/, '');
    return { id, page: page.replace(/\/\([^)]+\)/g, '') || '/' };
  });
}

function actionProbes(partnerId: string): Probe[] {
  return serverActions().flatMap(({ id, page }) => {
    const url = fill(page, partnerId);
    const action = { 'next-action': id, 'content-type': 'text/plain;charset=UTF-8' };
    return [
      // Nothing happens, and it says so: a 403 rather than Next.js's 500 and error line.
      { method: 'POST', url, headers: { ...action, origin: FOREIGN }, body: '["$undefined"]' },
      { method: 'POST', url, headers: { ...action, origin: 'not a url' }, body: '[]' },
      // Arguments of the wrong shape, from our own origin.
      { method: 'POST', url, headers: { ...action, origin: baseURL }, body: `["\\u0000","${'a'.repeat(5000)}",7]` },
      { method: 'POST', url, headers: { ...action, origin: baseURL }, body: '{not json' },
      { method: 'POST', url, headers: { 'next-action': id, ...MULTIPART, origin: baseURL }, body: '--XYZ\r\nbroken' },
    ];
  });
}

/** A request context signed in as the e2e admin (next-auth's credentials form, as the sign-in page posts it). */
async function staffContext(): Promise<APIRequestContext> {
  const ctx = await newRequest.newContext({ baseURL });
  const { csrfToken } = (await (await ctx.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const res = await ctx.post('/api/auth/callback/credentials', {
    form: { csrfToken, email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
  return ctx;
}

/** A request context signed in as a fan of the partner (a one-time token from the partner API, redeemed). */
async function fanContext(apiKey: string): Promise<APIRequestContext> {
  const ctx = await newRequest.newContext({ baseURL });
  const token = await ctx.get(`/v1/auth/oneTimeToken?user=${encodeURIComponent(`fuzz.${RUN}@example.com`)}`, {
    headers: { authorization: apiKey },
  });
  const res = await ctx.get(`/auth/redeem?token=${(await token.json()).data}&next=/me`, { maxRedirects: 0 });
  expect(res.status()).toBe(303);
  return ctx;
}

const errorOutput = () => setUp<{ total: number; last: string[] }>('error-output', {});

type Answer = { probe: string; status: number; html: string };

/** One probe's answer: its status, and its page when it is an HTML error answer. */
async function answer(ctx: APIRequestContext, p: Probe): Promise<Answer> {
  const name = `${p.method} ${p.url.slice(0, 120)} ${JSON.stringify(p.headers ?? {})}`;
  const res = await ctx
    .fetch(p.url, { method: p.method, headers: p.headers, data: p.body, maxRedirects: 0, timeout: 10_000 })
    .catch((err: Error) => err);
  if (res instanceof Error) return { probe: `${name}: ${res.message.split('\n')[0]}`, status: 599, html: '' };
  const html = (res.headers()['content-type'] ?? '').startsWith('text/html') && res.status() >= 400;
  return { probe: name, status: res.status(), html: html ? await res.text() : '' };
}

/** Runs the probes on a few lanes at once (a lane takes the next probe as soon as its last one is answered). */
async function run(ctx: (url: string) => APIRequestContext, probes: Probe[], lanes = 6): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < probes.length) {
        const p = probes[next++];
        answers.push(await answer(ctx(p.url), p));
      }
    }),
  );
  return answers;
}

test('bad input to every page and route handler outside /v1 is a 4xx with a branded page, never a 500 or an error line', async () => {
  test.setTimeout(120_000);
  const partner = await createPartner(`E2E Fuzz ${RUN}`);
  const [staff, fan, anonymous] = await Promise.all([
    staffContext(),
    fanContext(partner.apiKey),
    newRequest.newContext({ baseURL }),
  ]);
  // Dashboard and API routes as staff, fan pages as a fan; sign-out routes anonymously (they would end the session).
  const contextFor = (url: string) =>
    /signout|\/api\/auth/.test(url) ? anonymous : url.startsWith('/dashboard') || url.startsWith('/api') ? staff : fan;

  const routes = appRoutes();
  expect(routes.length).toBeGreaterThan(50);
  const probes = [...routes.flatMap((r) => probesOf(r, partner.partnerId)), ...actionProbes(partner.partnerId)];

  const before = await errorOutput();
  const answers = await run(contextFor, probes);
  const after = await errorOutput();

  const fiveHundreds = answers.filter((a) => a.status >= 500).map((a) => `${a.status} ${a.probe}`);
  expect(fiveHundreds, `${fiveHundreds.length} of ${answers.length} answers were 5xx`).toEqual([]);
  // An HTML error answer is an Encore page (the proxy's refusal page, a not-found page), not a bare default.
  const unbranded = answers.filter((a) => a.html && !a.html.includes('Encore')).map((a) => `${a.status} ${a.probe}`);
  expect(unbranded).toEqual([]);
  const logged = after.last.slice(Math.max(0, after.last.length - (after.total - before.total)));
  expect(logged, 'the server wrote errors while answering bad input').toEqual([]);
  expect(answers.length).toBeGreaterThan(300);

  await Promise.all([staff.dispose(), fan.dispose(), anonymous.dispose()]);
});

test('the known bad inputs, each a clear 4xx: bad encodings, a NUL, an over-long id, a foreign server action', async ({
  request,
}) => {
  const partner = await createPartner(`E2E Bad input ${RUN}`);
  const staff = await staffContext();

  // A path that is not UTF-8 on a fan page: a 400 in the fan's language.
  const es = await request.get('/listing/%C0%AF', { headers: { 'accept-language': 'es-ES,es;q=0.9' } });
  expect(es.status()).toBe(400);
  const esPage = await es.text();
  expect(esPage).toContain('data-testid="request-error"');
  expect(esPage).toContain('<html lang="es">');
  expect(esPage).toContain('Esta dirección no funciona');
  const en = await request.get('/t/%FF?lang=en');
  expect(en.status()).toBe(400);
  expect(await en.text()).toContain('This address does not work');
  // Security headers are on the refusal too.
  expect(en.headers()['x-content-type-options']).toBe('nosniff');
  expect(en.headers()['content-security-policy']).toContain("frame-ancestors 'none'");

  // A NUL in the partner id of the leads export, and a 5,000-character ticket id: refused before PostgreSQL.
  expect((await staff.get('/dashboard/partners/%00/leads/export')).status()).toBe(400);
  expect((await staff.get(`/dashboard/partners/${partner.partnerId}/tickets/${'a'.repeat(5000)}`)).status()).toBe(400);
  // Longer than any ticket id (100) but short enough to reach the page: the page's not-found.
  const long = await staff.get(`/dashboard/partners/${partner.partnerId}/tickets/${'a'.repeat(300)}`);
  expect(long.status()).toBe(404);
  // A NUL in a search: in the page's address the proxy refuses it; sent to the dashboard API inside JSON it
  // reaches PostgreSQL, which refuses it: a 400 from tRPC, not an internal error.
  expect((await staff.get(`/dashboard/partners/${partner.partnerId}/tickets?q=a%00`)).status()).toBe(400);
  const input = encodeURIComponent(JSON.stringify({ json: { partnerId: partner.partnerId, query: 'a\u0000' } }));
  const search = await staff.get(`/api/trpc/catalog.searchTickets?input=${input}`);
  expect(search.status()).toBe(400);

  // A server action from another site: 403, the branded page, nothing done.
  const [signIn] = serverActions().filter((a) => a.page === '/login');
  const forged = await request.post(`/login?partner=${partner.partnerId}`, {
    headers: { 'next-action': signIn.id, origin: FOREIGN, 'content-type': 'text/plain;charset=UTF-8' },
    data: '["$undefined"]',
  });
  expect(forged.status()).toBe(403);
  expect(await forged.text()).toContain('Request refused');

  // Arguments of the wrong shape from our own origin: Next.js's not-found (404), nothing done.
  const garbage = await request.post('/login', {
    headers: { 'next-action': signIn.id, origin: baseURL, 'content-type': 'text/plain;charset=UTF-8' },
    data: '["a", "b"]',
  });
  expect(garbage.status()).toBe(404);
  // A malformed multipart body to a page: 400.
  const broken = await request.post('/login', { headers: MULTIPART, data: '--XYZ\r\nContent-Disposition: form-da' });
  expect(broken.status()).toBe(400);
  await staff.dispose();
});
