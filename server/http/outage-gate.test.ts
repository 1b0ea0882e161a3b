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
      await onRequestError(refused());
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

  it('only a connection fault the database has not recovered from closes it', async () => {
    noteDatabaseFault(Object.assign(new Error('duplicate key'), { code: '23505' }));
    await onRequestError(new Error('a bug in a page'));
    // A terminated backend: a fault, but PostgreSQL answers the probe, so pages stay Next.js's.
    noteDatabaseFault(
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    );
    expect(databaseProbing()).toBe(true);
    await expect.poll(() => databaseProbing()).toBe(false);
    expect(databaseDown()).toBe(false);
  });
});
