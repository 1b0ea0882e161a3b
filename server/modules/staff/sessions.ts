import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { staffSessions, staffUsers } from '@/db/schema/staff';
import { newId } from '@/server/lib/ids';
import type { StaffRole } from '@/server/lib/staff-roles';

export interface StaffSession {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  /** The member's session version when the session began; a different stored version ends it. */
  sessionVersion?: number;
  /** The staff_sessions row of this sign-in (absent on members not reached through a session). */
  sessionId?: string;
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
): Promise<StaffSession | null> {
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
  const u = row.user;
  return { id: u.id, email: u.email, name: u.name, role: u.role, sessionVersion: u.sessionVersion, sessionId };
}
