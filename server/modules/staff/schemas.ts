import { z } from 'zod';
import { PARTNER_ROLES, STAFF_ROLES } from '@/server/lib/staff-roles';

const staffRole = z.enum(STAFF_ROLES, 'Choose a role: admin, finance, support or viewer');
const partnerRole = z.enum(PARTNER_ROLES, 'Choose a role: owner, developer or viewer');
const partnerId = z.string().trim().min(1).max(100);

const staffEmail = z.email('Enter a valid e-mail address').transform((e) => e.trim().toLowerCase());
const staffPassword = z.string().min(8, 'Password must be at least 8 characters').max(200);

export const createStaffInput = z.object({
  email: staffEmail,
  password: staffPassword,
  name: z.string().trim().max(120).default(''),
  role: staffRole.default('viewer'),
});
export type CreateStaffInput = z.input<typeof createStaffInput>;

export const createPartnerUserInput = createStaffInput.extend({ role: partnerRole.default('viewer'), partnerId });
export type CreatePartnerUserInput = z.input<typeof createPartnerUserInput>;

export const signInInput = z.object({ email: staffEmail, password: z.string().min(1).max(200) });

export const changePasswordInput = z.object({
  currentPassword: z.string().min(1, 'Enter your current password').max(200),
  newPassword: staffPassword,
});

/** Invitation links stay valid this long; an expired one is simply invited again. */
export const INVITATION_TTL_DAYS = 7;

export const inviteStaffInput = z.object({
  email: z.string().trim().max(320, 'E-mail is at most 320 characters').pipe(staffEmail),
  role: staffRole.default('viewer'),
});
export type InviteStaffInput = z.input<typeof inviteStaffInput>;

export const acceptInvitationInput = z.object({
  token: z.string().min(10).max(200),
  name: z.string().trim().max(120, 'Name is at most 120 characters').default(''),
  password: staffPassword,
});
export type AcceptInvitationInput = z.input<typeof acceptInvitationInput>;

export const changeStaffRoleInput = z.object({ staffId: z.string().min(1).max(100), role: staffRole });
export type ChangeStaffRoleInput = z.input<typeof changeStaffRoleInput>;

export const invitePartnerUserInput = inviteStaffInput.extend({ partnerId, role: partnerRole.default('viewer') });
export type InvitePartnerUserInput = z.input<typeof invitePartnerUserInput>;

export const changePartnerUserRoleInput = z.object({
  partnerId,
  userId: z.string().min(1).max(100),
  role: partnerRole,
});
export type ChangePartnerUserRoleInput = z.input<typeof changePartnerUserRoleInput>;

export const partnerUserRef = z.object({ partnerId, userId: z.string().min(1).max(100) });

/** A code of the member's authenticator app: 6 digits (spaces, as some apps show "123 456", are dropped). */
const totpCode = z
  .string('Enter the 6-digit code from your authenticator app')
  .max(20, 'Enter the 6-digit code from your authenticator app')
  .transform((s) => s.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'));

export const twoFactorCodeInput = z.object({ code: totpCode });
