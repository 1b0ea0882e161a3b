import { z } from 'zod';
import { getDb } from '@/db';
import { reconcile } from '@/server/modules/ops';
import { getPartner } from '@/server/modules/partners';
import { staffProcedure, router } from '../init';

/** Money reconciled for staff: per partner and currency, the mismatches with their ids, payouts by state. */
export const opsMoneyRouter = router({
  reconciliation: staffProcedure('read')
    .input(
      z.object({
        partnerId: z.string().trim().min(1).max(100).optional(),
        from: z.string().max(20),
        to: z.string().max(20),
      }),
    )
    .query(async ({ input }) => {
      if (input.partnerId) await getPartner(input.partnerId, getDb());
      return reconcile(input, getDb());
    }),
});
