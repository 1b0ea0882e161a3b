import { type ChildProcess, spawn } from 'node:child_process';
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { getDb, getSql } from '@/db';
import { allJobs } from '@/server/jobs/registry';
import { enqueueWebhook, getMessage, upsertEndpoint } from '@/server/modules/webhooks';
import { makePartner } from '@/server/testing/fixtures';
import { setEnv } from '@/server/testing/env';
import { Receiver } from '@/server/testing/receiver';
import { createDatabase, uniqueName } from '@/server/testing/scratch-db';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** One app instance's start-up in a process of its own; answers what it printed once it is READY or failed. */
function bootInstance(
  url: string,
  env: Record<string, string> = {},
): Promise<string> & { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/testing/boot-child.ts', url], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NEXTAUTH_SECRET: '', ...env },
  });
  cleanups.push(async () => {
    child.stdin.end();
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
  });
  let out = '';
  const printed = new Promise<string>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/^(READY|FAILED)/m.test(out)) resolve(out);
    });
    child.once('exit', () => resolve(out));
  });
  return Object.assign(printed, { child, output: () => out });
}

describe('start-up of several instances at once', () => {
  it('three instances started together on an empty database all start, and shared state is made once', async () => {
    const db = await createDatabase(process.env.TEST_PG_SERVER_URL!, uniqueName('boot'), { fast: true });
    cleanups.push(db.drop);
    const seed = { BOOT_CHILD_SEED: '1' };
    const outputs = await Promise.all([
      bootInstance(db.url, seed),
      bootInstance(db.url, seed),
      bootInstance(db.url, seed),
    ]);
    for (const out of outputs) expect(out).toMatch(/^READY$/m);
    // The demo partner's keys are printed by the one instance that made it.
    expect(outputs.filter((o) => o.includes('Demo partner created')).length).toBe(1);

    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      // The demo partner and its test twin (test mode), made once.
      const [partners] = await sql`select count(*)::int as n from partners where mode = 'live'`;
      const [twins] = await sql`select count(*)::int as n from partners where mode = 'test'`;
      const [admins] = await sql`select count(*)::int as n from staff_users where email = 'boot-admin@encore.test'`;
      const [secrets] = await sql`select count(*)::int as n from app_settings where key = 'nextauth_secret'`;
      const queues = await sql`select name from pgboss.queue`;
      expect([partners.n, twins.n, admins.n, secrets.n]).toEqual([1, 1, 1, 1]);
      expect(queues.map((q) => q.name).sort()).toEqual(expect.arrayContaining(allJobs().map((j) => j.id)));
    } finally {
      await sql.end();
    }
  }, 90_000);
});

describe('graceful shutdown', () => {
  it('on SIGTERM a job in flight finishes once before the process exits', async () => {
    const restoreEnv = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: '1' });
    cleanups.push(async () => restoreEnv());
    const receiver = await new Receiver().start();
    cleanups.push(() => receiver.stop());
    // The partner's receiver holds the delivery for 1.5 s: SIGTERM arrives in the middle of the job.
    receiver.reply({ status: 200, delayMs: 1500 });
    const { partner } = await makePartner('Shutdown');
    await upsertEndpoint({ partnerId: partner.id, url: receiver.url, enabled: true }, getDb());
    cleanups.push(() => getSql()`update webhook_endpoints set enabled = false where partner_id = ${partner.id}`);
    const id = await enqueueWebhook(getDb(), partner.id, {
      family: 'ticket',
      action: 'ticket.updated',
      data: { id: `SD-${Date.now()}`, newOwnerEmail: 'b@example.com', oldOwnerEmail: null },
    });

    const instance = bootInstance(process.env.DATABASE_URL!, { JOBS_SCHEDULES: '0', BOOT_CHILD_HEALTH: '1' });
    expect(await instance).toMatch(/^HEALTH 200\nREADY$/m);
    await expect.poll(() => receiver.requests.length, { timeout: 15_000 }).toBe(1);
    const exited = new Promise<number | null>((resolve) => instance.child.once('exit', (code) => resolve(code)));
    instance.child.kill('SIGTERM');
    expect(await exited).toBe(143);
    // From the signal on, /healthz says 503 (a load balancer stops sending new requests) while the job finishes.
    expect(instance.output()).toMatch(/^READY\nHEALTH 503$/m);

    // The attempt was recorded before the exit (the old exit cut it off: pending, delivered again later).
    const { message, attempts } = await getMessage(partner.id, id, getDb());
    expect(message.status).toBe('delivered');
    expect(attempts.map((a) => a.statusCode)).toEqual([200]);
    expect(receiver.requests).toHaveLength(1);
  }, 60_000);
});
