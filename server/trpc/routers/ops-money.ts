import { z } from 'zod';
import { getDb } from '@/db';
import { reconcile } from '@/server/modules/ops';
import { getPartner } from '@/server/modules/partners';
import { partnerProcedure, staffProcedure, router } from '../init';

const period = { from: z.string().max(20), to: z.string().max(20) };

/**
 * Money reconciled for staff: per partner and currency, the mismatches with their ids, payouts by state. And
 * one partner's statement of a period (its captured payments, payouts, fees and refunds, and payouts by
 * state), which its own users read too.
 */
export const opsMoneyRouter = router({
  reconciliation: staffProcedure('read')
    .input(z.object({ partnerId: z.string().trim().min(1).max(100).optional(), ...period }))
    .query(async ({ input }) => {
      if (input.partnerId) await getPartner(input.partnerId, getDb());
      return reconcile(input, getDb());
    }),
  statement: partnerProcedure('read', 'read')
    .input(z.object({ partnerId: z.string().trim().min(1).max(100), ...period }))
    .query(async ({ input }) => {
      await getPartner(input.partnerId, getDb());
      const money = await reconcile(input, getDb());
      // Only the asked partner's rows (reconcile keeps to it), without the mismatches' internal ids.
      return {
        totals: money.totals.filter((t) => t.partnerId === input.partnerId),
        payoutsByState: money.payoutsByState.filter((p) => p.partnerId === input.partnerId),
        mismatchCount: money.mismatchCount,
      };
    }),
});
