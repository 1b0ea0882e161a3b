import { spawn } from 'node:child_process';
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { allJobs } from '@/server/jobs/registry';
import { createDatabase, uniqueName } from '@/server/testing/scratch-db';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** One app instance's start-up in a process of its own; answers what it printed once it is READY or failed. */
function bootInstance(url: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/testing/boot-child.ts', url], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NEXTAUTH_SECRET: '' },
  });
  cleanups.push(async () => {
    child.stdin.end();
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
  });
  return new Promise((resolve) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/^(READY|FAILED)/m.test(out)) resolve(out);
    });
    child.once('exit', () => resolve(out));
  });
}

describe('start-up of several instances at once', () => {
  it('three instances started together on an empty database all start, and shared state is made once', async () => {
    const db = await createDatabase(process.env.TEST_PG_SERVER_URL!, uniqueName('boot'), { fast: true });
    cleanups.push(db.drop);
    const outputs = await Promise.all([bootInstance(db.url), bootInstance(db.url), bootInstance(db.url)]);
    for (const out of outputs) expect(out).toMatch(/^READY$/m);
    // The demo partner's keys are printed by the one instance that made it.
    expect(outputs.filter((o) => o.includes('Demo partner created')).length).toBe(1);

    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const [partners] = await sql`select count(*)::int as n from partners`;
      const [admins] = await sql`select count(*)::int as n from staff_users where email = 'boot-admin@encore.test'`;
      const [secrets] = await sql`select count(*)::int as n from app_settings where key = 'nextauth_secret'`;
      const queues = await sql`select name from pgboss.queue`;
      expect([partners.n, admins.n, secrets.n]).toEqual([1, 1, 1]);
      expect(queues.map((q) => q.name).sort()).toEqual(expect.arrayContaining(allJobs().map((j) => j.id)));
    } finally {
      await sql.end();
    }
  }, 90_000);
});
