import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '@/db';
import { may, type Permission, PERMISSIONS } from '@/server/lib/staff-roles';
import { activeStaff, countStaff, type StaffSession } from '@/server/modules/staff';
import { authOptions } from './options';

/**
 * The signed-in staff member, or null. Works in server components, route handlers and actions; within
 * one server render (layout, page, tRPC calls) the cookie is decoded once. The token alone is not
 * trusted: the member must still exist, with the same session version and the session row the token
 * names still open, so a removed member's next request, or a copy of a signed-out cookie, is turned away
 * though the JWT has not expired.
 */
export const getStaffSession = cache(async (): Promise<StaffSession | null> => {
  const session = await getServerSession(authOptions);
  if (!session?.staff?.id) return null;
  return activeStaff(session.staff.id, session.staff.sessionVersion ?? 0, session.staff.sessionId, getDb());
});

/**
 * Only same-site paths are accepted as a place to return to after sign-in, so a crafted link cannot
 * send a freshly signed-in staff member to another site (or back to sign-in, in a loop).
 */
export function safeCallbackPath(value: unknown, fallback = '/dashboard'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) {
    return fallback;
  }
  if (/^\/(signin|setup|api)(\/|\?|$)/.test(value)) return fallback;
  return value;
}

function signInPath(callbackPath: string): string {
  return `/signin?callbackUrl=${encodeURIComponent(safeCallbackPath(callbackPath))}`;
}

/**
 * Gate for dashboard server components: returns the staff member or redirects — to /setup while no
 * staff exists at all (first run), otherwise to /signin with a way back to `callbackPath`.
 */
export async function requireStaff(callbackPath = '/dashboard'): Promise<StaffSession> {
  const staff = await getStaffSession();
  if (staff) return staff;
  if ((await countStaff(getDb())) === 0) redirect('/setup');
  redirect(signInPath(callbackPath));
}

/**
 * For the dashboard's route handlers (the CSV exports): the answer that turns the request away — 401
 * without a session, 403 when the member's role does not hold `permission` (server/lib/staff-roles.ts) —
 * or null when it may go on.
 */
export async function staffRouteRefusal(permission: Permission): Promise<Response | null> {
  const staff = await getStaffSession();
  if (!staff) return new Response('Sign in to the dashboard first.', { status: 401 });
  if (may(staff.role, permission)) return null;
  return new Response(
    `Your role (${staff.role}) may not do this: it needs a role that may ${PERMISSIONS[permission].what}.`,
    {
      status: 403,
    },
  );
}
