import { router } from './init';
import { partnersRouter } from './routers/partners';
import { setupRouter } from './routers/setup';

/** The dashboard API. One router per feature; later features (events, webhooks, jobs) add a line here. */
export const appRouter = router({
  partners: partnersRouter,
  setup: setupRouter,
});

export type AppRouter = typeof appRouter;
