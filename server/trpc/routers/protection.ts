import { getDb } from '@/db';
import {
  eventProtection,
  eventProtectionRef,
  partnerProtection,
  partnerProtectionInput,
  partnerRef,
  scopeProtectionInput,
  setPartnerProtection,
  setScopeProtection,
} from '@/server/modules/protection';
import { getPartner } from '@/server/modules/partners';
import { reissueDelayStats, ticketsAwaitingReissue } from '@/server/modules/tickets';
import { protectedProcedure, router } from '../init';

/**
 * Ticket protection for staff: the partner's defaults (unlock hours, reissue after resale), the switch and
 * unlock override per event and show (each change of a show's protection is a `ticketShield.updated`),
 * and the tickets awaiting the partner's reissue with the delay metric.
 */
export const protectionRouter = router({
  partner: protectedProcedure.input(partnerRef).query(async ({ input }) => {
    await getPartner(input.partnerId, getDb());
    return partnerProtection(input.partnerId, getDb());
  }),
  setPartner: protectedProcedure.input(partnerProtectionInput).mutation(async ({ input, ctx }) => {
    await getPartner(input.partnerId, getDb());
    return setPartnerProtection(input, ctx.staff.email, getDb());
  }),
  event: protectedProcedure.input(eventProtectionRef).query(async ({ input }) => {
    await getPartner(input.partnerId, getDb());
    return eventProtection(input.partnerId, input.eventPk, getDb());
  }),
  setScope: protectedProcedure.input(scopeProtectionInput).mutation(async ({ input, ctx }) => {
    await getPartner(input.partnerId, getDb());
    return setScopeProtection(input, ctx.staff.email);
  }),
  reissues: protectedProcedure.input(partnerRef).query(async ({ input }) => {
    await getPartner(input.partnerId, getDb());
    const [awaiting, stats] = await Promise.all([
      ticketsAwaitingReissue(input.partnerId, undefined, getDb()),
      reissueDelayStats(input.partnerId, getDb()),
    ]);
    return { awaiting, stats };
  }),
});
