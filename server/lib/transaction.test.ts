import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { webhookMessages } from '@/db/schema';
import { recordJobs } from '@/server/testing/jobs';
import { makePartner } from '@/server/testing/fixtures';
import { enqueueWebhook, type PartnerWebhookMessage } from '@/server/modules/webhooks';
import { transaction } from './transaction';

const restores: (() => void)[] = [];
afterEach(() => restores.splice(0).forEach((r) => r()));

function recorder(opts: { fail?: boolean } = {}) {
  const rec = recordJobs(opts);
  restores.push(rec.restore);
  return rec;
}

const ping: PartnerWebhookMessage = {
  family: 'test',
  action: 'test.ping',
  data: { partnerId: 'ptr_after_commit', sentAt: '2026-01-01T00:00:00.000Z' },
};
const stored = async (id: string) =>
  (await getDb().select().from(webhookMessages).where(eq(webhookMessages.id, id))).length;

describe('transaction: effects after commit', () => {
  it('runs the effects in order once the transaction has committed, and answers its result', async () => {
    const jobs = recorder();
    const { partner } = await makePartner('After commit');
    const seen: string[] = [];
    let messageId = '';
    const result = await transaction(async ({ tx, after }) => {
      messageId = await enqueueWebhook({ tx, after }, partner.id, ping);
      after.job('tickets.importBatch', { batchId: 'tbt_1' }, { singletonKey: 'tbt_1' });
      after.run(async () => {
        // Another connection sees the row: the effect runs after the commit, not before it.
        seen.push(`visible:${await stored(messageId)}`);
      });
      expect(jobs.sent).toEqual([]); // nothing leaves before the commit
      return 'done';
    }, getDb());
    expect(result).toBe('done');
    expect(seen).toEqual(['visible:1']);
    expect(jobs.sent).toEqual([
      { name: 'tickets.importBatch', input: { batchId: 'tbt_1' }, opts: { singletonKey: 'tbt_1' } },
    ]);
    // The outbox's dispatch ask is merged over 25 ms, then sent once.
    await expect.poll(() => jobs.sent.map((j) => j.name)).toEqual(['tickets.importBatch', 'webhooks.dispatch']);
  });

  it('drops the effects and the writes when the transaction rolls back', async () => {
    const jobs = recorder();
    const { partner } = await makePartner('Rollback');
    let messageId = '';
    let ran = false;
    await expect(
      transaction(async (work) => {
        messageId = await enqueueWebhook(work, partner.id, ping);
        work.after.job('tickets.importBatch', { batchId: 'tbt_2' });
        work.after.run(() => {
          ran = true;
        });
        throw new Error('refused');
      }, getDb()),
    ).rejects.toThrow('refused');
    await new Promise((r) => setTimeout(r, 60)); // longer than the dispatch merge window
    expect(ran).toBe(false);
    expect(jobs.sent).toEqual([]);
    expect(await stored(messageId)).toBe(0);
  });

  it('joins a transaction under way: inner effects wait for the outer commit and die with its rollback', async () => {
    const jobs = recorder();
    const order: string[] = [];
    await transaction(async (outer) => {
      await transaction(async ({ after }) => {
        after.run(() => void order.push('inner'));
      }, outer);
      expect(order).toEqual([]); // the inner call returned, the outer has not committed
      outer.after.run(() => void order.push('outer'));
    }, getDb());
    expect(order).toEqual(['inner', 'outer']);

    await expect(
      transaction(async (outer) => {
        await transaction(async ({ after }) => after.job('feeds.pull', { partnerId: 'prt_x' }), outer);
        throw new Error('outer fails');
      }, getDb()),
    ).rejects.toThrow('outer fails');
    expect(jobs.sent).toEqual([]);
  });

  it('keeps the committed answer when an effect fails (the sweeps catch up), and runs the effects after it', async () => {
    recorder({ fail: true });
    const after: string[] = [];
    const result = await transaction(async (work) => {
      await work.tx.execute(sql`select 1`);
      work.after.job('tickets.importBatch', { batchId: 'tbt_3' });
      work.after.run(() => {
        throw new Error('mail server down');
      });
      work.after.run(() => void after.push('still runs'));
      return 42;
    }, getDb());
    expect(result).toBe(42);
    expect(after).toEqual(['still runs']);
  });

  it('starts a background job send without waiting for it, batches those asked for together, and a failed one is logged, not thrown', async () => {
    const { replaceJobProvider } = await import('@/server/jobs/client');
    let release: () => void = () => undefined;
    const queued: string[] = [];
    const previous = replaceJobProvider({
      name: 'local',
      async send() {
        throw new Error('background sends go in batches');
      },
      async sendMany(jobs) {
        const names = jobs.map((j) => `${j.name}(${JSON.stringify(j.input)})`).join(' + ');
        queued.push(`asked ${names}`);
        await new Promise<void>((resolve) => (release = resolve));
        if (jobs.some((j) => j.name === 'broken.job')) throw new Error('queue unreachable');
        queued.push(`written ${names}`);
      },
      async start() {},
      async stop() {},
    });
    restores.push(() => void replaceJobProvider(previous));
    // Two holds' expiry jobs asked for by one transaction: one write for both, after the answer.
    const answer = await transaction(async ({ after }) => {
      for (const intentionId of ['bi_x', 'bi_y'])
        after.job('marketplace.expireIntention', { intentionId }, { background: true });
      return 'answered';
    }, getDb());
    expect(answer).toBe('answered');
    expect(queued).toEqual([]);
    await expect.poll(() => queued.length).toBe(1);
    const both =
      'marketplace.expireIntention({"intentionId":"bi_x"}) + marketplace.expireIntention({"intentionId":"bi_y"})';
    expect(queued).toEqual([`asked ${both}`]);
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect(queued).toEqual([`asked ${both}`, `written ${both}`]);

    // @ts-expect-error -- no job has this name: the send is meant to fail
    await transaction(async ({ after }) => after.job('broken.job', {}, { background: true }), getDb());
    await expect.poll(() => queued).toContain('asked broken.job({})');
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect(queued).not.toContain('written broken.job({})');
  });
});
