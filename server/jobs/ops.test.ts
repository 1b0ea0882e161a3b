import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getDb } from '@/db';
import { resetEnvCache } from '@/server/env';
import { makePartner } from '@/server/testing/fixtures';
import { enqueueWebhook, webhookDeliveryStats } from '@/server/modules/webhooks';
import { LocalJobProvider } from './local';
import { errorText, jobsOverview } from './ops';
import { defineJob, type JobDefinition } from './types';

// Queues of their own (ids no other test uses), so parallel test files never see these runs.
const fails = defineJob({
  id: 'ops-test.fails',
  description: 'Always fails',
  input: z.object({ n: z.number() }),
  retries: 0,
  async run({ n }) {
    throw new Error(`boom ${n}`);
  },
});
const retries = defineJob({
  id: 'ops-test.retries',
  description: 'Fails once, then waits for its retry',
  input: z.object({}),
  retries: 1,
  async run() {
    throw new Error('flaky partner');
  },
});
let release: () => void = () => {};
const blocks = defineJob({
  id: 'ops-test.blocks',
  description: 'Runs until released',
  input: z.object({}),
  async run() {
    await new Promise<void>((resolve) => (release = resolve));
  },
});
const succeeds = defineJob({
  id: 'ops-test.succeeds',
  description: 'Succeeds, nightly',
  input: z.object({}),
  cron: '0 3 * * *',
  async run() {
    return { ok: true };
  },
});
const idle = defineJob({ id: 'ops-test.idle', description: 'Never sent', input: z.object({}), async run() {} });
const definitions = [fails, retries, blocks, succeeds, idle] as unknown as JobDefinition[];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const jobOf = async (id: string) => (await jobsOverview(definitions)).jobs.find((j) => j.id === id)!;

describe('jobs overview (local provider)', () => {
  it('counts runs by state per job, with the last error, last completion, schedule and recent failures', async () => {
    const provider = new LocalJobProvider(process.env.DATABASE_URL!, { pollingIntervalSeconds: 0.5 });
    await provider.start(definitions);
    cleanups.push(() => provider.stop());
    cleanups.push(async () => release());

    await provider.send(fails.id, { n: 1 });
    await expect.poll(async () => (await jobOf(fails.id)).counts?.failed24h, { timeout: 15_000 }).toBe(1);
    await provider.send(fails.id, { n: 2 });
    await provider.send(retries.id, {});
    await provider.send(blocks.id, {});
    await provider.send(succeeds.id, {});
    await provider.send(succeeds.id, {}, { runAt: new Date(Date.now() + 3_600_000) });

    await expect
      .poll(
        async () => {
          const o = await jobsOverview(definitions);
          const c = (id: string) => o.jobs.find((j) => j.id === id)!.counts!;
          return [c(fails.id).failed24h, c(retries.id).retrying, c(blocks.id).running, c(succeeds.id).completed24h];
        },
        { timeout: 15_000 },
      )
      .toEqual([2, 1, 1, 1]);

    const overview = await jobsOverview(definitions);
    expect(overview.provider).toBe('local');
    expect(overview.queueInstalled).toBe(true);
    expect(overview.jobs.map((j) => j.id)).toEqual(definitions.map((d) => d.id));
    const byId = Object.fromEntries(overview.jobs.map((j) => [j.id, j]));

    expect(byId[fails.id].counts).toEqual({
      queued: 0,
      scheduled: 0,
      running: 0,
      retrying: 0,
      failed24h: 2,
      completed24h: 0,
    });
    expect(byId[fails.id].lastError).toMatchObject({ message: 'boom 2' });
    expect(byId[fails.id].lastError!.at.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(byId[fails.id].lastCompletedAt).toBeNull();

    expect(byId[retries.id].counts).toMatchObject({ retrying: 1, failed24h: 0 });
    expect(byId[retries.id].lastError?.message).toBe('flaky partner');

    expect(byId[blocks.id].counts).toMatchObject({ running: 1, queued: 0, completed24h: 0 });

    expect(byId[succeeds.id].counts).toMatchObject({ completed24h: 1, scheduled: 1, queued: 0, failed24h: 0 });
    expect(byId[succeeds.id].lastCompletedAt!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(byId[succeeds.id].cron).toBe('0 3 * * *');
    expect(byId[succeeds.id].lastError).toBeNull();

    // A job that never ran is listed, with zero counts.
    expect(byId[idle.id]).toMatchObject({
      description: 'Never sent',
      cron: null,
      lastCompletedAt: null,
      lastError: null,
      counts: { queued: 0, scheduled: 0, running: 0, retrying: 0, failed24h: 0, completed24h: 0 },
    });

    // Newest first: the retry-pending try (started after boom 2 was sent) or boom 2, then boom 1.
    const failures = overview.recentFailures;
    expect(failures.map((f) => f.error).sort()).toEqual(['boom 1', 'boom 2', 'flaky partner']);
    expect(failures.map((f) => f.error).indexOf('boom 2')).toBeLessThan(failures.map((f) => f.error).indexOf('boom 1'));
    for (let i = 1; i < failures.length; i++) {
      expect(failures[i - 1].at.getTime()).toBeGreaterThanOrEqual(failures[i].at.getTime());
    }
    const boom = failures.find((f) => f.error === 'boom 2')!;
    expect(boom).toMatchObject({ job: fails.id, attempt: 1, state: 'failed', retryAt: null });
    const flaky = failures.find((f) => f.error === 'flaky partner')!;
    expect(flaky).toMatchObject({ job: retries.id, attempt: 1, state: 'retry' });
    expect(flaky.retryAt!.getTime()).toBeGreaterThan(Date.now());

    release();
    await expect.poll(async () => (await jobOf(blocks.id)).counts?.completed24h, { timeout: 15_000 }).toBe(1);
    expect((await jobOf(blocks.id)).counts?.running).toBe(0);
  }, 60_000);

  it('says the runs are on Inngest when Inngest is configured, still listing every job', async () => {
    process.env.INNGEST_DEV = '1';
    resetEnvCache();
    cleanups.push(async () => {
      delete process.env.INNGEST_DEV;
      resetEnvCache();
    });
    const overview = await jobsOverview(definitions);
    expect(overview.provider).toBe('inngest');
    expect(overview.recentFailures).toEqual([]);
    expect(overview.jobs.map((j) => [j.id, j.cron, j.counts])).toEqual(
      definitions.map((d) => [d.id, d.cron ?? null, null]),
    );
  });

  it('reads the errors pg-boss stores', () => {
    expect(errorText({ name: 'Error', message: 'boom', stack: '…' })).toBe('boom');
    expect(errorText({ value: { message: 'job failed by timeout in active state' } })).toBe(
      'job failed by timeout in active state',
    );
    expect(errorText({ value: 'plain' })).toBe('plain');
    expect(errorText(null)).toBe('No error detail recorded');
    expect(errorText({ code: 42 })).toBe('{"code":42}');
  });
});

describe('webhook delivery stats', () => {
  it('counts pending messages, held ones (no endpoint), and the oldest pending', async () => {
    const before = await webhookDeliveryStats(getDb());
    const { partner } = await makePartner('Ops stats');
    const startedAt = Date.now();
    await enqueueWebhook(getDb(), partner.id, {
      family: 'test',
      action: 'test.ping',
      data: { partnerId: partner.id, sentAt: new Date().toISOString() },
    });
    const after = await webhookDeliveryStats(getDb());
    // Other test files write messages at the same time: only what this test added is certain.
    expect(after.pending).toBeGreaterThanOrEqual(before.pending + 1);
    expect(after.held).toBeGreaterThanOrEqual(before.held + 1);
    expect(after.oldestPendingAt).toBeInstanceOf(Date);
    expect(after.oldestPendingAt!.getTime()).toBeLessThanOrEqual(startedAt + 1000);
    expect(after.delivered24h).toBeGreaterThanOrEqual(0);
  });
});
