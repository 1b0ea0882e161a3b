import bcrypt from 'bcryptjs';
import { asc, count, eq, sql } from 'drizzle-orm';
import { type DbOrTx, getDb } from '@/db';
import { staffUsers } from '@/db/schema';
import { consume, peek, type RateLimit } from '@/server/http/rate-limit';
import { AppError, conflict, notFound } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { type CreateStaffInput, createStaffInput, signInInput } from './schemas';

export interface StaffSession {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'staff';
  /** The member's session version when the session began; a different stored version ends it. */
  sessionVersion?: number;
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
 * Checks e-mail and password. Throws SignInLimitedError (without checking the password, so a guess
 * cannot succeed either) once too many attempts failed recently for this e-mail or this IP. Only
 * failures are counted; a correct password inside the limit signs in as usual.
 */
export async function verifyStaffCredentials(
  input: unknown,
  clientIp: string = 'unknown',
  db = getDb(),
): Promise<StaffSession | null> {
  const parsed = signInInput.safeParse(input);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  const checks = await Promise.all([peek(SIGN_IN_LIMITS.email, email, db), peek(SIGN_IN_LIMITS.ip, clientIp, db)]);
  const refused = checks.filter((c) => !c.allowed);
  if (refused.length) throw new SignInLimitedError(Math.max(...refused.map((c) => c.retryAfter)));

  const [row] = await db.select().from(staffUsers).where(eq(staffUsers.email, email));
  const ok = await bcrypt.compare(password, row?.passwordHash ?? DUMMY_HASH);
  if (!row || !ok) {
    await consume(SIGN_IN_LIMITS.email, email, db);
    await consume(SIGN_IN_LIMITS.ip, clientIp, db);
    return null;
  }
  await db
    .update(staffUsers)
    .set({ lastSignInAt: sql`now()` })
    .where(eq(staffUsers.id, row.id));
  return { id: row.id, email: row.email, name: row.name, role: row.role, sessionVersion: row.sessionVersion };
}

/**
 * The member a session token names, or null when the member was removed or their sessions were
 * ended since the token was issued. Checked on every dashboard request, so removal takes effect at once.
 */
export async function activeStaff(
  id: string,
  sessionVersion: number,
  db: DbOrTx = getDb(),
): Promise<StaffSession | null> {
  const [row] = await db.select().from(staffUsers).where(eq(staffUsers.id, id));
  if (!row || row.sessionVersion !== sessionVersion) return null;
  return { id: row.id, email: row.email, name: row.name, role: row.role, sessionVersion: row.sessionVersion };
}

export async function listStaff(db: DbOrTx = getDb()) {
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
export async function removeStaff(actorId: string, staffId: string, db: DbOrTx = getDb()): Promise<void> {
  if (actorId === staffId) throw new AppError('BAD_REQUEST', 'You cannot remove yourself');
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727275)`);
    const [target] = await tx.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.id, staffId));
    if (!target) throw notFound('Staff member not found');
    if ((await countStaff(tx)) <= 1) throw conflict('The last staff member cannot be removed');
    await tx.delete(staffUsers).where(eq(staffUsers.id, staffId));
  });
}
