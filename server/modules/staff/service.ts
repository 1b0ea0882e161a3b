import bcrypt from 'bcryptjs';
import { count, eq, sql } from 'drizzle-orm';
import { type DbOrTx, getDb } from '@/db';
import { staffUsers } from '@/db/schema';
import { conflict } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { type CreateStaffInput, createStaffInput, signInInput } from './schemas';

export interface StaffSession {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'staff';
}

const BCRYPT_COST = 11;

export async function countStaff(db: DbOrTx = getDb()): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(staffUsers);
  return n;
}

export async function createStaff(input: CreateStaffInput, db: DbOrTx = getDb()): Promise<StaffSession> {
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
export async function createFirstAdmin(input: CreateStaffInput, db = getDb()): Promise<StaffSession | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727275)`);
    if ((await countStaff(tx)) > 0) return null;
    return createStaff({ ...input, role: 'admin' }, tx);
  });
}

// A constant hash to compare against when the e-mail is unknown, so timing does not reveal accounts.
const DUMMY_HASH = bcrypt.hashSync('not-a-real-password', BCRYPT_COST);

export async function verifyStaffCredentials(input: unknown, db: DbOrTx = getDb()): Promise<StaffSession | null> {
  const parsed = signInInput.safeParse(input);
  if (!parsed.success) return null;
  const [row] = await db.select().from(staffUsers).where(eq(staffUsers.email, parsed.data.email));
  const ok = await bcrypt.compare(parsed.data.password, row?.passwordHash ?? DUMMY_HASH);
  if (!row || !ok) return null;
  await db
    .update(staffUsers)
    .set({ lastSignInAt: sql`now()` })
    .where(eq(staffUsers.id, row.id));
  return { id: row.id, email: row.email, name: row.name, role: row.role };
}
