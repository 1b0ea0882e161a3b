import { pullDueFeedsJob, pullFeedJob } from '@/server/modules/catalog';
import {
  expireIntentionJob,
  expireIntentionsSweepJob,
  payDuePayoutsJob,
  refundPurchaseJob,
} from '@/server/modules/marketplace';
import { expireChannelSaleJob, refundUnfulfilledSalesJob } from '@/server/modules/channels';
import { sweepIdempotencyKeysJob } from '@/server/http/idempotency';
import { sweepRateLimitWindowsJob } from '@/server/lib/rate-limit';
import { sweepFanAuthJob } from '@/server/modules/fans';
import { sendMailJob, sweepMailJob } from '@/server/modules/mail';
import { expirePaymentsJob, resendRefundsJob } from '@/server/modules/payments';
import { importTicketBatchJob, resumeTicketBatchesJob } from '@/server/modules/tickets';
import { webhookDispatchJob } from '@/server/modules/webhooks';
import type { JobDefinition } from './types';
// Modules subscribe to each other's domain events here (see the file); every entry point loads it.
import '@/server/wiring';

/** Every job definition; both providers run exactly this list. */
export function allJobs(): JobDefinition[] {
  return [
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
  ] as unknown as JobDefinition[];
}
