import { z } from 'zod';

/** Hours before the show a code unlocks: 0 (at the doors) to 30 days. */
const hours = z.number().int().min(0, 'must be 0 or more').max(720, 'must be at most 720 (30 days)');

export const partnerProtectionInput = z.object({
  partnerId: z.string().min(1),
  unlockHours: hours,
  reissue: z.boolean(),
});
export type PartnerProtectionInput = z.infer<typeof partnerProtectionInput>;

/** An event's or a show's switch and unlock override; null inherits (the event's, then on / the default). */
export const scopeProtectionInput = z.object({
  partnerId: z.string().min(1),
  eventPk: z.string().min(1),
  showPk: z.string().min(1).nullable().default(null),
  active: z.boolean().nullable(),
  unlockHours: hours.nullable(),
});
export type ScopeProtectionInput = z.infer<typeof scopeProtectionInput>;

export const eventProtectionRef = z.object({ partnerId: z.string().min(1), eventPk: z.string().min(1) });
export const partnerRef = z.object({ partnerId: z.string().min(1) });
