import bcrypt from 'bcryptjs';
import { and, asc, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/db';
import { staffInvitations, staffSessions, staffUsers } from '@/db/schema/staff';
import { consume, type RateLimit, release } from '@/server/lib/rate-limit';
import { AppError, conflict, notFound } from '@/server/lib/errors';
import { newId, randomBase62, sha256Hex } from '@/server/lib/ids';
import {
  type AcceptInvitationInput,
  acceptInvitationInput,
  type CreateStaffInput,
  createStaffInput,
  INVITATION_TTL_DAYS,
  type InviteStaffInput,
  inviteStaffInput,
  changePasswordInput,
  signInInput,
} from './schemas';

export interface StaffSession {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'staff';
  /** The member's session version when the session began; a different stored version ends it. */
  sessionVersion?: number;
  /** The staff_sessions row of this sign-in (absent on members not reached through a session). */
  sessionId?: string;
}

const BCRYPT_COST = 11;

export async function countStaff(db: DbOrTx): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(staffUsers);
  return n;
}

export async function createStaff(input: CreateStaffInput, db: DbOrTx): Promise<StaffSession> {
  const data = createStaffInput.parse(input);
  const passwordHash = await bcrypt.hash(data.password, BCRYPT_COST);
  const [row] = await db
    .insert(staffUsers)
    .values({ id: newId('stf'), email: data.email, name: data.name, role: data.role, passwordHash })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict('A staff member with this e-mail already exists');
  return { id: row.id, email: row.email, name: row.name, role: row.role };
}

/**
 * First-run setup: creates the first admin only while no staff exists. The advisory lock makes two
 * simultaneous submissions of the setup page create one admin, not two.
 */
export async function createFirstAdmin(input: CreateStaffInput, db: Db): Promise<StaffSession | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727275)`);
    if ((await countStaff(tx)) > 0) return null;
    return createStaff({ ...input, role: 'admin' }, tx);
  });
}

// A constant hash to compare against when the e-mail is unknown, so timing does not reveal accounts.
const DUMMY_HASH = bcrypt.hashSync('not-a-real-password', BCRYPT_COST);

/**
 * Failed sign-ins are limited per e-mail (guessing one account's password) and per client IP
 * (trying many accounts). The IP limit is higher because an office shares one address.
 */
export const SIGN_IN_LIMITS = {
  email: { name: 'signin-email', limit: 10, windowSeconds: 15 * 60 },
  ip: { name: 'signin-ip', limit: 50, windowSeconds: 15 * 60 },
} as const satisfies Record<string, RateLimit>;

/** What next-auth passes on as the sign-in error when the limit is reached; the form explains it. */
export const SIGN_IN_LIMITED = 'TooManySignInAttempts';

export class SignInLimitedError extends AppError {
  constructor(readonly retryAfter: number) {
    super('RATE_LIMITED', SIGN_IN_LIMITED);
  }
}

/**
 * Checks e-mail and password. Each attempt is counted (per e-mail, and per client address when known)
 * before the password is checked, in the limiter's row-locked statement: however many attempts arrive at
 * once, at most `limit` passwords per e-mail are checked in the window. Over the limit: SignInLimitedError,
 * the password unchecked, so a guess cannot succeed either. A right password gives its attempt back, so
 * only failures (and attempts still being checked) count. An unknown address has no bucket of its own:
 * a shared "unknown" bucket would let anyone lock every member out; the per-e-mail limit still holds.
 */
export async function verifyStaffCredentials(
  input: unknown,
  clientAddress: string | null = null,
  db: Db,
): Promise<StaffSession | null> {
  const parsed = signInInput.safeParse(input);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  const counted: [RateLimit, string][] = [];
  for (const [limit, subject] of [
    [SIGN_IN_LIMITS.email, email],
    [SIGN_IN_LIMITS.ip, clientAddress],
  ] as const) {
    if (!subject) continue;
    const decision = await consume(limit, subject, db);
    if (!decision.allowed) {
      for (const [l, s] of counted) await release(l, s, db);
      throw new SignInLimitedError(decision.retryAfter);
    }
    counted.push([limit, subject]);
  }

  const [row] = await db.select().from(staffUsers).where(eq(staffUsers.email, email));
  const ok = await bcrypt.compare(password, row?.passwordHash ?? DUMMY_HASH);
  if (!row || !ok) return null;
  for (const [l, s] of counted) await release(l, s, db);
  await db
    .update(staffUsers)
    .set({ lastSignInAt: sql`now()` })
    .where(eq(staffUsers.id, row.id));
  return { id: row.id, email: row.email, name: row.name, role: row.role, sessionVersion: row.sessionVersion };
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

/**
 * A member changes their own password: the current one must be right (named as the bad field when not),
 * and every session of theirs ends, this one too, so a stolen session dies with the old password.
 */
export async function changeStaffPassword(staffId: string, input: unknown, db: DbOrTx): Promise<void> {
  const { currentPassword, newPassword } = changePasswordInput.parse(input);
  const [row] = await db.select().from(staffUsers).where(eq(staffUsers.id, staffId));
  if (!row) throw notFound('Staff member not found');
  if (!(await bcrypt.compare(currentPassword, row.passwordHash))) {
    throw new AppError('BAD_REQUEST', 'That is not your current password', {
      details: [{ path: 'currentPassword', message: 'That is not your current password' }],
    });
  }
  const passwordHash = await bcrypt.hash(newPassword, BCRYPT_COST);
  await db.transaction(async (tx) => {
    await tx.update(staffUsers).set({ passwordHash }).where(eq(staffUsers.id, staffId));
    await endAllStaffSessions(staffId, tx);
  });
}

export async function listStaff(db: DbOrTx) {
  return db
    .select({
      id: staffUsers.id,
      email: staffUsers.email,
      name: staffUsers.name,
      role: staffUsers.role,
      createdAt: staffUsers.createdAt,
      lastSignInAt: staffUsers.lastSignInAt,
    })
    .from(staffUsers)
    .orderBy(asc(staffUsers.createdAt), asc(staffUsers.id));
}

/**
 * Removes a staff member; their sessions end with the row. Nobody removes themselves (they would lock
 * themselves out mid-action) and the last member stays, so the dashboard always has someone who can
 * sign in. The advisory lock (the one first-run setup takes) serialises removals so two members cannot
 * remove each other at the same time and leave nobody.
 */
export async function removeStaff(actorId: string, staffId: string, db: DbOrTx): Promise<void> {
  if (actorId === staffId) throw new AppError('BAD_REQUEST', 'You cannot remove yourself');
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727275)`);
    const [target] = await tx.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.id, staffId));
    if (!target) throw notFound('Staff member not found');
    if ((await countStaff(tx)) <= 1) throw conflict('The last staff member cannot be removed');
    await tx.delete(staffUsers).where(eq(staffUsers.id, staffId));
  });
}

/**
 * Invites someone by e-mail. There is no mail yet, so the returned token goes into a link shown once
 * to the inviting member, who passes it on. Only its hash is stored. Inviting the same address again
 * replaces the pending invitation (the old link stops working).
 */
export async function inviteStaff(
  actorId: string,
  input: InviteStaffInput,
  db: DbOrTx,
): Promise<{ invitation: { id: string; email: string; role: 'admin' | 'staff'; expiresAt: Date }; token: string }> {
  const { email, role } = inviteStaffInput.parse(input);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, email));
    if (existing) throw conflict('A staff member with this e-mail already exists');
    await tx
      .delete(staffInvitations)
      .where(and(eq(staffInvitations.email, email), isNull(staffInvitations.acceptedAt)));
    const token = randomBase62(32);
    const [row] = await tx
      .insert(staffInvitations)
      .values({
        id: newId('inv'),
        email,
        role,
        tokenHash: sha256Hex(token),
        invitedBy: actorId,
        expiresAt: sql`now() + make_interval(days => ${INVITATION_TTL_DAYS})`,
      })
      .returning();
    return { invitation: { id: row.id, email: row.email, role: row.role, expiresAt: row.expiresAt }, token };
  });
}

/** Pending (not yet accepted, not expired) invitations, newest first. */
export async function listInvitations(db: DbOrTx) {
  return db
    .select({
      id: staffInvitations.id,
      email: staffInvitations.email,
      role: staffInvitations.role,
      createdAt: staffInvitations.createdAt,
      expiresAt: staffInvitations.expiresAt,
    })
    .from(staffInvitations)
    .where(and(isNull(staffInvitations.acceptedAt), gt(staffInvitations.expiresAt, sql`now()`)))
    .orderBy(desc(staffInvitations.createdAt));
}

export async function revokeInvitation(invitationId: string, db: DbOrTx): Promise<void> {
  const deleted = await db
    .delete(staffInvitations)
    .where(and(eq(staffInvitations.id, invitationId), isNull(staffInvitations.acceptedAt)))
    .returning({ id: staffInvitations.id });
  if (!deleted.length) throw notFound('Invitation not found');
}

/** The pending invitation a link's token belongs to, or null for unknown, used or expired links. */
export async function findInvitation(token: string, db: DbOrTx) {
  if (token.length < 10 || token.length > 200) return null;
  const [row] = await db
    .select({ id: staffInvitations.id, email: staffInvitations.email, expiresAt: staffInvitations.expiresAt })
    .from(staffInvitations)
    .where(
      and(
        eq(staffInvitations.tokenHash, sha256Hex(token)),
        isNull(staffInvitations.acceptedAt),
        gt(staffInvitations.expiresAt, sql`now()`),
      ),
    );
  return row ?? null;
}

/**
 * Accepts an invitation: creates the staff member with the chosen password and uses up the link. The
 * row lock makes a link work once even when submitted twice at the same time.
 */
export async function acceptInvitation(input: AcceptInvitationInput, db: DbOrTx): Promise<StaffSession> {
  const { token, name, password } = acceptInvitationInput.parse(input);
  return db.transaction(async (tx) => {
    const [inv] = await tx
      .select()
      .from(staffInvitations)
      .where(
        and(
          eq(staffInvitations.tokenHash, sha256Hex(token)),
          isNull(staffInvitations.acceptedAt),
          gt(staffInvitations.expiresAt, sql`now()`),
        ),
      )
      .for('update');
    if (!inv) throw notFound('This invitation link is invalid, used or expired. Ask for a new one.');
    await tx
      .update(staffInvitations)
      .set({ acceptedAt: sql`now()` })
      .where(eq(staffInvitations.id, inv.id));
    return createStaff({ email: inv.email, name, password, role: inv.role }, tx);
  });
}
