import { z } from 'zod';
import { listStaff, removeStaff } from '@/server/modules/staff/service';
import { protectedProcedure, router } from '../init';

/** Staff accounts: list and remove. Removing ends the member's sessions at once (see getStaffSession). */
export const staffRouter = router({
  list: protectedProcedure.query(({ ctx }) =>
    listStaff().then((items) => ({ items, currentStaffId: ctx.staff.id })),
  ),
  remove: protectedProcedure
    .input(z.object({ staffId: z.string().min(1) }))
    .mutation(({ ctx, input }) => removeStaff(ctx.staff.id, input.staffId)),
});
