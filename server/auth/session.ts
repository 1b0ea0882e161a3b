import { getServerSession } from 'next-auth';
import { notFound, redirect } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '@/db';
import { type PartnerPermission, partnerRoleRefusal, type Permission, roleRefusal } from '@/server/lib/staff-roles';
import { testPartnerOf } from '@/server/modules/partners';
import {
  activeStaff,
  countStaff,
  isPartnerUser,
  type MemberSession,
  type PartnerUserSession,
  type StaffSession,
} from '@/server/modules/staff';
import { authOptions } from './options';

/**
 * Whoever is signed in to the dashboard (Encore's staff or a partner's user), or null. Works in server
 * components, route handlers and actions; within one server render (layout, page, tRPC calls) the cookie is
 * decoded once. The token alone is not trusted: the member must still exist, with the same session version
 * and the session row the token names still open, so a removed member's next request, or a copy of a
 * signed-out cookie, is turned away though the JWT has not expired. The role and partner are read from the
 * member's row on every request, so a change holds at once.
 */
export const getMemberSession = cache(async (): Promise<MemberSession | null> => {
  const session = await getServerSession(authOptions);
  if (!session?.staff?.id) return null;
  return activeStaff(session.staff.id, session.staff.sessionVersion ?? 0, session.staff.sessionId, getDb());
});

/** The signed-in member of Encore's staff, or null (a partner's user is not staff). */
export async function getStaffSession(): Promise<StaffSession | null> {
  const member = await getMemberSession();
  return member && !isPartnerUser(member) ? member : null;
}

/** The signed-in user of a partner, or null. */
export async function getPartnerUserSession(): Promise<PartnerUserSession | null> {
  const member = await getMemberSession();
  return member && isPartnerUser(member) ? member : null;
}

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
  // A partner's user signed in: Encore's staff pages do not exist for them.
  if (await getPartnerUserSession()) notFound();
  if ((await countStaff(getDb())) === 0) redirect('/setup');
  redirect(signInPath(callbackPath));
}

/**
 * Gate for the pages a partner's user may see too (their partner's): the signed-in member, staff or partner
 * user, else the same redirects as requireStaff. Which partner they may see is the page's to check
 * (`partners.get` answers NOT_FOUND for another partner).
 */
export async function requireMember(callbackPath = '/dashboard'): Promise<MemberSession> {
  const member = await getMemberSession();
  if (member) return member;
  if ((await countStaff(getDb())) === 0) redirect('/setup');
  redirect(signInPath(callbackPath));
}

/** A partner user's partner and its test twin: the partner ids they may name. */
export async function partnerIdsOf(user: PartnerUserSession): Promise<string[]> {
  const twin = await testPartnerOf(user.partnerId, getDb());
  return twin ? [user.partnerId, twin.id] : [user.partnerId];
}

/**
 * For the dashboard's route handlers (the CSV exports): the answer that turns the request away — 401
 * without a session, 403 when the member's role does not hold `permission` (server/lib/staff-roles.ts) —
 * or null when it may go on.
 */
async function staffRouteRefusal(permission: Permission): Promise<Response | null> {
  const staff = await getStaffSession();
  if (!staff) return new Response('Sign in to the dashboard first.', { status: 401 });
  const refusal = roleRefusal(staff.role, permission);
  return refusal ? new Response(refusal, { status: 403 }) : null;
}

/**
 * The same for a route of one partner that its own users may use too: staff need `permission`; a partner's
 * user needs `partnerPermission`, and `partnerId` must be their partner or its test twin, else 404 (another
 * partner does not exist for them).
 */
export async function partnerRouteRefusal(
  partnerId: string,
  permission: Permission,
  partnerPermission: PartnerPermission,
): Promise<Response | null> {
  const user = await getPartnerUserSession();
  if (!user) return staffRouteRefusal(permission);
  if (!(await partnerIdsOf(user)).includes(partnerId)) return new Response('No such partner.', { status: 404 });
  const refusal = partnerRoleRefusal(user.role, partnerPermission);
  return refusal ? new Response(refusal, { status: 403 }) : null;
}
