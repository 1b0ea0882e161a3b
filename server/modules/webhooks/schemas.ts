import { z } from 'zod';

/** Body of every webhook request, as the spec gives it. */
export const webhookBody = z.object({
  family: z.string().min(1),
  action: z.string().min(1),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookBody = z.infer<typeof webhookBody>;

const headerName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{1,64}$/, 'Header names use letters, digits and dashes (at most 64)')
  .refine(
    (h) => !/^(content-type|content-length|host|user-agent|webhook-id|webhook-timestamp|webhook-signature)$/i.test(h),
    'This header is set by Encore',
  );

export const upsertEndpointInput = z.object({
  partnerId: z.string().min(1),
  url: z.string().trim().min(1, 'URL is required').max(2000),
  enabled: z.boolean().default(true),
  /** Optional secret header the partner's receiver checks; both or neither. Omit value to keep it. */
  secretHeaderName: headerName.nullable().optional(),
  secretHeaderValue: z.string().max(500).nullable().optional(),
});
export type UpsertEndpointInput = z.input<typeof upsertEndpointInput>;

export const messageStatus = z.enum(['pending', 'delivered']);

export const listMessagesInput = z.object({
  partnerId: z.string().min(1),
  /** One channel's messages; without it, the partner's own (channel messages are not in its log). */
  channelId: z.string().min(1).optional(),
  status: messageStatus.optional(),
  action: z.string().trim().max(100).optional(),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(25),
});
export type ListMessagesInput = z.input<typeof listMessagesInput>;

export const messageRef = z.object({ partnerId: z.string().min(1), messageId: z.string().min(1) });

/** The dashboard's reference to one partner's webhook settings. */
export const partnerRef = z.object({ partnerId: z.string().min(1) });
