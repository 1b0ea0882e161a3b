'use client';

import { createContext, type ReactNode, useContext } from 'react';
import {
  memberMay,
  type PartnerPermission,
  type PartnerRole,
  type Permission,
  type StaffRole,
} from '@/server/lib/staff-roles';

/** The signed-in member as the client components need them: a staff role, or a partner role and partner. */
export type SignedInRole = { role: StaffRole; partnerId?: null } | { role: PartnerRole; partnerId: string };

/** Without a provider nothing is offered: a viewer's (least) privileges. */
const MemberRoleContext = createContext<SignedInRole>({ role: 'viewer' });

/**
 * The signed-in member's role for the dashboard's client components, given by app/dashboard/layout.tsx
 * from the session. It only decides which controls are shown: every procedure checks the role itself.
 */
export function MemberRoleProvider({ member, children }: { member: SignedInRole; children: ReactNode }) {
  return <MemberRoleContext.Provider value={member}>{children}</MemberRoleContext.Provider>;
}

/** The signed-in staff member's role (a partner's user, who never reaches staff pages, counts as a viewer). */
export function useStaffRole(): StaffRole {
  const member = useContext(MemberRoleContext);
  return typeof member.partnerId === 'string' ? 'viewer' : member.role;
}

/**
 * Whether the signed-in member may use a procedure declared with these permissions (server/lib/staff-roles.ts:
 * `permission` for staff, `partnerPermission` for a partner's user, who holds nothing without one): a control
 * is shown only then, so no button answers "forbidden".
 */
export function useMay(permission: Permission, partnerPermission?: PartnerPermission): boolean {
  return memberMay(useContext(MemberRoleContext), permission, partnerPermission);
}
