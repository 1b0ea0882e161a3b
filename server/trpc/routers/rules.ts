import { z } from 'zod';
import { getDb } from '@/db';
import { deleteStaffRule, eventRules, saveStaffRule, staffRuleInput } from '@/server/modules/catalog';
import { explainTicket } from '@/server/modules/fan-pages';
import { getPartner } from '@/server/modules/partners';
import { audited, staffActor } from '@/server/modules/audit';
import { partnerProcedure, staffProcedure, router } from '../init';

const partnerRef = z.object({ partnerId: z.string().min(1) });

/** The eligibility rules editor: an event's rules (partner's and staff's), staff rules, and the explainer. */
export const rulesRouter = router({
  ofEvent: partnerProcedure('read', 'read')
    .input(partnerRef.extend({ eventRef: z.string().trim().min(1, 'Enter the event’s externalReferenceId').max(200) }))
    .query(async ({ input }) => {
      await getPartner(input.partnerId, getDb());
      return eventRules(input.partnerId, input.eventRef, getDb());
    }),
  save: staffProcedure('admin')
    .input(staffRuleInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => saveStaffRule(input, ctx.staff.email, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'rule.saved',
          partnerId: input.partnerId,
          target: (rule) => ({ type: 'rule', id: rule.id }),
          // The staff rule of this scope and type it replaces, if any.
          before: async (tx) => {
            await getPartner(input.partnerId, tx);
            const { rules } = await eventRules(input.partnerId, input.eventRef, tx);
            const same = rules.find(
              (r) =>
                r.source === 'STAFF' &&
                r.ruleType === input.ruleType &&
                r.showId === (input.showId || null) &&
                r.ticketOptionId === (input.ticketOptionId || null) &&
                r.priceTypeId === (input.priceTypeId || null),
            );
            return same ? { rules: same.rules, description: same.description } : null;
          },
          after: (rule) => ({
            eventRef: input.eventRef,
            ruleType: rule.ruleType,
            rules: rule.rules,
            description: rule.description,
          }),
        },
        getDb(),
      ),
    ),
  delete: staffProcedure('admin')
    .input(partnerRef.extend({ ruleId: z.string().min(1) }))
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => deleteStaffRule(input.partnerId, input.ruleId, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'rule.deleted',
          partnerId: input.partnerId,
          target: { type: 'rule', id: input.ruleId },
          removes: true,
        },
        getDb(),
      ),
    ),
  explain: partnerProcedure('read', 'read')
    .input(partnerRef.extend({ ticketId: z.string().trim().min(1, 'Enter a ticketId').max(200) }))
    .query(async ({ input }) => {
      await getPartner(input.partnerId, getDb());
      return explainTicket(input.partnerId, input.ticketId, getDb());
    }),
});
