import { and, count, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { staffUsers } from '@/db/schema/staff';
import { conflict, notFound } from '@/server/lib/errors';
import type { PartnerRole } from '@/server/lib/staff-roles';
import { pendingInvitations, storeInvitation } from './invitations';
import { memberRows } from './members';
import {
  type ChangePartnerUserRoleInput,
  changePartnerUserRoleInput,
  type InvitePartnerUserInput,
  invitePartnerUserInput,
} from './schemas';

/*
 * A partner's own users: rows of staff_users with the partner's id, invited by Encore's admin or the
 * partner's owner, signing in on the same page with the same limits and sessions. The partner is its live
 * row (the router resolves a test twin to it). Every change takes a per-partner advisory lock, so the last
 * owner stays one even when owners remove or demote each other at the same time.
 */

const lockPartnerUsers = (partnerId: string, tx: DbOrTx) =>
  tx.execute(sql`select pg_advisory_xact_lock(727276, hashtext(${partnerId}))`);

async function ownersLeft(partnerId: string, tx: DbOrTx): Promise<number> {
  const [{ n }] = await tx
    .select({ n: count() })
    .from(staffUsers)
    .where(and(eq(staffUsers.partnerId, partnerId), eq(staffUsers.role, 'owner')));
  return n;
}

/** Invites someone to be the partner's user; the token is in this answer only (stored hashed). */
export async function invitePartnerUser(invitedBy: string, input: InvitePartnerUserInput, db: DbOrTx) {
  const { partnerId, email, role } = invitePartnerUserInput.parse(input);
  const stored = await storeInvitation({ email, role, partnerId, invitedBy }, db);
  return { invitation: { ...stored.invitation, role, partnerId }, token: stored.token };
}

/** The partner's users and pending invitations. */
export async function listPartnerUsers(partnerId: string, db: DbOrTx) {
  const [users, invitations] = await Promise.all([memberRows(db, partnerId), pendingInvitations(db, partnerId)]);
  return { users: users.map((u) => ({ ...u, role: u.role as PartnerRole })), invitations };
}

async function partnerUser(partnerId: string, userId: string, tx: DbOrTx) {
  const [row] = await tx
    .select({ id: staffUsers.id, email: staffUsers.email, role: staffUsers.role })
    .from(staffUsers)
    .where(and(eq(staffUsers.id, userId), eq(staffUsers.partnerId, partnerId)));
  if (!row) throw notFound('User not found');
  return { ...row, role: row.role as PartnerRole };
}

/** Removes one of the partner's users (their sessions end with the row); the last owner stays. */
export async function removePartnerUser(partnerId: string, userId: string, db: DbOrTx) {
  return db.transaction(async (tx) => {
    await lockPartnerUsers(partnerId, tx);
    const target = await partnerUser(partnerId, userId, tx);
    if (target.role === 'owner' && (await ownersLeft(partnerId, tx)) <= 1) {
      throw conflict('The last owner cannot be removed');
    }
    await tx.delete(staffUsers).where(eq(staffUsers.id, userId));
    return target;
  });
}

/** Gives one of the partner's users another role; the last owner cannot be given another. */
export async function changePartnerUserRole(input: ChangePartnerUserRoleInput, db: DbOrTx) {
  const { partnerId, userId, role } = changePartnerUserRoleInput.parse(input);
  return db.transaction(async (tx) => {
    await lockPartnerUsers(partnerId, tx);
    const target = await partnerUser(partnerId, userId, tx);
    if (target.role === 'owner' && role !== 'owner' && (await ownersLeft(partnerId, tx)) <= 1) {
      throw conflict('The last owner cannot be given another role');
    }
    await tx.update(staffUsers).set({ role }).where(eq(staffUsers.id, userId));
    return { id: target.id, email: target.email, before: target.role, after: role };
  });
}
