import { pullDueFeedsJob, pullFeedJob } from '@/server/modules/catalog';
import {
  expireIntentionJob,
  expireIntentionsSweepJob,
  payDuePayoutsJob,
  refundPurchaseJob,
} from '@/server/modules/marketplace';
import { expireChannelSaleJob, refundUnfulfilledSalesJob } from '@/server/modules/channels';
import { sweepIdempotencyKeysJob } from '@/server/http/jobs';
import { sweepRateLimitWindowsJob } from '@/server/lib/jobs';
import { sweepFanAuthJob } from '@/server/modules/fans';
import { sendMailJob, sweepMailJob } from '@/server/modules/mail';
import { expirePaymentsJob, resendRefundsJob } from '@/server/modules/payments';
import { importTicketBatchJob, resumeTicketBatchesJob } from '@/server/modules/tickets';
import { webhookDispatchJob } from '@/server/modules/webhooks';
import type { z } from 'zod';
import type { JobDefinition } from './types';
// Modules subscribe to each other's domain events here (see the file); every entry point loads it.
import '@/server/wiring';

/**
 * Every job definition, as it is (`as const`): both providers run exactly this list, and the job client
 * and `after.job` take only its ids, each with its own input (JobInputs below).
 */
const jobs = [
  webhookDispatchJob,
  importTicketBatchJob,
  resumeTicketBatchesJob,
  pullFeedJob,
  pullDueFeedsJob,
  expireIntentionJob,
  expireIntentionsSweepJob,
  refundPurchaseJob,
  payDuePayoutsJob,
  expireChannelSaleJob,
  refundUnfulfilledSalesJob,
  sweepFanAuthJob,
  sweepIdempotencyKeysJob,
  sweepRateLimitWindowsJob,
  expirePaymentsJob,
  resendRefundsJob,
  sendMailJob,
  sweepMailJob,
] as const satisfies readonly JobDefinition[];

/** Each registered job's input where it is queued, by id: derived from the definitions, never written twice. */
type RegisteredInputs = { [J in (typeof jobs)[number] as J['id']]: z.input<J['input']> };

declare module './types' {
  // Fills the empty JobInputs of types.ts: modules get these types through the client and server/lib
  // without importing this file (which imports them).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the members come from RegisteredInputs
  interface JobInputs extends RegisteredInputs {}
}

/** Every job definition; both providers run exactly this list. */
export function allJobs(): JobDefinition[] {
  return [...jobs];
}
