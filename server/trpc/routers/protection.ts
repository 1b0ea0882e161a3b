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
import { audited, staffActor } from '@/server/modules/audit';
import { partnerProcedure, staffProcedure, router } from '../init';

/**
 * Ticket protection for staff: the partner's defaults (unlock hours, reissue after resale), the switch and
 * unlock override per event and show (each change of a show's protection is a `ticketShield.updated`),
 * and the tickets awaiting the partner's reissue with the delay metric.
 */
export const protectionRouter = router({
  partner: partnerProcedure('read', 'read')
    .input(partnerRef)
    .query(async ({ input }) => {
      await getPartner(input.partnerId, getDb());
      return partnerProtection(input.partnerId, getDb());
    }),
  setPartner: staffProcedure('admin')
    .input(partnerProtectionInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => setPartnerProtection(input, ctx.staff.email, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'protection.partner.updated',
          partnerId: input.partnerId,
          target: { type: 'partner_protection', id: input.partnerId },
          before: async (tx) => {
            await getPartner(input.partnerId, tx);
            return partnerProtection(input.partnerId, tx);
          },
        },
        getDb(),
      ),
    ),
  event: partnerProcedure('read', 'read')
    .input(eventProtectionRef)
    .query(async ({ input }) => {
      await getPartner(input.partnerId, getDb());
      return eventProtection(input.partnerId, input.eventPk, getDb());
    }),
  setScope: staffProcedure('admin')
    .input(scopeProtectionInput)
    .mutation(({ input, ctx }) => {
      const { partnerId, eventPk } = input;
      // The event's and its shows' own settings, before and after (what the change touches).
      const settingsOf = async (tx: Parameters<typeof eventProtection>[2]) => {
        const p = await eventProtection(partnerId, eventPk, tx);
        return { event: p.event, shows: Object.fromEntries(p.shows.map((s) => [s.showId, s.effective])) };
      };
      return audited(
        (work) => setScopeProtection(input, ctx.staff.email, work),
        {
          actor: staffActor(ctx.staff),
          action: 'protection.event.updated',
          partnerId,
          target: { type: 'event', id: eventPk },
          before: async (tx) => {
            await getPartner(partnerId, tx);
            return settingsOf(tx);
          },
          after: async (result, tx) => ({ ...(await settingsOf(tx)), notified: result.notified.length }),
        },
        getDb(),
      );
    }),
  reissues: partnerProcedure('read', 'read')
    .input(partnerRef)
    .query(async ({ input }) => {
      await getPartner(input.partnerId, getDb());
      const [awaiting, stats] = await Promise.all([
        ticketsAwaitingReissue(input.partnerId, undefined, getDb()),
        reissueDelayStats(input.partnerId, getDb()),
      ]);
      return { awaiting, stats };
    }),
});
