import { z } from 'zod';
import { getDb } from '@/db';
import { defineJob } from '@/server/jobs/types';
import { EXPIRE_CHANNEL_SALE_JOB, refundUnfulfilledSales } from './sales';

/** A sale's deadline (sent delayed when it is made): refunds it if still unfulfilled (an early run does nothing). */
export const expireChannelSaleJob = defineJob({
  id: EXPIRE_CHANNEL_SALE_JOB,
  description: "Refund a channel's sale not fulfilled by its deadline",
  input: z.object({ saleId: z.string().min(1) }),
  retries: 3,
  async run({ saleId }) {
    return { saleId, refunded: (await refundUnfulfilledSales({ saleId }, getDb())) > 0 };
  },
});

/** Every minute: refunds every unfulfilled sale past its deadline (a lost deadline job loses nothing). */
export const refundUnfulfilledSalesJob = defineJob({
  id: 'channels.refundUnfulfilled',
  description: "Refund channels' sales not fulfilled in time",
  input: z.object({}).default({}),
  cron: '* * * * *',
  retries: 1,
  async run() {
    return { refunded: await refundUnfulfilledSales(undefined, getDb()) };
  },
});
