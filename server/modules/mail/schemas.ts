import { z } from 'zod';

/** The staff mailbox's list query: newest first, by recipient (exact address) and/or partner. */
export const listMailsInput = z.object({
  to: z.string().trim().max(254).optional(),
  partnerId: z.string().trim().min(1).max(100).optional(),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(25),
});
export type ListMailsInput = z.input<typeof listMailsInput>;

export const mailIdInput = z.object({ id: z.string().trim().min(1).max(100) });
