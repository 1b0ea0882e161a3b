import { z } from 'zod';
import { getDb } from '@/db';
import { checkOverviewScope, marketOverview, overviewFilterOptions, overviewInput } from '@/server/modules/ops';
import { staffProcedure, router } from '../init';

/** The dashboard's overview: the market's figures for a date range, a partner or an event (staff only). */
export const opsOverviewRouter = router({
  figures: staffProcedure('read')
    .input(overviewInput)
    .query(async ({ input }) => {
      await checkOverviewScope(input, getDb());
      return marketOverview(input, getDb());
    }),
  /** The partners to filter by, and the chosen partner's events. */
  filters: staffProcedure('read')
    .input(z.object({ partnerId: z.string().trim().min(1).max(64).optional() }))
    .query(({ input }) => overviewFilterOptions(input.partnerId, getDb())),
});
