import { getDb } from '@/db';
import { jobsOverview } from '@/server/jobs/ops';
import { webhookDeliveryStats } from '@/server/modules/webhooks';
import { protectedProcedure, router } from '../init';

/** The operations view: the job queue (local provider) and the domain state it works on. */
export const jobsRouter = router({
  overview: protectedProcedure.query(async () => {
    const [jobs, webhooks] = await Promise.all([jobsOverview(), webhookDeliveryStats(getDb())]);
    return { ...jobs, webhooks, readAt: new Date() };
  }),
});
