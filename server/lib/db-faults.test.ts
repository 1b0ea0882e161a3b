import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { POST as createEvent } from '@/app/v1/events/route';
import { closeDb, getDb } from '@/db';
import { eventRequest, makePartner, testShow } from '@/server/testing/fixtures';
import { createCallerFactory } from '@/server/trpc/init';
import { partnersRouter } from '@/server/trpc/routers/partners';
import { isConnectionFault } from './db-faults';

/** Terminates every backend of the app's pool (application_name encore) from a connection of its own. */
async function terminateAppBackends(): Promise<number> {
  const admin = postgres(process.env.DATABASE_URL!, {
    max: 1,
    onnotice: () => {},
    connection: { application_name: 'terminator' },
  });
  try {
    const rows = await admin`select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'encore' and datname = current_database() and pid <> pg_backend_pid()`;
    return rows.length;
  } finally {
    await admin.end();
  }
}

/** Fills the pool: ten connections busy at once, then idle (the connections a restart leaves dead). */
const warmPool = () => Promise.all(Array.from({ length: 10 }, () => getDb().execute(sql`select pg_sleep(0.02)`)));

const eventCount = async (partnerId: string) =>
  Number(
    (
      await getDb().execute<{ n: string }>(sql`select count(*)::text as n from events where partner_id = ${partnerId}`)
    )[0].n,
  );

const realUrl = process.env.DATABASE_URL;
afterEach(async () => {
  if (process.env.DATABASE_URL !== realUrl) {
    await closeDb();
    process.env.DATABASE_URL = realUrl;
  }
});

describe('database faults', () => {
  it('tells a dropped or refused connection from an error of the statement', () => {
    for (const code of [
      '57P01',
      '57P02',
      '57P03',
      '08006',
      '08003',
      'CONNECTION_CLOSED',
      'ECONNRESET',
      'ECONNREFUSED',
    ]) {
      expect(isConnectionFault(Object.assign(new Error('x'), { code })), code).toBe(true);
    }
    expect(isConnectionFault(new Error('x', { cause: Object.assign(new Error('y'), { code: 'EPIPE' }) }))).toBe(true);
    for (const code of ['23505', '40001', '22P02', 'ENOENT', undefined]) {
      expect(isConnectionFault(Object.assign(new Error('x'), { code })), String(code)).toBe(false);
    }
  });

  it('a write after every backend of the app was terminated succeeds, once, on a fresh connection', async () => {
    const { partner, apiKey } = await makePartner('Dropped between');
    await warmPool();
    expect(await terminateAppBackends()).toBeGreaterThan(0);
    const res = await createEvent(eventRequest(apiKey, 'DROPPED-1', [testShow('S1')]));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await eventCount(partner.id)).toBe(1);
  });

  it('under traffic, backends terminated again and again: no 500, every 200 stored, and the next write succeeds', async () => {
    const { partner, apiKey } = await makePartner('Dropped under traffic');
    await warmPool();
    let stop = false;
    const terminator = (async () => {
      let rounds = 0;
      while (!stop) {
        await terminateAppBackends();
        rounds += 1;
        await new Promise((r) => setTimeout(r, 100));
      }
      return rounds;
    })();
    const statuses = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const res = await createEvent(eventRequest(apiKey, `TRAFFIC-${i}`, [testShow('S1')]));
        if (res.status === 503) expect(res.headers.get('retry-after')).toBe('5');
        return res.status;
      }),
    );
    stop = true;
    expect(await terminator).toBeGreaterThan(0);
    // Never a 500: each call either committed (200) or was told to retry (503 with Retry-After).
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    // Every event answered 200 is stored (a 503 at COMMIT may or may not have committed: a retry with the
    // call's Idempotency-Key says which).
    expect(await eventCount(partner.id)).toBeGreaterThanOrEqual(statuses.filter((s) => s === 200).length);
    // The storm over, the next call is served (the pool reconnected on its own).
    const after = await createEvent(eventRequest(apiKey, 'AFTER-STORM', [testShow('S1')]));
    expect(after.status, await after.clone().text()).toBe(200);
  });

  it('PostgreSQL unreachable: the partner API answers 503 UNAVAILABLE with Retry-After in the envelope, never a 500', async () => {
    const { apiKey } = await makePartner('Unreachable');
    await closeDb();
    // A port nothing listens on: every connection is refused, as while the server is down.
    process.env.DATABASE_URL = 'postgres://encore@127.0.0.1:9/encore';
    const res = await createEvent(eventRequest(apiKey, 'DOWN-1', [testShow('S1')]));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    const body = await res.json();
    expect(body).toMatchObject({ status: 503, data: null, errors: { code: 'UNAVAILABLE' } });
    expect(body.errors.message).toMatch(/retry after 5 s/);
  });

  it('PostgreSQL unreachable: a dashboard call is a typed SERVICE_UNAVAILABLE the page shows, never an internal error', async () => {
    const { partner } = await makePartner('Unreachable dashboard');
    await closeDb();
    process.env.DATABASE_URL = 'postgres://encore@127.0.0.1:9/encore';
    const staff = { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' as const };
    const caller = createCallerFactory(partnersRouter)({ staff });
    await expect(caller.get({ partnerId: partner.id })).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringContaining('retry after 5 s'),
    });
  });
});
