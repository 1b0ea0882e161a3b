import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getDb } from '@/db';
import { allJobs } from '@/server/jobs/registry';
import { apiRequest, makePartner } from '@/server/testing/fixtures';
import { defineRoute } from './contract';
import { sweepRateLimitWindowsJob } from './jobs';
import { consume, release, sweepRateLimitWindows } from './rate-limit';
import { handle } from '@/server/http/route';

const limited = handle(
  defineRoute({
    method: 'GET',
    path: '/v1/test/limited',
    operationId: 'testLimited',
    tag: 'Test',
    summary: 'limited',
    auth: 'partner',
    rateLimit: { name: `test-limited-${Date.now()}`, limit: 5, windowSeconds: 60 },
    response: z.boolean(),
  }),
  async () => true,
);

describe('shared rate limiter', () => {
  it('refuses the call after the limit within the window with 429 and Retry-After, per partner', async () => {
    const a = await makePartner('Limited A');
    const b = await makePartner('Limited B');
    for (let i = 0; i < 5; i++) {
      const ok = await limited(apiRequest('/v1/test/limited', { key: a.apiKey }));
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-ratelimit-remaining')).toBe(String(4 - i));
    }
    const sixth = await limited(apiRequest('/v1/test/limited', { key: a.apiKey }));
    expect(sixth.status).toBe(429);
    const retryAfter = Number(sixth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await sixth.json()).toMatchObject({ status: 429, data: null, errors: { code: 'RATE_LIMITED' } });
    // Another partner has its own budget.
    expect((await limited(apiRequest('/v1/test/limited', { key: b.apiKey }))).status).toBe(200);
  });

  it('is exact under concurrency: of 30 simultaneous calls exactly the limit pass', async () => {
    const limit = { name: `concurrent-${Date.now()}`, limit: 7, windowSeconds: 60 };
    const decisions = await Promise.all(Array.from({ length: 30 }, () => consume(limit, 'p1', getDb())));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(7);
  });

  it('lets calls through again once the window has slid past the earliest accepted one', async () => {
    const limit = { name: `slide-${Date.now()}`, limit: 2, windowSeconds: 1 };
    expect((await consume(limit, 'p', getDb())).allowed).toBe(true);
    expect((await consume(limit, 'p', getDb())).allowed).toBe(true);
    const refused = await consume(limit, 'p', getDb());
    expect(refused).toMatchObject({ allowed: false, retryAfter: 1 });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await consume(limit, 'p', getDb())).allowed).toBe(true);
  });
});

describe('sweeping expired windows', () => {
  const windowOf = async (key: string) => {
    const rows = await getDb().execute<{ expires_at: Date; newest: string }>(
      sql`select expires_at, hits[cardinality(hits)] as newest from rate_limit_windows where key = ${key}`,
    );
    return rows[0];
  };

  it('keeps when the newest hit leaves its window; deletes a window once it has, keeps a live one', async () => {
    const run = `${process.pid}-${Date.now()}`;
    const short = { name: `sweep-short-${run}`, limit: 3, windowSeconds: 1 };
    const long = { name: `sweep-long-${run}`, limit: 3, windowSeconds: 900 };
    await consume(short, 'fan@example.com', getDb());
    await consume(long, 'fan@example.com', getDb());
    await consume(long, 'fan@example.com', getDb());
    const live = await windowOf(`${long.name}:fan@example.com`);
    expect(new Date(live.expires_at).getTime()).toBe(Number(live.newest) + 900_000);
    // A hit given back leaves the expiry as an upper bound of the older hits'.
    await release(long, 'fan@example.com', getDb());
    expect(new Date((await windowOf(`${long.name}:fan@example.com`)).expires_at).getTime()).toBe(
      Number(live.newest) + 900_000,
    );

    await new Promise((r) => setTimeout(r, 1100));
    expect(await sweepRateLimitWindows(getDb())).toBeGreaterThanOrEqual(1);
    expect(await windowOf(`${short.name}:fan@example.com`)).toBeUndefined();
    expect(await windowOf(`${long.name}:fan@example.com`)).toBeDefined();
    // The swept subject starts afresh; the live one still counts what it had.
    expect(await consume(short, 'fan@example.com', getDb())).toMatchObject({ allowed: true, remaining: 2 });
    expect(await consume(long, 'fan@example.com', getDb())).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('stays exact while sweeps delete the row under concurrent calls', async () => {
    const limit = { name: `sweep-race-${process.pid}-${Date.now()}`, limit: 7, windowSeconds: 60 };
    // A window left from long ago: expired, so every sweep below may delete it.
    await getDb().execute(sql`insert into rate_limit_windows (key, hits, expires_at)
      values (${`${limit.name}:p`}, '{1000}', now() - interval '1 hour')`);
    const calls = Array.from({ length: 30 }, (_, i) =>
      i % 3 ? consume(limit, 'p', getDb()) : sweepRateLimitWindows(getDb()).then(() => null),
    );
    const decisions = (await Promise.all(calls)).filter((d) => d !== null);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(7);
  });

  it('runs hourly as a job of the registry', () => {
    expect(sweepRateLimitWindowsJob).toMatchObject({ id: 'rateLimit.sweepExpired', cron: '29 * * * *' });
    expect(allJobs()).toContain(sweepRateLimitWindowsJob);
  });
});
