import bcrypt from 'bcryptjs';
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/db';
import { staffUsers } from '@/db/schema/staff';
import { AppError, conflict, notFound } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import type { PartnerRole, StaffRole } from '@/server/lib/staff-roles';
import {
  type ChangeStaffRoleInput,
  changeStaffRoleInput,
  type CreatePartnerUserInput,
  createPartnerUserInput,
  type CreateStaffInput,
  createStaffInput,
  changePasswordInput,
} from './schemas';
import { endAllStaffSessions, type PartnerUserSession, type StaffSession } from './sessions';

export const BCRYPT_COST = 11;

/** The lock every change of who is staff, or of a role, takes: first-run setup's, so none of them interleave. */
const STAFF_LOCK = sql`select pg_advisory_xact_lock(727275)`;

/** How many members Encore's staff has (partners' users are not staff). */
export async function countStaff(db: DbOrTx): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(staffUsers).where(isNull(staffUsers.partnerId));
  return n;
}

/** Inserts a member row (staff or a partner's user); one account per e-mail across both. */
async function insertMember(
  data: { email: string; name: string; password: string; role: StaffRole | PartnerRole; partnerId: string | null },
  db: DbOrTx,
) {
  const passwordHash = await bcrypt.hash(data.password, BCRYPT_COST);
  const [row] = await db
    .insert(staffUsers)
    .values({ id: newId('stf'), ...data, passwordHash })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict('An account with this e-mail already exists');
  return row;
}

export async function createStaff(input: CreateStaffInput, db: DbOrTx): Promise<StaffSession> {
  const data = createStaffInput.parse(input);
  const row = await insertMember({ ...data, partnerId: null }, db);
  return { id: row.id, email: row.email, name: row.name, role: data.role };
}

/** A partner's user (an accepted invitation, or a test's set-up). */
export async function createPartnerUser(input: CreatePartnerUserInput, db: DbOrTx): Promise<PartnerUserSession> {
  const data = createPartnerUserInput.parse(input);
  const row = await insertMember(data, db);
  return { id: row.id, email: row.email, name: row.name, role: data.role, partnerId: data.partnerId };
}

/**
 * First-run setup: creates the first admin only while no staff exists. The advisory lock makes two
 * simultaneous submissions of the setup page create one admin, not two.
 */
export async function createFirstAdmin(input: CreateStaffInput, db: Db): Promise<StaffSession | null> {
  return db.transaction(async (tx) => {
    await tx.execute(STAFF_LOCK);
    if ((await countStaff(tx)) > 0) return null;
    return createStaff({ ...input, role: 'admin' }, tx);
  });
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

/** The members of Encore's staff, or with `partnerId` that partner's users, oldest first. */
export async function memberRows(db: DbOrTx, partnerId: string | null) {
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
    .where(partnerId === null ? isNull(staffUsers.partnerId) : eq(staffUsers.partnerId, partnerId))
    .orderBy(asc(staffUsers.createdAt), asc(staffUsers.id));
}

/** Encore's staff (not partners' users), oldest first. */
export async function listStaff(db: DbOrTx) {
  const rows = await memberRows(db, null);
  // The check constraint keeps a row without a partner to the staff roles.
  return rows.map((r) => ({ ...r, role: r.role as StaffRole }));
}

async function adminsLeft(tx: DbOrTx): Promise<number> {
  const [{ n }] = await tx.select({ n: count() }).from(staffUsers).where(eq(staffUsers.role, 'admin'));
  return n;
}

/**
 * Removes a staff member; their sessions end with the row. Nobody removes themselves (they would lock
 * themselves out mid-action), and the last member and the last admin stay, so the dashboard always has
 * someone who can sign in and someone who can manage staff. The advisory lock (the one first-run setup
 * takes) serialises removals and role changes, so two admins cannot remove or demote each other at the
 * same time and leave no admin.
 */
export async function removeStaff(actorId: string, staffId: string, db: DbOrTx): Promise<void> {
  if (actorId === staffId) throw new AppError('BAD_REQUEST', 'You cannot remove yourself');
  await db.transaction(async (tx) => {
    await tx.execute(STAFF_LOCK);
    const [target] = await tx
      .select({ id: staffUsers.id, role: staffUsers.role })
      .from(staffUsers)
      .where(and(eq(staffUsers.id, staffId), isNull(staffUsers.partnerId)));
    if (!target) throw notFound('Staff member not found');
    if ((await countStaff(tx)) <= 1) throw conflict('The last staff member cannot be removed');
    if (target.role === 'admin' && (await adminsLeft(tx)) <= 1) throw conflict('The last admin cannot be removed');
    await tx.delete(staffUsers).where(eq(staffUsers.id, staffId));
  });
}

/**
 * Gives a member another role (an admin's act: the router checks the actor may give it). The last admin
 * cannot be demoted, under the same lock as removals. The member's sessions carry no role (each request
 * reads it), so the change holds from their next request. Returns the role before and after.
 */
export async function changeStaffRole(
  input: ChangeStaffRoleInput,
  db: DbOrTx,
): Promise<{ id: string; email: string; before: StaffRole; after: StaffRole }> {
  const { staffId, role } = changeStaffRoleInput.parse(input);
  return db.transaction(async (tx) => {
    await tx.execute(STAFF_LOCK);
    const [target] = await tx
      .select({ id: staffUsers.id, email: staffUsers.email, role: staffUsers.role })
      .from(staffUsers)
      .where(and(eq(staffUsers.id, staffId), isNull(staffUsers.partnerId)));
    if (!target) throw notFound('Staff member not found');
    if (target.role === 'admin' && role !== 'admin' && (await adminsLeft(tx)) <= 1) {
      throw conflict('The last admin cannot be given another role');
    }
    await tx.update(staffUsers).set({ role }).where(eq(staffUsers.id, staffId));
    return { id: target.id, email: target.email, before: target.role as StaffRole, after: role };
  });
}
