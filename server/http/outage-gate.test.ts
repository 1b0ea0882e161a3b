import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeDb } from '@/db';
import { databaseDown, databaseProbing, noteDatabaseFault, resetDatabaseHealth } from '@/server/lib/db-health';
import { onRequestError } from '@/instrumentation';
import { listenerWithStandIn } from '@/server/testing/listener';

const realUrl = process.env.DATABASE_URL;
afterEach(async () => {
  resetDatabaseHealth();
  if (process.env.DATABASE_URL !== realUrl) {
    await closeDb();
    process.env.DATABASE_URL = realUrl;
  }
});

// As in an app instance: Next.js's Node.js runtime reports the errors (instrumentation.ts).
const runtime = process.env.NEXT_RUNTIME;
beforeAll(() => {
  process.env.NEXT_RUNTIME = 'nodejs';
});
afterAll(() => {
  if (runtime === undefined) delete process.env.NEXT_RUNTIME;
  else process.env.NEXT_RUNTIME = runtime;
});

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });

describe('the outage gate', () => {
  it('while PostgreSQL is unreachable: branded 503 pages in the fan’s language, the envelope’s 503 on /v1, then back', async () => {
    const { base, asked, close } = await listenerWithStandIn();
    try {
      await closeDb();
      process.env.DATABASE_URL = 'postgres://encore@127.0.0.1:9/encore';
      // A page's render met the outage: Next.js reports it, and the gate closes.
      await onRequestError(refused(), { path: '/market/evt_1', method: 'GET', headers: {} });
      await expect.poll(() => databaseDown()).toBe(true);

      const page = await fetch(`${base}/market/evt_1?show=1&lang=es`, { headers: { 'x-request-id': 'req-out-1' } });
      expect(page.status).toBe(503);
      expect(page.headers.get('retry-after')).toBe('5');
      expect(page.headers.get('x-request-id')).toBe('req-out-1');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await page.text();
      expect(html).toContain('<html lang="es">');
      expect(html).toContain('Encore no está disponible por un momento');
      expect(html).toContain('href="/market/evt_1?show=1&amp;lang=es"');
      // The browser's language when the address names none; the remembered one before it.
      const en = await fetch(`${base}/sell/tkt_1`, { headers: { 'accept-language': 'en-GB,en;q=0.9' } });
      expect(await en.text()).toContain('Encore is unavailable for a moment');
      const remembered = await fetch(`${base}/me`, { headers: { cookie: 'encore_lang=es', 'accept-language': 'en' } });
      expect(await remembered.text()).toContain('<html lang="es">');

      const api = await fetch(`${base}/v1/me`);
      expect(api.status).toBe(503);
      expect(api.headers.get('retry-after')).toBe('5');
      expect(await api.json()).toMatchObject({ status: 503, data: null, errors: { code: 'UNAVAILABLE' } });

      // What reads no database still goes through: the health check (which says 503 itself), Next.js's files.
      await (await fetch(`${base}/healthz`)).text();
      await (await fetch(`${base}/_next/static/chunks/a.js`)).text();
      expect(asked).toEqual(['/healthz', '/_next/static/chunks/a.js']);

      // PostgreSQL back: the probe opens the gate within a second or two, and pages are Next.js's again.
      await closeDb();
      process.env.DATABASE_URL = realUrl;
      await expect.poll(() => databaseDown(), { timeout: 10_000 }).toBe(false);
      expect(await (await fetch(`${base}/market/evt_1`)).text()).toBe('next');
    } finally {
      await close();
    }
  });

  it('answers the first pages that meet an outage, before the gate closes, with the outage page', async () => {
    // As Next.js fails a page whose render met the outage: it reports the error, then writes its error page
    // (by writeHead, or by statusCode and end), perhaps while the probe still runs.
    const { base, close } = await listenerWithStandIn({
      handle: async (req, res) => {
        const url = req.url ?? '/';
        if (url.includes('bug')) {
          res.statusCode = 500;
          return void res.end('next: a bug');
        }
        if (!url.includes('meets')) return void res.end('next');
        await onRequestError(refused(), { path: url, method: 'GET', headers: {} });
        res.setHeader('set-cookie', 'a=1');
        if (url.startsWith('/sell')) {
          res.statusCode = 500;
          res.end('next error page');
        } else {
          res.writeHead(500, { 'content-type': 'text/html', 'cache-control': 'private' });
          res.write('next error');
          res.end(' page');
        }
      },
    });
    try {
      const bug = await fetch(`${base}/me?bug=1`);
      expect([bug.status, await bug.text()]).toEqual([500, 'next: a bug']);

      await closeDb();
      process.env.DATABASE_URL = 'postgres://encore@127.0.0.1:9/encore';
      for (const path of ['/checkout/int_1?meets=1&lang=es', '/sell/tkt_1?meets=1&lang=es']) {
        const page = await fetch(`${base}${path}`, { headers: { 'x-request-id': 'req-first' } });
        expect(page.status).toBe(503);
        expect(page.headers.get('retry-after')).toBe('5');
        expect(page.headers.get('x-request-id')).toBe('req-first');
        expect(page.headers.get('set-cookie')).toBeNull();
        expect(page.headers.get('cache-control')).toBe('no-store');
        const html = await page.text();
        expect(html).toContain('Encore no está disponible por un momento');
        expect(html).not.toContain('next');
      }
      // While the gate is closed, another bug's 500 is an outage too; once the database is back it is a 500.
      await closeDb();
      process.env.DATABASE_URL = realUrl;
      await expect.poll(() => databaseDown() || databaseProbing(), { timeout: 10_000 }).toBe(false);
      const after = await fetch(`${base}/me?bug=2`);
      expect([after.status, await after.text()]).toEqual([500, 'next: a bug']);
    } finally {
      await close();
    }
  });

  it('only a connection fault the database has not recovered from closes it', async () => {
    noteDatabaseFault(Object.assign(new Error('duplicate key'), { code: '23505' }));
    await onRequestError(new Error('a bug in a page'), { path: '/market/evt_1', method: 'GET', headers: {} });
    // A terminated backend: a fault, but PostgreSQL answers the probe, so pages stay Next.js's.
    noteDatabaseFault(
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    );
    expect(databaseProbing()).toBe(true);
    await expect.poll(() => databaseProbing()).toBe(false);
    expect(databaseDown()).toBe(false);
  });
});
