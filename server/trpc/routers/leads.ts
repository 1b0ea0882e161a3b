import { z } from 'zod';
import { getDb } from '@/db';
import { leadCounts, leadEmails, listLeads, listLeadsInput } from '@/server/modules/market-data';
import { resaleBuyersAmong } from '@/server/modules/fan-pages';
import { getPartner } from '@/server/modules/partners';
import { partnerProcedure, router } from '../init';

const partnerRef = z.object({ partnerId: z.string().min(1) });

/** A partner's leads for staff: counts per event and type, a paged list, and an event's funnel. */
export const leadsRouter = router({
  counts: partnerProcedure('read', 'read')
    .input(partnerRef)
    .query(async ({ input }) => {
      await getPartner(input.partnerId, getDb());
      return leadCounts(input.partnerId, getDb());
    }),
  list: partnerProcedure('read', 'read')
    .input(listLeadsInput)
    .query(async ({ input }) => {
      await getPartner(input.partnerId, getDb());
      return listLeads(input, getDb());
    }),
  /** Wishlist → abandoned cart → bought on resale: distinct e-mails at each stage of one event. */
  funnel: partnerProcedure('read', 'read')
    .input(partnerRef.extend({ eventRef: z.string().trim().min(1).max(200) }))
    .query(async ({ input }) => {
      await getPartner(input.partnerId, getDb());
      const [wishlist, abandoned] = await Promise.all([
        leadEmails(input.partnerId, input.eventRef, ['WISHLIST'], getDb()),
        leadEmails(input.partnerId, input.eventRef, ['ABANDONED_CART'], getDb()),
      ]);
      const interested = [...new Set([...wishlist, ...abandoned])];
      const bought = await resaleBuyersAmong(input.partnerId, input.eventRef, interested, getDb());
      return { wishlist: wishlist.length, abandonedCart: abandoned.length, boughtOnResale: bought.length };
    }),
});
