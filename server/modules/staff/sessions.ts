import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { staffSessions, staffUsers } from '@/db/schema/staff';
import { newId } from '@/server/lib/ids';
import type { PartnerRole, StaffRole } from '@/server/lib/staff-roles';

/** A member of Encore's staff, signed in. */
export interface StaffSession {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  /** Never set: a member with a partner is a PartnerUserSession. */
  partnerId?: null;
  /** The member's session version when the session began; a different stored version ends it. */
  sessionVersion?: number;
  /** The staff_sessions row of this sign-in (absent on members not reached through a session). */
  sessionId?: string;
}

/** A partner's own user, signed in: they see their partner (and its test twin) alone. */
export interface PartnerUserSession {
  id: string;
  email: string;
  name: string;
  role: PartnerRole;
  partnerId: string;
  sessionVersion?: number;
  sessionId?: string;
}

/** Whoever signed in to the dashboard. */
export type MemberSession = StaffSession | PartnerUserSession;

export function isPartnerUser(member: MemberSession): member is PartnerUserSession {
  return typeof member.partnerId === 'string';
}

/** A `staff_users` row as the member it is (the check constraint keeps role and partner consistent). */
export function memberOf(
  row: Pick<typeof staffUsers.$inferSelect, 'id' | 'email' | 'name' | 'role' | 'partnerId' | 'sessionVersion'>,
  sessionId?: string,
): MemberSession {
  const base = { id: row.id, email: row.email, name: row.name, sessionVersion: row.sessionVersion, sessionId };
  return row.partnerId
    ? { ...base, role: row.role as PartnerRole, partnerId: row.partnerId }
    : { ...base, role: row.role as StaffRole };
}

/**
 * Opens the session row of a sign-in; its id travels in the token. Rows of sessions long over (a token
 * lasts 12 hours) are dropped here, where sessions are made, so the table stays small without a sweep.
 */
export async function openStaffSession(staffId: string, db: DbOrTx): Promise<string> {
  const id = newId('sss');
  await db.insert(staffSessions).values({ id, staffId });
  await db.delete(staffSessions).where(lt(staffSessions.createdAt, sql`now() - interval '2 days'`));
  return id;
}

/** Ends one session (signing out): the token that names it no longer opens anything. */
export async function endStaffSession(sessionId: string, db: DbOrTx): Promise<void> {
  await db
    .update(staffSessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(staffSessions.id, sessionId), isNull(staffSessions.endedAt)));
}

/** Ends every session of a member ("sign out everywhere", a new password). Returns how many were open. */
export async function endAllStaffSessions(staffId: string, db: DbOrTx): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .update(staffSessions)
      .set({ endedAt: sql`now()` })
      .where(and(eq(staffSessions.staffId, staffId), isNull(staffSessions.endedAt)))
      .returning({ id: staffSessions.id });
    // Tokens from before session rows existed carry only the version: moving it ends those too.
    await tx
      .update(staffUsers)
      .set({ sessionVersion: sql`${staffUsers.sessionVersion} + 1` })
      .where(eq(staffUsers.id, staffId));
    return ended.length;
  });
}

/**
 * The member a session token names, or null when the member was removed, the session was ended
 * (signed out, "sign out everywhere", password changed) or the member's sessions were ended by version.
 * Checked on every dashboard request, so each of these takes effect at once.
 */
export async function activeStaff(
  id: string,
  sessionVersion: number,
  sessionId: string | undefined,
  db: DbOrTx,
): Promise<MemberSession | null> {
  if (!sessionId) return null;
  const [row] = await db
    .select({ user: staffUsers })
    .from(staffUsers)
    .innerJoin(
      staffSessions,
      and(eq(staffSessions.staffId, staffUsers.id), eq(staffSessions.id, sessionId), isNull(staffSessions.endedAt)),
    )
    .where(eq(staffUsers.id, id));
  if (!row || row.user.sessionVersion !== sessionVersion) return null;
  return memberOf(row.user, sessionId);
}
