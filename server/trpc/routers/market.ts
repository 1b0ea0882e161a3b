import { z } from 'zod';
import { getDb } from '@/db';
import {
  marketTerms,
  marketTermsInput,
  refundPurchase,
  refundPurchaseInput,
  setMarketTerms,
} from '@/server/modules/marketplace';
import {
  listListings,
  listListingsInput,
  listPayouts,
  listPayoutsInput,
  listPurchases,
  listPurchasesInput,
} from '@/server/modules/ops';
import { getPartner } from '@/server/modules/partners';
import { audited, staffActor } from '@/server/modules/audit';
import { partnerProcedure, staffProcedure, router } from '../init';

const partnerRef = z.object({ partnerId: z.string().min(1) });

/** A partner's market terms: the buyer's and the seller's fees and the payout delay. */
const termsRouter = router({
  get: partnerProcedure('read', 'read')
    .input(partnerRef)
    .query(async ({ input }) => {
      await getPartner(input.partnerId, getDb());
      return marketTerms(input.partnerId, getDb());
    }),
  set: staffProcedure('admin')
    .input(marketTermsInput)
    .mutation(({ input: { partnerId, ...terms }, ctx }) =>
      audited(
        async ({ tx }) => {
          await setMarketTerms(partnerId, terms, tx);
          return marketTerms(partnerId, tx);
        },
        {
          actor: staffActor(ctx.staff),
          action: 'market.terms.updated',
          partnerId,
          target: { type: 'market_terms', id: partnerId },
          before: async (tx) => {
            await getPartner(partnerId, tx);
            return marketTerms(partnerId, tx);
          },
        },
        getDb(),
      ),
    ),
});

/** A partner's market for staff: listings, purchases with their payments, payouts, terms, refunds. */
export const marketRouter = router({
  listings: partnerProcedure('read', 'read')
    .input(listListingsInput)
    .query(({ input }) => listListings(input, getDb())),
  purchases: partnerProcedure('read', 'read')
    .input(listPurchasesInput)
    .query(({ input }) => listPurchases(input, getDb())),
  payouts: partnerProcedure('read', 'read')
    .input(listPayoutsInput)
    .query(({ input }) => listPayouts(input, getDb())),
  terms: termsRouter,
  /** Refunds a completed purchase whole; the signed-in member is recorded with the reason. */
  refund: staffProcedure('money')
    .input(refundPurchaseInput.omit({ staffEmail: true }))
    .mutation(({ input, ctx }) =>
      refundPurchase({ ...input, staffEmail: ctx.staff.email }, getDb(), staffActor(ctx.staff)),
    ),
});
