import { z } from 'zod';

/** Who made a change: a staff member (by e-mail), a partner or channels key (by prefix), or the system. */
export interface AuditActor {
  kind: 'staff' | 'partner_user' | 'partner_key' | 'channel_key' | 'system';
  id: string;
  label: string;
}

const optionalText = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((v) => v || undefined);
const optionalDay = z
  .union([z.literal(''), z.coerce.date({ error: 'Enter a date as YYYY-MM-DD' })])
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** The log's filters (the page's GET form and the router share them). */
export const auditQuery = z.object({
  partnerId: optionalText,
  /** Part of the actor's e-mail or key prefix. */
  actor: optionalText,
  /** An action or its beginning, e.g. `api_key` or `partner.fees.updated`. */
  action: optionalText,
  from: optionalDay,
  to: optionalDay,
  /** Free text over action, actor, target and the before/after values. */
  q: optionalText,
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type AuditQuery = z.input<typeof auditQuery>;
