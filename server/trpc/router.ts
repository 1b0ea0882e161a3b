import { router } from './init';
import { auditRouter } from './routers/audit';
import { bannersRouter } from './routers/banners';
import { leadsRouter } from './routers/leads';
import { rulesRouter } from './routers/rules';
import { catalogRouter } from './routers/catalog';
import { channelsRouter } from './routers/channels';
import { jobsRouter } from './routers/jobs';
import { mailRouter } from './routers/mail';
import { opsMoneyRouter } from './routers/ops-money';
import { opsSearchRouter } from './routers/ops-search';
import { opsOverviewRouter } from './routers/ops-overview';
import { marketRouter } from './routers/market';
import { partnersRouter } from './routers/partners';
import { partnerUsersRouter } from './routers/partner-users';
import { protectionRouter } from './routers/protection';
import { setupRouter } from './routers/setup';
import { staffRouter } from './routers/staff';
import { twoFactorRouter } from './routers/two-factor';
import { webhooksRouter } from './routers/webhooks';
// Modules subscribe to each other's domain events here (see the file); every entry point loads it.
import '@/server/wiring';

/** The dashboard API. One router per feature; a new feature's router is a line here. */
export const appRouter = router({
  partners: partnersRouter,
  partnerUsers: partnerUsersRouter,
  setup: setupRouter,
  webhooks: webhooksRouter,
  jobs: jobsRouter,
  catalog: catalogRouter,
  staff: staffRouter,
  twoFactor: twoFactorRouter,
  market: marketRouter,
  mail: mailRouter,
  banners: bannersRouter,
  rules: rulesRouter,
  leads: leadsRouter,
  protection: protectionRouter,
  channels: channelsRouter,
  opsOverview: opsOverviewRouter,
  opsMoney: opsMoneyRouter,
  opsSearch: opsSearchRouter,
  audit: auditRouter,
});

export type AppRouter = typeof appRouter;
