import { z } from 'zod';
import { getDb } from '@/db';
import { defineJob } from '@/server/jobs/types';
import { expireDuePayments } from './payments';
import { resendUnansweredRefunds } from './refunds';

/** Every minute: sandbox checkouts whose time ran out become `expired` (their failed listeners run). */
export const expirePaymentsJob = defineJob({
  id: 'payments.expireDue',
  description: 'Expire unpaid sandbox checkouts',
  input: z.object({}).default({}),
  cron: '* * * * *',
  retries: 1,
  async run() {
    return { expired: await expireDuePayments(getDb()) };
  },
});

/** Every five minutes: refunds reserved but never answered by the provider are sent again (refunds.ts). */
export const resendRefundsJob = defineJob({
  id: 'payments.resendRefunds',
  description: 'Send again the refunds the provider never answered',
  input: z.object({}).default({}),
  cron: '*/5 * * * *',
  retries: 1,
  async run() {
    return await resendUnansweredRefunds(getDb());
  },
});
