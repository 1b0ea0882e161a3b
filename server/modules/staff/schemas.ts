import { z } from 'zod';

export const staffEmail = z.email('Enter a valid e-mail address').transform((e) => e.trim().toLowerCase());
export const staffPassword = z.string().min(8, 'Password must be at least 8 characters').max(200);

export const createStaffInput = z.object({
  email: staffEmail,
  password: staffPassword,
  name: z.string().trim().max(120).default(''),
  role: z.enum(['admin', 'staff']).default('staff'),
});
export type CreateStaffInput = z.input<typeof createStaffInput>;

export const signInInput = z.object({ email: staffEmail, password: z.string().min(1).max(200) });
