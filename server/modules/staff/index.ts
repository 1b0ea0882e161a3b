/**
 * Staff: everyone who signs in to the dashboard — Encore's staff and partners' own users — their invitations,
 * sessions and sign-in. Owns the tables of db/schema/staff.ts.
 */
export {
  acceptInvitationInput,
  changePartnerUserRoleInput,
  changePasswordInput,
  changeStaffRoleInput,
  createStaffInput,
  invitePartnerUserInput,
  inviteStaffInput,
  partnerUserRef,
  twoFactorCodeInput,
} from './schemas';
export { changePartnerUserRole, invitePartnerUser, listPartnerUsers, removePartnerUser } from './partner-users';
export { acceptInvitation, findInvitation, inviteStaff, listInvitations, revokeInvitation } from './invitations';
export {
  changeStaffPassword,
  changeStaffRole,
  countStaff,
  createFirstAdmin,
  createPartnerUser,
  createStaff,
  listStaff,
  removeStaff,
} from './members';
export {
  activeStaff,
  endAllStaffSessions,
  endStaffSession,
  isPartnerUser,
  type MemberSession,
  openStaffSession,
  type PartnerUserSession,
  type StaffSession,
} from './sessions';
export {
  countedCodeAttempt,
  SIGN_IN_LIMITED,
  SignInLimitedError,
  TwoFactorSignInError,
  verifyStaffCredentials,
} from './sign-in';
export { beginTwoFactor, switchTwoFactor, twoFactorStatus } from './two-factor';
