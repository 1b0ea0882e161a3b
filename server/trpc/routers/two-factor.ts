import { getDb } from '@/db';
import { audited } from '@/server/modules/audit';
import {
  beginTwoFactor,
  countedCodeAttempt,
  switchTwoFactor,
  twoFactorCodeInput,
  twoFactorStatus,
} from '@/server/modules/staff';
import { type Actor, auditActorOf, partnerProcedure, router } from '../init';

/** Every member, staff or a partner's user, sets up their own two-factor sign-in: nobody else's. */
const self = () => partnerProcedure('self', 'self', 'resolver');

/**
 * Turning it on or off with a code: counted like a sign-in attempt (a wrong code is a failure), and recorded
 * with the member as the target, under their partner for a partner's user (so their partner's log shows it).
 */
function switchWithCode(actor: Actor, input: { code: string }, on: boolean) {
  return countedCodeAttempt(actor.member.email, getDb(), () =>
    audited(
      ({ tx }) => switchTwoFactor(actor.member.id, on, input, tx),
      {
        actor: auditActorOf(actor),
        partnerId: actor.kind === 'partner_user' ? actor.member.partnerId : null,
        target: { type: actor.kind === 'staff' ? 'staff' : 'partner_user', id: actor.member.id },
        action: on ? 'two_factor.enabled' : 'two_factor.disabled',
        before: async () => ({ twoFactor: !on }),
        after: () => ({ twoFactor: on }),
      },
      getDb(),
    ),
  );
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
    .mutation(({ ctx, input }) => switchWithCode(ctx.actor, input, true)),
  disable: self()
    .input(twoFactorCodeInput)
    .mutation(({ ctx, input }) => switchWithCode(ctx.actor, input, false)),
});
