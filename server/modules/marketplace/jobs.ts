import { z } from 'zod';
import { getDb } from '@/db';
import { defineJob } from '@/server/jobs/types';
import { EXPIRE_INTENTION_JOB, expireIntention, releaseExpired } from './intentions';

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
