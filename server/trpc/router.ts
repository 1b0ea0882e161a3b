import { router } from './init';
import { catalogRouter } from './routers/catalog';
import { jobsRouter } from './routers/jobs';
import { partnersRouter } from './routers/partners';
import { setupRouter } from './routers/setup';
import { staffRouter } from './routers/staff';
import { webhooksRouter } from './routers/webhooks';

/** The dashboard API. One router per feature; later features (events, webhooks, jobs) add a line here. */
export const appRouter = router({
  partners: partnersRouter,
  setup: setupRouter,
  webhooks: webhooksRouter,
  jobs: jobsRouter,
  catalog: catalogRouter,
  staff: staffRouter,
});

export type AppRouter = typeof appRouter;
