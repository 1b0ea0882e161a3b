import bcrypt from 'bcryptjs';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { staffUsers } from '@/db/schema/staff';
import { consume, type RateLimit, release } from '@/server/lib/rate-limit';
import { AppError } from '@/server/lib/errors';
import { signInInput } from './schemas';
import { BCRYPT_COST } from './members';
import { type MemberSession, memberOf } from './sessions';

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
): Promise<MemberSession | null> {
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
  return memberOf(row);
}
