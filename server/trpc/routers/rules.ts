import { z } from 'zod';
import { getDb } from '@/db';
import { deleteStaffRule, eventRules, saveStaffRule, staffRuleInput } from '@/server/modules/catalog';
import { explainTicket } from '@/server/modules/marketplace';
import { getPartner } from '@/server/modules/partners';
import { protectedProcedure, router } from '../init';

const partnerRef = z.object({ partnerId: z.string().min(1) });

/** The eligibility rules editor: an event's rules (partner's and staff's), staff rules, and the explainer. */
export const rulesRouter = router({
  ofEvent: protectedProcedure
    .input(partnerRef.extend({ eventRef: z.string().trim().min(1, 'Enter the event’s externalReferenceId').max(200) }))
    .query(async ({ input }) => {
      await getPartner(input.partnerId, getDb());
      return eventRules(input.partnerId, input.eventRef, getDb());
    }),
  save: protectedProcedure.input(staffRuleInput).mutation(async ({ input, ctx }) => {
    await getPartner(input.partnerId, getDb());
    return saveStaffRule(input, ctx.staff.email, getDb());
  }),
  delete: protectedProcedure
    .input(partnerRef.extend({ ruleId: z.string().min(1) }))
    .mutation(({ input }) => deleteStaffRule(input.partnerId, input.ruleId, getDb())),
  explain: protectedProcedure
    .input(partnerRef.extend({ ticketId: z.string().trim().min(1, 'Enter a ticketId').max(200) }))
    .query(async ({ input }) => {
      await getPartner(input.partnerId, getDb());
      return explainTicket(input.partnerId, input.ticketId, getDb());
    }),
});
