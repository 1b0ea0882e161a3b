import { z } from 'zod';
import { getDb } from '@/db';
import { defineJob } from '@/server/jobs/types';
import { sweepIdempotencyKeys } from './idempotency';

/** Hourly; idempotent. A key past 24 hours is free even before this runs (startIdempotentCall takes it over). */
export const sweepIdempotencyKeysJob = defineJob({
  id: 'http.sweepIdempotencyKeys',
  description: 'Delete Idempotency-Key answers older than 24 hours',
  input: z.object({}).default({}),
  cron: '41 * * * *',
  retries: 2,
  concurrency: 1,
  run: () => sweepIdempotencyKeys(getDb()),
});
