'use client';

import { createContext, type ReactNode, useContext } from 'react';
import { may, type Permission, type StaffRole } from '@/server/lib/staff-roles';

/** Without a provider nothing is offered: a viewer's (least) privileges. */
const StaffRoleContext = createContext<StaffRole>('viewer');

/**
 * The signed-in member's role for the dashboard's client components, given by app/dashboard/layout.tsx
 * from the session. It only decides which controls are shown: every procedure checks the role itself.
 */
export function StaffRoleProvider({ role, children }: { role: StaffRole; children: ReactNode }) {
  return <StaffRoleContext.Provider value={role}>{children}</StaffRoleContext.Provider>;
}

/** The signed-in member's role. */
export function useStaffRole(): StaffRole {
  return useContext(StaffRoleContext);
}

/**
 * Whether the signed-in member's role holds `permission` (server/lib/staff-roles.ts): a control whose
 * procedure needs it is shown only then, so no button answers "forbidden".
 */
export function useMay(permission: Permission): boolean {
  return may(useStaffRole(), permission);
}
