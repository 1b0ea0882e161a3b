import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getDb } from '@/db';
import { apiRequest, makePartner } from '@/server/testing/fixtures';
import { defineRoute } from './contract';
import { consume } from './rate-limit';
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
