import { importTicketBatchJob, resumeTicketBatchesJob } from '@/server/modules/tickets/jobs';
import { webhookDispatchJob } from '@/server/modules/webhooks/jobs';
import type { JobDefinition } from './types';

/** Every job definition; both providers run exactly this list. */
export function allJobs(): JobDefinition[] {
  return [webhookDispatchJob, importTicketBatchJob, resumeTicketBatchesJob] as unknown as JobDefinition[];
}
