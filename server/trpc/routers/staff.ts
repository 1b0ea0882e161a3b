import { z } from 'zod';
import { acceptInvitationInput, inviteStaffInput } from '@/server/modules/staff';
import {
  acceptInvitation,
  inviteStaff,
  listInvitations,
  listStaff,
  removeStaff,
  revokeInvitation,
} from '@/server/modules/staff';
import { protectedProcedure, publicProcedure, router } from '../init';

/**
 * Staff accounts: list, invite, remove. Removing ends the member's sessions at once (getStaffSession
 * checks the member on every request). Accepting an invitation is public: the one-time token is the
 * credential.
 */
export const staffRouter = router({
  list: protectedProcedure.query(async ({ ctx }) => ({
    items: await listStaff(),
    invitations: await listInvitations(),
    currentStaffId: ctx.staff.id,
  })),
  /** The token is in this response only (stored hashed); the dashboard turns it into the link. */
  invite: protectedProcedure.input(inviteStaffInput).mutation(({ ctx, input }) => inviteStaff(ctx.staff.id, input)),
  revokeInvitation: protectedProcedure
    .input(z.object({ invitationId: z.string().min(1) }))
    .mutation(({ input }) => revokeInvitation(input.invitationId)),
  remove: protectedProcedure
    .input(z.object({ staffId: z.string().min(1) }))
    .mutation(({ ctx, input }) => removeStaff(ctx.staff.id, input.staffId)),
  acceptInvitation: publicProcedure.input(acceptInvitationInput).mutation(async ({ input }) => {
    const staff = await acceptInvitation(input);
    return { email: staff.email };
  }),
});
