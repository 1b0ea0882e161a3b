import { z } from 'zod';
import { getDb } from '@/db';
import { defineJob } from '@/server/jobs/types';
import { sweepRateLimitWindows } from './rate-limit';

/** Hourly; idempotent. A window is kept at most an hour past its newest hit's window. */
export const sweepRateLimitWindowsJob = defineJob({
  id: 'rateLimit.sweepExpired',
  description: 'Delete rate-limit windows (e-mails, client addresses) whose hits have all expired',
  input: z.object({}).default({}),
  cron: '29 * * * *',
  retries: 2,
  concurrency: 1,
  run: () => sweepRateLimitWindows(getDb()),
});
