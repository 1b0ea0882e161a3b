import { TRPCError } from '@trpc/server';
import { getDb } from '@/db';
import { createStaffInput } from '@/server/modules/staff';
import { createFirstAdmin } from '@/server/modules/staff';
import { publicProcedure, router } from '../init';

const firstAdminInput = createStaffInput.pick({ email: true, password: true, name: true });

/** First-run setup: the only procedures callable without a session, and only while no staff exists. */
export const setupRouter = router({
  createFirstAdmin: publicProcedure.input(firstAdminInput).mutation(async ({ input }) => {
    const admin = await createFirstAdmin(input, getDb());
    if (!admin) throw new TRPCError({ code: 'FORBIDDEN', message: 'Setup is already complete. Sign in instead.' });
    return { email: admin.email };
  }),
});
