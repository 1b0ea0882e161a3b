import { pullDueFeedsJob, pullFeedJob } from '@/server/modules/catalog/feed-jobs';
import { importTicketBatchJob, resumeTicketBatchesJob } from '@/server/modules/tickets/jobs';
import { webhookDispatchJob } from '@/server/modules/webhooks/jobs';
import type { JobDefinition } from './types';

/** Every job definition; both providers run exactly this list. */
export function allJobs(): JobDefinition[] {
  return [
    webhookDispatchJob,
    importTicketBatchJob,
    resumeTicketBatchesJob,
    pullFeedJob,
    pullDueFeedsJob,
  ] as unknown as JobDefinition[];
}
