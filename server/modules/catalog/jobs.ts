import { z } from 'zod';
import { getDb } from '@/db';
import { sendJob } from '@/server/jobs/client';
import { defineJob } from '@/server/jobs/types';
import { AppError } from '@/server/lib/errors';
import { transaction } from '@/server/lib/transaction';
import { errorFields, log } from '@/server/lib/log';
import { claimDueFeeds, releaseFeedClaim } from '@/server/modules/partners';
import { pullFeed } from './feed';

/**
 * Pulls one partner's event feed into its catalogue. A failing partner server is a recorded outcome,
 * not a job failure (the next run is already scheduled), so provider retries only cover our own
 * failures (database, crash).
 */
export const pullFeedJob = defineJob({
  id: 'feeds.pull',
  description: "Pull a partner's event feed into the catalogue",
  input: z.object({ partnerId: z.string().min(1) }),
  retries: 1,
  concurrency: 2,
  async run({ partnerId }) {
    try {
      const outcome = await pullFeed(partnerId, getDb());
      if (!outcome.ok) return { partnerId, ok: false, error: outcome.error.message };
      const { events, created, updated, refused, error } = outcome.result;
      return { partnerId, ok: true, events, created, updated, refused: refused.length, error };
    } catch (err) {
      // The partner was deleted after the sweep claimed it: nothing to pull.
      if (err instanceof AppError && err.code === 'NOT_FOUND') return { partnerId, skipped: err.message };
      throw err;
    }
  },
});

/**
 * Every minute: claims the partners whose feed is due (the claim moves their next run ahead, so a
 * second instance's sweep skips them) and queues one pull each. A pull that cannot be queued gives
 * its claim back, so the next sweep tries again instead of waiting a whole interval.
 */
export const pullDueFeedsJob = defineJob({
  id: 'feeds.pullDue',
  description: 'Queue the event feeds that are due',
  input: z.object({}).default({}),
  cron: '* * * * *',
  retries: 1,
  async run() {
    let queued = 0;
    // The pulls are queued once the claims are committed (the one after-commit helper); a pull that
    // cannot be queued gives its claim back.
    const partnerIds = await transaction(async ({ tx, after }) => {
      const claimed = await claimDueFeeds(tx);
      after.run(async () => {
        for (const partnerId of claimed) {
          try {
            await sendJob(pullFeedJob, { partnerId }, { singletonKey: partnerId });
            queued += 1;
          } catch (err) {
            log.warn('could not queue a feed pull; the next sweep will', { partnerId, ...errorFields(err) });
            await releaseFeedClaim(partnerId, getDb());
          }
        }
      });
      return claimed;
    }, getDb());
    return { claimed: partnerIds.length, queued };
  },
});
