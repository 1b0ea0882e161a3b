import { z } from 'zod';
import { type Db, getDb } from '@/db';
import { sendJob } from '@/server/jobs/client';
import { defineJob } from '@/server/jobs/types';
import { errorFields, log } from '@/server/lib/log';
import { isTransient } from '@/server/lib/errors';
import { transaction, type Work } from '@/server/lib/transaction';
import { abandonBatch, acceptTickets, processBatch, unfinishedBatchIds } from './ticket-import';

const IMPORT_RETRIES = 5;

/**
 * Imports one stored `POST /v1/tickets` batch. Idempotent: finished items are skipped. A ticket the
 * database refuses fails alone (importTickets); should a run still fail on its last attempt for a
 * reason that is not transient (a fault no retry cures), the tickets left are recorded as failed with
 * the reason and the batch completes, so it never stays "processing" with the sweep re-queueing it
 * forever. A transient failure (database unreachable) never abandons: the sweep resumes the batch.
 */
export const importTicketBatchJob = defineJob({
  id: 'tickets.importBatch',
  description: 'Import a ticket batch',
  input: z.object({ batchId: z.string().min(1) }),
  retries: IMPORT_RETRIES,
  concurrency: 2,
  async run({ batchId }, ctx) {
    try {
      await processBatch(batchId, getDb());
    } catch (err) {
      if (ctx.attempt <= IMPORT_RETRIES || isTransient(err)) throw err;
      log.error('ticket batch import failed on every attempt; the tickets left are marked failed', {
        batchId,
        ...errorFields(err),
      });
      await abandonBatch(
        batchId,
        `not imported: the import failed ${ctx.attempt} times; please send it again`,
        getDb(),
      );
    }
    return { batchId };
  },
});

/** Every minute: re-queue batches left unfinished (app restarted mid-import, lost job). */
export const resumeTicketBatchesJob = defineJob({
  id: 'tickets.resumeBatches',
  description: 'Resume unfinished ticket batches',
  input: z.object({}).default({}),
  cron: '* * * * *',
  retries: 1,
  async run() {
    const ids = await unfinishedBatchIds(getDb());
    for (const batchId of ids) await sendJob(importTicketBatchJob, { batchId }, { singletonKey: batchId });
    return { resumed: ids.length };
  },
});

/** Stores the batch and, once that commits, queues its import; the answer carries the batch id and every service id. */
export function acceptTicketBatch(partnerId: string, list: Parameters<typeof acceptTickets>[1], within: Work | Db) {
  // The batch is durable before the send; if the send fails, the minute sweep queues it.
  return transaction(async ({ tx, after }) => {
    const accepted = await acceptTickets(partnerId, list, tx);
    after.job(importTicketBatchJob.id, { batchId: accepted.batchId });
    return accepted;
  }, within);
}
