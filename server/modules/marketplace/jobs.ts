import { z } from 'zod';
import { getDb } from '@/db';
import { defineJob } from '@/server/jobs/types';
import { refundPayment } from '@/server/modules/payments';
import { EXPIRE_INTENTION_JOB, expireIntention, REFUND_PURCHASE_JOB, releaseExpired } from './intentions';
import { payDuePayouts } from './payouts';

/** Ends one buy intention's hold at its expiry (sent delayed when the intention is made). */
export const expireIntentionJob = defineJob({
  id: EXPIRE_INTENTION_JOB,
  description: "End a buy intention's hold when its time is up",
  input: z.object({ intentionId: z.string().min(1) }),
  retries: 3,
  async run({ intentionId }) {
    return { intentionId, expired: await expireIntention(intentionId, getDb()) };
  },
});

/** Every minute: ends every hold whose time is up (a lost or late expiry job keeps nothing held). */
export const expireIntentionsSweepJob = defineJob({
  id: 'marketplace.expireIntentions',
  description: 'Release the holds of expired buy intentions',
  input: z.object({}).default({}),
  cron: '* * * * *',
  retries: 1,
  async run() {
    const ended = await releaseExpired(getDb());
    return { expired: ended.length };
  },
});

/** Refunds a refused purchase's payment, after the refusal committed (the provider is called outside it). */
export const refundPurchaseJob = defineJob({
  id: REFUND_PURCHASE_JOB,
  description: 'Refund a purchase that could not be completed',
  input: z.object({
    partnerId: z.string().min(1),
    paymentId: z.string().min(1),
    reason: z.string().min(1),
    /** A part of the payment (a channel's unfulfilled sale); the whole of what is left otherwise. */
    amountMinor: z.number().int().positive().optional(),
    /** The refund's own id (refunding again under it answers the first refund). */
    refundId: z.string().min(1).optional(),
  }),
  retries: 10,
  async run({ partnerId, paymentId, reason, amountMinor, refundId }) {
    const refund = await refundPayment(
      partnerId,
      {
        paymentId,
        reason,
        ...(amountMinor ? { amountMinor } : {}),
        ...(refundId ? { refundId } : {}),
      },
      getDb(),
    );
    return { paymentId, refundId: refund.id, status: refund.status };
  },
});

/** Every 10 minutes: pays the payouts that are due (the ledger is the truth; a missed run only delays). */
export const payDuePayoutsJob = defineJob({
  id: 'marketplace.payDuePayouts',
  description: 'Pay sellers their due payouts',
  input: z.object({}).default({}),
  cron: '*/10 * * * *',
  retries: 1,
  async run() {
    return payDuePayouts(getDb());
  },
});
