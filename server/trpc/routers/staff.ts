import { z } from 'zod';
import { TRPCError } from '@trpc/server';
import { may, mayGiveRole } from '@/server/lib/staff-roles';
import { getDb } from '@/db';
import {
  acceptInvitationInput,
  changePasswordInput,
  changeStaffRoleInput,
  inviteStaffInput,
} from '@/server/modules/staff';
import {
  acceptInvitation,
  changeStaffPassword,
  changeStaffRole,
  endAllStaffSessions,
  inviteStaff,
  listInvitations,
  listStaff,
  removeStaff,
  revokeInvitation,
} from '@/server/modules/staff';
import { audited, staffActor } from '@/server/modules/audit';
import { staffProcedure, publicProcedure, router } from '../init';

/**
 * Staff accounts: list, invite, change a role, remove, end sessions, change one's password. Only an admin
 * invites, changes roles and removes (never giving a role above their own; the last admin stays one).
 * Removing ends the member's sessions at once, and a new role holds from the member's next request
 * (getStaffSession reads the member on every request). Accepting an invitation is public: the one-time
 * token is the credential.
 */
export const staffRouter = router({
  list: staffProcedure('read').query(async ({ ctx }) => ({
    items: await listStaff(getDb()),
    invitations: await listInvitations(getDb()),
    currentStaffId: ctx.staff.id,
  })),
  /** The token is in this response only (stored hashed); the dashboard turns it into the link. */
  invite: staffProcedure('admin')
    .input(inviteStaffInput)
    .mutation(({ ctx, input }) =>
      audited(
        ({ tx }) => inviteStaff(ctx.staff, input, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'staff.invited',
          partnerId: null,
          target: (r) => ({ type: 'staff_invitation', id: r.invitation.id }),
          // The invitation, never its token.
          after: (r) => r.invitation,
        },
        getDb(),
      ),
    ),
  revokeInvitation: staffProcedure('admin')
    .input(z.object({ invitationId: z.string().min(1) }))
    .mutation(({ ctx, input }) =>
      audited(
        ({ tx }) => revokeInvitation(input.invitationId, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'staff.invitation_revoked',
          partnerId: null,
          target: { type: 'staff_invitation', id: input.invitationId },
          before: async (tx) => (await listInvitations(tx)).find((i) => i.id === input.invitationId) ?? null,
          after: () => null,
        },
        getDb(),
      ),
    ),
  /** Recorded in the audit log with the role before and after. */
  changeRole: staffProcedure('admin')
    .input(changeStaffRoleInput)
    .mutation(({ ctx, input }) => {
      if (!mayGiveRole(ctx.staff.role, input.role)) {
        throw new TRPCError({ code: 'FORBIDDEN', message: `Your role may not make a member ${input.role}` });
      }
      return audited(
        ({ tx }) => changeStaffRole(input, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'staff.role_changed',
          partnerId: null,
          target: { type: 'staff', id: input.staffId },
          before: async (tx) => {
            const member = (await listStaff(tx)).find((s) => s.id === input.staffId);
            return member ? { email: member.email, role: member.role } : null;
          },
          after: (r) => ({ email: r.email, role: r.after }),
        },
        getDb(),
      );
    }),
  remove: staffProcedure('admin')
    .input(z.object({ staffId: z.string().min(1) }))
    .mutation(({ ctx, input }) =>
      audited(
        ({ tx }) => removeStaff(ctx.staff.id, input.staffId, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'staff.removed',
          partnerId: null,
          target: { type: 'staff', id: input.staffId },
          before: async (tx) => (await listStaff(tx)).find((s) => s.id === input.staffId) ?? null,
          after: () => null,
        },
        getDb(),
      ),
    ),
  /** "Sign out everywhere": a member ends all their own sessions; an admin, anyone's. */
  endSessions: staffProcedure('self')
    .input(z.object({ staffId: z.string().min(1) }))
    .mutation(async ({ ctx, input }) => {
      if (input.staffId !== ctx.staff.id && !may(ctx.staff.role, 'admin')) {
        throw new TRPCError({ code: 'FORBIDDEN', message: "Only an admin can end another member's sessions" });
      }
      const ended = await audited(
        ({ tx }) => endAllStaffSessions(input.staffId, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'staff.sessions_ended',
          partnerId: null,
          target: { type: 'staff', id: input.staffId },
          after: (count) => ({ sessionsEnded: count }),
        },
        getDb(),
      );
      return { ended };
    }),
  /** Recorded as "the password changed", never a value or hash. */
  changePassword: staffProcedure('self')
    .input(changePasswordInput)
    .mutation(({ ctx, input }) =>
      audited(
        ({ tx }) => changeStaffPassword(ctx.staff.id, input, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'staff.password_changed',
          partnerId: null,
          target: { type: 'staff', id: ctx.staff.id },
          before: async () => ({ passwordChanged: false }),
          after: () => ({ passwordChanged: true }),
        },
        getDb(),
      ),
    ),
  /** Nobody is signed in yet: the invitation link is the actor, the new member the target. */
  acceptInvitation: publicProcedure.input(acceptInvitationInput).mutation(async ({ input }) => {
    const staff = await audited(
      ({ tx }) => acceptInvitation(input, tx),
      {
        actor: { kind: 'system', id: 'staff_invitation', label: 'invitation link' },
        action: 'staff.joined',
        partnerId: null,
        target: (s) => ({ type: 'staff', id: s.id }),
        after: (s) => ({ email: s.email, name: s.name, role: s.role }),
      },
      getDb(),
    );
    return { email: staff.email };
  }),
});
