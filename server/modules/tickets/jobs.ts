import { z } from 'zod';
import { sendJob } from '@/server/jobs/client';
import { defineJob } from '@/server/jobs/types';
import { errorFields, log } from '@/server/lib/log';
import { acceptTickets, processBatch, unfinishedBatchIds } from './service';

/** Imports one stored `POST /v1/tickets` batch. Idempotent: finished items are skipped. */
export const importTicketBatchJob = defineJob({
  id: 'tickets.importBatch',
  description: 'Import a ticket batch',
  input: z.object({ batchId: z.string().min(1) }),
  retries: 5,
  concurrency: 2,
  async run({ batchId }) {
    await processBatch(batchId);
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
    const ids = await unfinishedBatchIds();
    for (const batchId of ids) await sendJob(importTicketBatchJob, { batchId }, { singletonKey: batchId });
    return { resumed: ids.length };
  },
});

/** Stores the batch, then queues its import; the answer carries the batch id and every service id. */
export async function acceptTicketBatch(partnerId: string, list: Parameters<typeof acceptTickets>[1]) {
  const accepted = await acceptTickets(partnerId, list);
  // The batch is durable before this send; if the send fails, the minute sweep queues it.
  await sendJob(importTicketBatchJob, { batchId: accepted.batchId }).catch((err) =>
    log.warn('could not queue a ticket batch import; the minute sweep will', {
      batchId: accepted.batchId,
      ...errorFields(err),
    }),
  );
  return accepted;
}
