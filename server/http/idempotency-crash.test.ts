import { spawn } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { POST as ticketsPost } from '@/app/v1/tickets/route';
import { getDb } from '@/db';
import { defineRoute } from '@/server/lib/contract';
import { transaction } from '@/server/lib/transaction';
import { makePartner } from '@/server/testing/fixtures';
import { idempotentCall, partnerWithTicketBatch, rows } from '@/server/testing/idempotency';
import { handle } from './route';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const call = (handler: Parameters<typeof idempotentCall>[0], path: string, key: string, idem: string, body: unknown) =>
  idempotentCall(handler, path, key, { idem, body });

/** Runs the call in a child process that is killed (SIGKILL) right after the call's transaction committed. */
function callAndDie(apiKey: string, idem: string, body: unknown) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/testing/idempotent-call-child.ts', process.env.DATABASE_URL!],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, IDEM_CALL: JSON.stringify({ apiKey, idem, body }) },
    },
  );
  cleanups.push(() => child.kill('SIGKILL'));
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise<{ signal: NodeJS.Signals | null; out: string }>((resolve) =>
    child.on('exit', (_code, signal) => resolve({ signal, out })),
  );
}

describe('Idempotency-Key: a process dying between the effect and the answer', () => {
  it('POST /v1/tickets killed after its batch committed: the retry replays that batch, and none is added', async () => {
    const { p, tickets } = await partnerWithTicketBatch('Idem crash');
    const died = await callAndDie(p.apiKey, 'crash-1', tickets);
    expect([died.signal, died.out]).toEqual(['SIGKILL', '']);
    const batches = () => rows<{ id: string }>(sql`select id from ticket_batches where partner_id = ${p.partner.id}`);
    const [batch] = await batches();
    expect(batch).toBeDefined();

    // The retry comes after the claim's lease (as if 5 minutes had passed): a claim left without its answer
    // would be taken over and the call run again.
    await getDb().execute(sql`update idempotency_keys set claimed_at = now() - interval '10 minutes'
      where partner_id = ${p.partner.id} and key = 'crash-1'`);
    const retry = await call(ticketsPost, '/v1/tickets', p.apiKey, 'crash-1', tickets);
    expect([retry.status, retry.replayed, retry.body.data.batchId]).toEqual([200, 'true', batch.id]);
    expect(await batches()).toHaveLength(1);
    const again = await call(ticketsPost, '/v1/tickets', p.apiKey, 'crash-1', tickets);
    expect([again.replayed, again.text]).toEqual(['true', retry.text]);
  });

  /** A test route whose handler commits a transaction and then fails (5xx) the first time, as a crash would. */
  const effectThenCrash = (repeatable: boolean, runs: { n: number }) =>
    handle(
      defineRoute({
        method: 'POST',
        path: '/v1/test/effect-then-crash',
        operationId: 'testEffectThenCrash',
        tag: 'Test',
        summary: 'commits, then fails before answering',
        auth: 'partner',
        body: z.object({ n: z.number() }),
        response: z.object({ runs: z.number() }),
      }),
      async () => {
        runs.n += 1;
        await transaction(async ({ tx }) => {
          await tx.execute(sql`select 1`);
        }, getDb());
        if (runs.n === 1) throw new Error('the process went away after the commit');
        return { runs: runs.n };
      },
      { repeatable },
    );

  it('a handler that committed and lost its answer is not run again (409) unless its route is repeatable', async () => {
    const p = await makePartner('Idem lost answer');
    const once = { n: 0 };
    const strict = effectThenCrash(false, once);
    expect((await call(strict, '/v1/test/effect-then-crash', p.apiKey, 'lost', { n: 1 })).status).toBe(500);
    const retry = await call(strict, '/v1/test/effect-then-crash', p.apiKey, 'lost', { n: 1 });
    expect([retry.status, once.n]).toEqual([409, 1]);
    expect(retry.body.errors.message).toMatch(/was applied but its answer was lost/);

    const twice = { n: 0 };
    const repeatable = effectThenCrash(true, twice);
    expect((await call(repeatable, '/v1/test/effect-then-crash', p.apiKey, 'rerun', { n: 1 })).status).toBe(500);
    const rerun = await call(repeatable, '/v1/test/effect-then-crash', p.apiKey, 'rerun', { n: 1 });
    expect([rerun.status, rerun.replayed, rerun.body.data, twice.n]).toEqual([200, null, { runs: 2 }, 2]);
  });

  it("a call whose claim was taken over after its lease commits nothing: its transaction fails, the taker's runs", async () => {
    const p = await makePartner('Idem taken over');
    await getDb().execute(sql`create table if not exists idem_test_effects (scope text, n int)`);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    let calls = 0;
    const slow = handle(
      defineRoute({
        method: 'POST',
        path: '/v1/test/slow',
        operationId: 'testSlow',
        tag: 'Test',
        summary: 'the first call outlives its lease',
        auth: 'partner',
        body: z.object({ n: z.number() }),
        response: z.object({ call: z.number() }),
      }),
      ({ commit }) => {
        const n = ++calls;
        return commit(async ({ tx }) => {
          await tx.execute(sql`insert into idem_test_effects (scope, n) values (${p.partner.id}, ${n})`);
          if (n === 1) {
            entered();
            await released;
          }
          return { call: n };
        });
      },
    );
    const first = call(slow, '/v1/test/slow', p.apiKey, 'slow', { n: 1 });
    await inside;
    await getDb().execute(sql`update idempotency_keys set claimed_at = now() - interval '10 minutes'
      where partner_id = ${p.partner.id} and key = 'slow'`);
    const taker = await call(slow, '/v1/test/slow', p.apiKey, 'slow', { n: 1 });
    expect([taker.status, taker.replayed, taker.body.data]).toEqual([200, null, { call: 2 }]);
    release();
    const late = await first;
    expect(late.status).toBe(409);
    expect(late.body.errors.message).toMatch(/another call with the key took it over; nothing was applied/);
    const effects = await rows<{ n: number }>(sql`select n from idem_test_effects where scope = ${p.partner.id}`);
    expect(effects).toEqual([{ n: 2 }]);
    const replay = await call(slow, '/v1/test/slow', p.apiKey, 'slow', { n: 1 });
    expect([replay.replayed, replay.text]).toEqual(['true', taker.text]);
  });
});
