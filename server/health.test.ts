import { describe, expect, it } from 'vitest';
import { GET } from '@/app/healthz/route';
import { closeDb } from '@/db';

describe('GET /healthz', () => {
  it('answers 200 when the database answers', async () => {
    const res = await GET();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, database: 'up' });
  });

  it('answers 503 when the database does not', async () => {
    const real = process.env.DATABASE_URL;
    await closeDb();
    process.env.DATABASE_URL = 'postgres://nobody@127.0.0.1:1/nothing';
    try {
      const res = await GET();
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ ok: false, database: 'down' });
    } finally {
      await closeDb();
      process.env.DATABASE_URL = real;
    }
  });
});
