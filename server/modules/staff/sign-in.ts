import bcrypt from 'bcryptjs';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { staffUsers } from '@/db/schema/staff';
import { consume, type RateLimit, release } from '@/server/lib/rate-limit';
import { AppError } from '@/server/lib/errors';
import { signInInput } from './schemas';
import { spendTotpCode } from './two-factor';
import { type MemberSession, memberOf } from './sessions';

/**
 * A hash to compare against when the e-mail is unknown, so timing does not reveal accounts: of a random password
 * nobody kept, at BCRYPT_COST (staff.test.ts checks), written out rather than made at start-up, where hashing it
 * cost every process 0.6 s of CPU before its first request.
 */
export const DUMMY_HASH = '$2b$11$xdGfSR.S9SJVxoIc9JXTMefrbQO/qnbPG1mUX0SfX3OBtxnufW2Au';

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
 * What next-auth passes on when the password is right and the member has two-factor sign-in on: the code is
 * missing (the form then asks for it), or it is wrong or was used already (counted as a failed attempt).
 */
export const TWO_FACTOR_REQUIRED = 'TwoFactorCodeRequired';
export const TWO_FACTOR_REFUSED = 'TwoFactorCodeRefused';

export class TwoFactorSignInError extends AppError {
  constructor(readonly reason: typeof TWO_FACTOR_REQUIRED | typeof TWO_FACTOR_REFUSED) {
    super('UNAUTHORIZED', reason);
  }
}

/**
 * Checks e-mail and password, and the authenticator's code (`code`) of a member with two-factor sign-in on. Each attempt is counted (per e-mail, and per client address when known)
 * before the password is checked, in the limiter's row-locked statement: however many attempts arrive at
 * once, at most `limit` passwords per e-mail are checked in the window. Over the limit: SignInLimitedError,
 * the password unchecked, so a guess cannot succeed either. A right password gives its attempt back, so
 * only failures (and attempts still being checked) count; with two-factor sign-in on, the attempt is given
 * back only with a right code (or none yet: TwoFactorSignInError asks for it), so a wrong or reused code
 * counts as a failure like a wrong password. An unknown address has no bucket of its own:
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
  if (row.totpEnabledAt && row.totpSecret) {
    const code = codeOf(input);
    if (code === '') {
      for (const [l, s] of counted) await release(l, s, db);
      throw new TwoFactorSignInError(TWO_FACTOR_REQUIRED);
    }
    if (await spendTotpCode(row.id, row.totpSecret, code, db)) throw new TwoFactorSignInError(TWO_FACTOR_REFUSED);
  }
  for (const [l, s] of counted) await release(l, s, db);
  await db
    .update(staffUsers)
    .set({ lastSignInAt: sql`now()` })
    .where(eq(staffUsers.id, row.id));
  return memberOf(row);
}

/** The sign-in's code field, spaces dropped; '' when absent (a malformed one is simply a wrong code). */
function codeOf(input: unknown): string {
  const code = (input as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code.replace(/\s+/g, '').slice(0, 20) : '';
}

/**
 * A code typed to turn two-factor sign-in on or off counts like a sign-in attempt of the member's e-mail: a
 * wrong one is a failure (a stolen session cannot guess its way to turning the second factor off), and over
 * the limit no code is checked. `run` checks the code; its success gives the attempt back.
 */
export async function countedCodeAttempt<T>(email: string, db: Db, run: () => Promise<T>): Promise<T> {
  const decision = await consume(SIGN_IN_LIMITS.email, email, db);
  if (!decision.allowed) {
    const minutes = Math.ceil(decision.retryAfter / 60);
    throw new AppError('RATE_LIMITED', `Too many failed attempts: try again in ${minutes} min.`);
  }
  const result = await run();
  await release(SIGN_IN_LIMITS.email, email, db);
  return result;
}
