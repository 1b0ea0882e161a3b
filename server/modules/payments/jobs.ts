import { z } from 'zod';
import { defineJob } from '@/server/jobs/types';
import { expireDuePayments } from './service';

/** Every minute: sandbox checkouts whose time ran out become `expired` (their failed listeners run). */
export const expirePaymentsJob = defineJob({
  id: 'payments.expireDue',
  description: 'Expire unpaid sandbox checkouts',
  input: z.object({}).default({}),
  cron: '* * * * *',
  retries: 1,
  async run() {
    return { expired: await expireDuePayments() };
  },
});
