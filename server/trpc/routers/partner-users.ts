import { z } from 'zod';
import { TRPCError } from '@trpc/server';
import { getDb } from '@/db';
import { audited } from '@/server/modules/audit';
import { getPartner } from '@/server/modules/partners';
import {
  acceptInvitation,
  acceptInvitationInput,
  changePartnerUserRole,
  changePartnerUserRoleInput,
  invitePartnerUser,
  invitePartnerUserInput,
  isPartnerUser,
  listPartnerUsers,
  partnerUserRef,
  removePartnerUser,
  revokeInvitation,
} from '@/server/modules/staff';
import { auditActorOf, partnerProcedure, publicProcedure, router } from '../init';

/** A partner's users belong to its live row: a test twin's id names its live partner. */
async function livePartnerId(partnerId: string): Promise<string> {
  const partner = await getPartner(partnerId, getDb());
  return partner.livePartnerId ?? partner.id;
}

/** One of the partner's users as the audit log records them (their e-mail and role), or null. */
async function userAsRecorded(partnerId: string, userId: string, tx: Parameters<typeof listPartnerUsers>[1]) {
  const found = (await listPartnerUsers(partnerId, tx)).users.find((u) => u.id === userId);
  return found ? { email: found.email, role: found.role } : null;
}

/**
 * A partner's own users: Encore's admin or the partner's owner invites (the token is in this answer only,
 * stored hashed), changes roles and removes; the last owner stays one. Every change is in the audit log under
 * the partner. Accepting is public: the one-time token is the credential.
 */
export const partnerUsersRouter = router({
  list: partnerProcedure('read', 'read')
    .input(z.object({ partnerId: z.string().min(1).max(100) }))
    .query(async ({ input }) => listPartnerUsers(await livePartnerId(input.partnerId), getDb())),
  invite: partnerProcedure('admin', 'users')
    .input(invitePartnerUserInput)
    .mutation(async ({ ctx, input }) => {
      const partnerId = await livePartnerId(input.partnerId);
      return audited(
        ({ tx }) => invitePartnerUser(ctx.actor.member.id, { ...input, partnerId }, tx),
        {
          actor: auditActorOf(ctx.actor),
          action: 'partner_user.invited',
          partnerId,
          target: (r) => ({ type: 'partner_invitation', id: r.invitation.id }),
          // The invitation, never its token.
          after: (r) => r.invitation,
        },
        getDb(),
      );
    }),
  changeRole: partnerProcedure('admin', 'users')
    .input(changePartnerUserRoleInput)
    .mutation(async ({ ctx, input }) => {
      const partnerId = await livePartnerId(input.partnerId);
      return audited(
        ({ tx }) => changePartnerUserRole({ ...input, partnerId }, tx),
        {
          actor: auditActorOf(ctx.actor),
          action: 'partner_user.role_changed',
          partnerId,
          target: { type: 'partner_user', id: input.userId },
          before: (tx) => userAsRecorded(partnerId, input.userId, tx),
          after: (r) => ({ email: r.email, role: r.after }),
        },
        getDb(),
      );
    }),
  remove: partnerProcedure('admin', 'users')
    .input(partnerUserRef)
    .mutation(async ({ ctx, input }) => {
      if (input.userId === ctx.actor.member.id) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: 'You cannot remove yourself' });
      }
      const partnerId = await livePartnerId(input.partnerId);
      await audited(
        ({ tx }) => removePartnerUser(partnerId, input.userId, tx),
        {
          actor: auditActorOf(ctx.actor),
          action: 'partner_user.removed',
          partnerId,
          target: { type: 'partner_user', id: input.userId },
          before: (tx) => userAsRecorded(partnerId, input.userId, tx),
          after: () => null,
        },
        getDb(),
      );
      return { removed: input.userId };
    }),
  revokeInvitation: partnerProcedure('admin', 'users')
    .input(z.object({ partnerId: z.string().min(1).max(100), invitationId: z.string().min(1).max(100) }))
    .mutation(async ({ ctx, input }) => {
      const partnerId = await livePartnerId(input.partnerId);
      await audited(
        ({ tx }) => revokeInvitation(input.invitationId, tx, partnerId),
        {
          actor: auditActorOf(ctx.actor),
          action: 'partner_user.invitation_revoked',
          partnerId,
          target: { type: 'partner_invitation', id: input.invitationId },
          after: () => null,
        },
        getDb(),
      );
      return { revoked: input.invitationId };
    }),
  /** Nobody is signed in yet: the invitation link is the actor, the new user the target. */
  acceptInvitation: publicProcedure.input(acceptInvitationInput).mutation(async ({ input }) => {
    const user = await audited(
      ({ tx }) => acceptInvitation(input, tx),
      {
        actor: { kind: 'system', id: 'partner_invitation', label: 'invitation link' },
        action: 'partner_user.joined',
        partnerId: null,
        target: (s) => ({ type: isPartnerUser(s) ? 'partner_user' : 'staff', id: s.id }),
        after: (s) => ({ email: s.email, name: s.name, role: s.role, partnerId: s.partnerId ?? null }),
      },
      getDb(),
    );
    return { email: user.email };
  }),
});
