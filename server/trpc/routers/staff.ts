import { z } from 'zod';
import { TRPCError } from '@trpc/server';
import { getDb } from '@/db';
import { acceptInvitationInput, changePasswordInput, inviteStaffInput } from '@/server/modules/staff';
import {
  acceptInvitation,
  changeStaffPassword,
  endAllStaffSessions,
  inviteStaff,
  listInvitations,
  listStaff,
  removeStaff,
  revokeInvitation,
} from '@/server/modules/staff';
import { protectedProcedure, publicProcedure, router } from '../init';

/**
 * Staff accounts: list, invite, remove, end sessions, change one's password. Removing ends the member's sessions at once (getStaffSession
 * checks the member on every request). Accepting an invitation is public: the one-time token is the
 * credential.
 */
export const staffRouter = router({
  list: protectedProcedure.query(async ({ ctx }) => ({
    items: await listStaff(getDb()),
    invitations: await listInvitations(getDb()),
    currentStaffId: ctx.staff.id,
  })),
  /** The token is in this response only (stored hashed); the dashboard turns it into the link. */
  invite: protectedProcedure
    .input(inviteStaffInput)
    .mutation(({ ctx, input }) => inviteStaff(ctx.staff.id, input, getDb())),
  revokeInvitation: protectedProcedure
    .input(z.object({ invitationId: z.string().min(1) }))
    .mutation(({ input }) => revokeInvitation(input.invitationId, getDb())),
  remove: protectedProcedure
    .input(z.object({ staffId: z.string().min(1) }))
    .mutation(({ ctx, input }) => removeStaff(ctx.staff.id, input.staffId, getDb())),
  /** "Sign out everywhere": a member ends all their own sessions; an admin, anyone's. */
  endSessions: protectedProcedure.input(z.object({ staffId: z.string().min(1) })).mutation(async ({ ctx, input }) => {
    if (input.staffId !== ctx.staff.id && ctx.staff.role !== 'admin') {
      throw new TRPCError({ code: 'FORBIDDEN', message: "Only an admin can end another member's sessions" });
    }
    return { ended: await endAllStaffSessions(input.staffId, getDb()) };
  }),
  changePassword: protectedProcedure
    .input(changePasswordInput)
    .mutation(({ ctx, input }) => changeStaffPassword(ctx.staff.id, input, getDb())),
  acceptInvitation: publicProcedure.input(acceptInvitationInput).mutation(async ({ input }) => {
    const staff = await acceptInvitation(input, getDb());
    return { email: staff.email };
  }),
});
