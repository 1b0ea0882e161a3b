import { z } from 'zod';
import { getDb } from '@/db';
import { audited, staffActor } from '@/server/modules/audit';
import { endFanSessionsOf, fanEmail } from '@/server/modules/fans';
import { opsSearch, opsSearchInput } from '@/server/modules/ops';
import { getPartner } from '@/server/modules/partners';
import { staffProcedure, router } from '../init';

/**
 * Support search for staff: one box for an e-mail or an id (read-only, server/modules/ops), and ending a
 * fan's sessions at one partner. Refunds and resends go through market.refund and mail.resend.
 */
export const opsSearchRouter = router({
  search: staffProcedure('read')
    .input(opsSearchInput)
    .query(({ input }) => opsSearch(input, getDb())),
  /** Signs the fan out of every open session with this partner: their next request is signed out. */
  endSessions: staffProcedure('support')
    .input(z.object({ partnerId: z.string().trim().min(1).max(100), email: fanEmail }))
    .mutation(async ({ input, ctx }) => {
      await getPartner(input.partnerId, getDb());
      return audited(
        async ({ tx }) => ({ ended: await endFanSessionsOf(input.partnerId, input.email, tx) }),
        {
          actor: staffActor(ctx.staff),
          action: 'fan.sessions_ended',
          partnerId: input.partnerId,
          target: { type: 'fan', id: input.email.trim().toLowerCase() },
        },
        getDb(),
      );
    }),
});
