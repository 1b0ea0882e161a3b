/** Staff: dashboard users, invitations and sign-in. Owns the tables of db/schema/staff.ts. */
export {
  acceptInvitationInput,
  changePasswordInput,
  changeStaffRoleInput,
  createStaffInput,
  inviteStaffInput,
} from './schemas';
export { acceptInvitation, findInvitation, inviteStaff, listInvitations, revokeInvitation } from './invitations';
export {
  changeStaffPassword,
  changeStaffRole,
  countStaff,
  createFirstAdmin,
  createStaff,
  listStaff,
  removeStaff,
} from './members';
export { activeStaff, endAllStaffSessions, endStaffSession, openStaffSession, type StaffSession } from './sessions';
export { SIGN_IN_LIMITED, SignInLimitedError, verifyStaffCredentials } from './sign-in';
