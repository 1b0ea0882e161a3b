import { z } from 'zod';
import { getDb } from '@/db';
import { defineJob } from '@/server/jobs/types';
import { sweepExpiredFanAuth } from './fan-sessions';

/** Deletes expired one-time tokens and expired or ended fan sessions, hourly. Idempotent. */
export const sweepFanAuthJob = defineJob({
  id: 'fans.sweepExpired',
  description: 'Delete expired one-time tokens and fan sessions',
  input: z.object({}).default({}),
  cron: '17 * * * *',
  retries: 2,
  concurrency: 1,
  run: () => sweepExpiredFanAuth(getDb()),
});
