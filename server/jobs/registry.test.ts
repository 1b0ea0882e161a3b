import { describe, expect, expectTypeOf, it } from 'vitest';
import type { After } from '@/server/lib/transaction';
import { sendJob, sendJobBatched, sendJobSoon } from './client';
import { allJobs } from './registry';
import type { JobInputs, JobName } from './types';

/**
 * Never run: `tsc --noEmit` checks these calls, and each `@ts-expect-error` line must fail to compile
 * (an unused one is itself an error). The names and inputs come from the registry's definitions.
 */
function queueing(after: After) {
  after.job('mail.send', { id: 'mail_1' });
  after.job('webhooks.dispatch', {}, { merge: true });
  after.job('marketplace.expireIntention', { intentionId: 'bi_1' }, { background: true, runAt: new Date() });
  after.job('marketplace.refundPurchase', { partnerId: 'prt_1', paymentId: 'pay_1', reason: 'gone', amountMinor: 5 });
  // @ts-expect-error -- no job has this name
  after.job('mail.sned', { id: 'mail_1' });
  // @ts-expect-error -- mail.send takes a mail's id, not a batch's
  after.job('mail.send', { batchId: 'tbt_1' });
  // @ts-expect-error -- the refund's reason is missing
  after.job('marketplace.refundPurchase', { partnerId: 'prt_1', paymentId: 'pay_1' });
  // @ts-expect-error -- an amount is a number of minor units
  after.job('marketplace.refundPurchase', { partnerId: 'prt_1', paymentId: 'pay_1', reason: 'gone', amountMinor: '5' });
  // @ts-expect-error -- the input is not left out
  after.job('tickets.importBatch');

  void sendJob('tickets.importBatch', { batchId: 'tbt_1' }, { singletonKey: 'tbt_1' });
  // @ts-expect-error -- the import takes a batch id
  void sendJob('tickets.importBatch', { batch: 'tbt_1' });
  sendJobSoon('webhooks.dispatch', {});
  // @ts-expect-error -- no job has this name
  sendJobSoon('webhooks.dispatcher', {});
  void sendJobBatched('marketplace.expireIntention', { intentionId: 'bi_1' });
  // @ts-expect-error -- an intention's id is a string
  void sendJobBatched('marketplace.expireIntention', { intentionId: 1 });
}

describe('the job registry', () => {
  it("types every registered job's name and input from its definition", () => {
    expectTypeOf(queueing).toBeFunction();
    expectTypeOf<'tickets.importBatch'>().toExtend<JobName>();
    expectTypeOf<'http.sweepIdempotencyKeys'>().toExtend<JobName>();
    expectTypeOf<'tickets.import'>().not.toExtend<JobName>();
    expectTypeOf<JobInputs['tickets.importBatch']>().toEqualTypeOf<{ batchId: string }>();
    expectTypeOf<JobInputs['channels.expireSale']>().toEqualTypeOf<{ saleId: string }>();
    // A job whose schema has a default takes `{}` (or nothing at all: the schema fills it in).
    expectTypeOf<JobInputs['fans.sweepExpired']>().toEqualTypeOf<Record<string, never> | undefined>();
  });

  it('lists each job once (the inputs are keyed by id)', () => {
    const ids = allJobs().map((j) => j.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
