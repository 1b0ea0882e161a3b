import { getDb } from '@/db';
import { jobsOverview } from '@/server/jobs/ops';
import { webhookDeliveryStats } from '@/server/modules/webhooks';
import { staffProcedure, router } from '../init';

/** The operations view: the job queue (local provider) and the domain state it works on. */
export const jobsRouter = router({
  overview: staffProcedure('read').query(async () => {
    const [jobs, webhooks] = await Promise.all([jobsOverview(), webhookDeliveryStats(getDb())]);
    return { ...jobs, webhooks, readAt: new Date() };
  }),
});
