import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getSql } from '@/db';
import { replaceJobProvider, sendJobBatched } from './client';
import { LocalJobProvider } from './local';
import { defineJob, type JobDefinition } from './types';

// A queue of its own (an id no other test uses), so parallel test files never see these runs.
const ran: number[] = [];
const records = defineJob({
  id: 'local-test.records',
  description: 'Records its input',
  input: z.object({ n: z.number() }),
  async run({ n }) {
    ran.push(n);
  },
});

const provider = new LocalJobProvider(process.env.DATABASE_URL!, { pollingIntervalSeconds: 0.5 });
afterAll(() => provider.stop());

describe('local job provider', () => {
  it('queues several jobs in one write: the due ones run, a delayed one waits for its time, a singleton key once', async () => {
    await provider.start([records as unknown as JobDefinition]);
    const later = new Date(Date.now() + 3_600_000);
    await provider.sendMany([
      { name: records.id, input: { n: 1 } },
      { name: records.id, input: { n: 2 }, opts: { singletonKey: 'two' } },
      { name: records.id, input: { n: 3 }, opts: { runAt: later, singletonKey: 'three' } },
    ]);
    await expect.poll(() => [...ran].sort(), { timeout: 10_000 }).toEqual([1, 2]);

    const sql = getSql();
    const [delayed] = await sql<{ state: string; start_after: Date; singleton_key: string }[]>`
      select state, start_after, singleton_key from pgboss.job where name = ${records.id} and data ->> 'n' = '3'`;
    expect(delayed.state).toBe('created');
    expect(delayed.singleton_key).toBe('three');
    expect(Math.abs(new Date(delayed.start_after).getTime() - later.getTime())).toBeLessThan(1000);

    // Nothing to send is no write at all.
    await provider.sendMany([]);
    expect([...ran].sort()).toEqual([1, 2]);
  });
});

describe('batched sends', () => {
  it('reject their senders when the provider throws at once, instead of throwing in the timer', async () => {
    const previous = replaceJobProvider({
      name: 'local',
      send: () => Promise.resolve(),
      sendMany: () => {
        throw new Error('no queue here');
      },
      start: () => Promise.resolve(),
      stop: () => Promise.resolve(),
    });
    try {
      // @ts-expect-error -- a test job, in no registry: only registered names are typed
      const sends = [sendJobBatched('local-test.records', { n: 4 }), sendJobBatched('local-test.records', { n: 5 })];
      for (const sent of sends) await expect(sent).rejects.toThrow('no queue here');
    } finally {
      replaceJobProvider(previous);
    }
  });
});

describe('timed sweeps', () => {
  it('are scheduled by default, and removed (not only skipped) by an instance started with schedules off', async () => {
    const swept = defineJob({
      id: 'local-test.sweep',
      description: 'A sweep of this test only',
      input: z.object({}).default({}),
      cron: '*/5 * * * *',
      async run() {},
    }) as unknown as JobDefinition;
    const scheduled = async () =>
      (await getSql()<{ cron: string }[]>`select cron from pgboss.schedule where name = ${swept.id}`).map(
        (r) => r.cron,
      );
    const on = new LocalJobProvider(process.env.DATABASE_URL!, { work: false });
    await on.start([swept]);
    await on.stop();
    expect(await scheduled()).toEqual(['*/5 * * * *']);

    const off = new LocalJobProvider(process.env.DATABASE_URL!, { work: false, schedules: false });
    await off.start([swept]);
    await off.stop();
    expect(await scheduled()).toEqual([]);
  });
});
