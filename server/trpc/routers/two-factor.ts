import { getDb } from '@/db';
import { audited } from '@/server/modules/audit';
import {
  beginTwoFactor,
  countedCodeAttempt,
  disableTwoFactor,
  enableTwoFactor,
  twoFactorCodeInput,
  twoFactorStatus,
} from '@/server/modules/staff';
import { type Actor, auditActorOf, partnerProcedure, router } from '../init';

/** Every member, staff or a partner's user, sets up their own two-factor sign-in: nobody else's. */
const self = () => partnerProcedure('self', 'self', 'resolver');

/** The audit record's partner (a partner user's, so their partner's log shows it) and target: the member. */
function recordOf(actor: Actor) {
  return {
    actor: auditActorOf(actor),
    partnerId: actor.kind === 'partner_user' ? actor.member.partnerId : null,
    target: { type: actor.kind === 'staff' ? 'staff' : 'partner_user', id: actor.member.id },
  };
}

/**
 * The signed-in member's own two-factor sign-in (TOTP): whether it is on, starting the set-up (the secret
 * is in that answer only), turning it on with a current code and off with one. Turning it on and off is in
 * the audit log, never the secret or a code.
 */
export const twoFactorRouter = router({
  status: self().query(({ ctx }) => twoFactorStatus(ctx.actor.member.id, getDb())),
  begin: self().mutation(({ ctx }) => beginTwoFactor(ctx.actor.member.id, getDb())),
  enable: self()
    .input(twoFactorCodeInput)
    .mutation(({ ctx, input }) =>
      countedCodeAttempt(ctx.actor.member.email, getDb(), () =>
        audited(
          ({ tx }) => enableTwoFactor(ctx.actor.member.id, input, tx),
          {
            ...recordOf(ctx.actor),
            action: 'two_factor.enabled',
            before: async () => ({ twoFactor: false }),
            after: () => ({ twoFactor: true }),
          },
          getDb(),
        ),
      ),
    ),
  disable: self()
    .input(twoFactorCodeInput)
    .mutation(({ ctx, input }) =>
      countedCodeAttempt(ctx.actor.member.email, getDb(), () =>
        audited(
          ({ tx }) => disableTwoFactor(ctx.actor.member.id, input, tx),
          {
            ...recordOf(ctx.actor),
            action: 'two_factor.disabled',
            before: async () => ({ twoFactor: true }),
            after: () => ({ twoFactor: false }),
          },
          getDb(),
        ),
      ),
    ),
});
