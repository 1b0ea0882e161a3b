import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { staffInvitations, staffUsers } from '@/db/schema/staff';
import { AppError, conflict, notFound } from '@/server/lib/errors';
import { mayGiveRole, type PartnerRole, type StaffRole } from '@/server/lib/staff-roles';
import { newId, randomBase62, sha256Hex } from '@/server/lib/ids';
import {
  type AcceptInvitationInput,
  acceptInvitationInput,
  INVITATION_TTL_DAYS,
  type InviteStaffInput,
  inviteStaffInput,
} from './schemas';
import { createPartnerUser, createStaff } from './members';
import type { MemberSession } from './sessions';

/**
 * Invites someone by e-mail. There is no mail yet, so the returned token goes into a link shown once
 * to the inviting member, who passes it on. Only its hash is stored. Inviting the same address again
 * replaces the pending invitation (the old link stops working). Only an admin invites, and never with a
 * role above their own (`mayGiveRole`).
 */
export async function inviteStaff(
  actor: { id: string; role: StaffRole },
  input: InviteStaffInput,
  db: DbOrTx,
): Promise<{ invitation: { id: string; email: string; role: StaffRole; expiresAt: Date }; token: string }> {
  const { email, role } = inviteStaffInput.parse(input);
  if (!mayGiveRole(actor.role, role)) throw new AppError('FORBIDDEN', `Your role may not invite a member as ${role}`);
  const stored = await storeInvitation({ email, role, partnerId: null, invitedBy: actor.id }, db);
  return { invitation: { ...stored.invitation, role }, token: stored.token };
}

/**
 * Stores an invitation (Encore's staff, or with `partnerId` a partner's user) and answers its one-time token.
 * Nobody with an account is invited again; inviting the same address again replaces the pending invitation.
 */
export async function storeInvitation(
  data: { email: string; role: StaffRole | PartnerRole; partnerId: string | null; invitedBy: string },
  db: DbOrTx,
) {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, data.email));
    if (existing) throw conflict('An account with this e-mail already exists');
    await tx
      .delete(staffInvitations)
      .where(and(eq(staffInvitations.email, data.email), isNull(staffInvitations.acceptedAt)));
    const token = randomBase62(32);
    const [row] = await tx
      .insert(staffInvitations)
      .values({
        id: newId('inv'),
        ...data,
        tokenHash: sha256Hex(token),
        expiresAt: sql`now() + make_interval(days => ${INVITATION_TTL_DAYS})`,
      })
      .returning();
    return { invitation: { id: row.id, email: row.email, expiresAt: row.expiresAt }, token };
  });
}

/**
 * Pending (not yet accepted, not expired) invitations, newest first: Encore's staff's, or with `partnerId`
 * that partner's.
 */
export async function pendingInvitations(db: DbOrTx, partnerId: string | null) {
  return db
    .select({
      id: staffInvitations.id,
      email: staffInvitations.email,
      role: staffInvitations.role,
      createdAt: staffInvitations.createdAt,
      expiresAt: staffInvitations.expiresAt,
    })
    .from(staffInvitations)
    .where(
      and(
        partnerId === null ? isNull(staffInvitations.partnerId) : eq(staffInvitations.partnerId, partnerId),
        isNull(staffInvitations.acceptedAt),
        gt(staffInvitations.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(staffInvitations.createdAt));
}

/** Pending invitations to Encore's staff, newest first. */
export async function listInvitations(db: DbOrTx) {
  const rows = await pendingInvitations(db, null);
  // Invitations to Encore's staff alone: the check constraint keeps them to the staff roles.
  return rows.map((r) => ({ ...r, role: r.role as StaffRole }));
}

/** Revokes a pending invitation of Encore's staff, or with `partnerId` one of that partner's. */
export async function revokeInvitation(
  invitationId: string,
  db: DbOrTx,
  partnerId: string | null = null,
): Promise<void> {
  const deleted = await db
    .delete(staffInvitations)
    .where(
      and(
        eq(staffInvitations.id, invitationId),
        isNull(staffInvitations.acceptedAt),
        partnerId === null ? isNull(staffInvitations.partnerId) : eq(staffInvitations.partnerId, partnerId),
      ),
    )
    .returning({ id: staffInvitations.id });
  if (!deleted.length) throw notFound('Invitation not found');
}

/** The invitation whose link carries `token`, while it is neither accepted nor expired. */
const pendingWithToken = (token: string) =>
  and(
    eq(staffInvitations.tokenHash, sha256Hex(token)),
    isNull(staffInvitations.acceptedAt),
    gt(staffInvitations.expiresAt, sql`now()`),
  );

/** The pending invitation a link's token belongs to, or null for unknown, used or expired links. */
export async function findInvitation(token: string, db: DbOrTx) {
  if (token.length < 10 || token.length > 200) return null;
  const [row] = await db
    .select({
      id: staffInvitations.id,
      email: staffInvitations.email,
      expiresAt: staffInvitations.expiresAt,
      partnerId: staffInvitations.partnerId,
    })
    .from(staffInvitations)
    .where(pendingWithToken(token));
  return row ?? null;
}

/**
 * Accepts an invitation: creates the staff member with the chosen password and uses up the link. The
 * row lock makes a link work once even when submitted twice at the same time.
 */
export async function acceptInvitation(input: AcceptInvitationInput, db: DbOrTx): Promise<MemberSession> {
  const { token, name, password } = acceptInvitationInput.parse(input);
  return db.transaction(async (tx) => {
    const [inv] = await tx.select().from(staffInvitations).where(pendingWithToken(token)).for('update');
    if (!inv) throw notFound('This invitation link is invalid, used or expired. Ask for a new one.');
    await tx
      .update(staffInvitations)
      .set({ acceptedAt: sql`now()` })
      .where(eq(staffInvitations.id, inv.id));
    if (inv.partnerId) {
      const role = inv.role as PartnerRole;
      return createPartnerUser({ email: inv.email, name, password, role, partnerId: inv.partnerId }, tx);
    }
    return createStaff({ email: inv.email, name, password, role: inv.role as StaffRole }, tx);
  });
}
