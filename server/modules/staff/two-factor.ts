import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import QRCode from 'qrcode';
import type { DbOrTx } from '@/db';
import { staffUsers } from '@/db/schema/staff';
import { AppError, conflict, notFound } from '@/server/lib/errors';
import { newTotpSecret, totpMatchingStep, totpUri } from '@/server/lib/totp';
import { twoFactorCodeInput } from './schemas';

/*
 * Two-factor sign-in for everyone who signs in to the dashboard (Encore's staff and partners' users): each
 * member turns it on for themselves (a new secret, then a current code to prove their app holds it) and off
 * (a current code). Signing in then needs a code too (sign-in.ts). A code is good once: the step of the last
 * code accepted is kept, and a code of that step or an earlier one is refused.
 */

/** Whether two-factor sign-in is on for the member, since when, and whether a set-up waits for its code. */
interface TwoFactorStatus {
  enabled: boolean;
  enabledAt: Date | null;
  pending: boolean;
}

async function rowOf(memberId: string, db: DbOrTx) {
  const [row] = await db
    .select({
      email: staffUsers.email,
      totpSecret: staffUsers.totpSecret,
      totpEnabledAt: staffUsers.totpEnabledAt,
      totpLastStep: staffUsers.totpLastStep,
    })
    .from(staffUsers)
    .where(eq(staffUsers.id, memberId));
  if (!row) throw notFound('Member not found');
  return row;
}

export async function twoFactorStatus(memberId: string, db: DbOrTx): Promise<TwoFactorStatus> {
  const row = await rowOf(memberId, db);
  return {
    enabled: row.totpEnabledAt !== null,
    enabledAt: row.totpEnabledAt,
    pending: row.totpEnabledAt === null && row.totpSecret !== null,
  };
}

/**
 * Starts (or starts again) the set-up: a new secret, kept but not yet in force. The answer is the only
 * place the secret is shown: as text, as the otpauth:// URI an app reads, and as that URI's QR code (SVG).
 */
export async function beginTwoFactor(
  memberId: string,
  db: DbOrTx,
): Promise<{ secret: string; uri: string; qrSvg: string }> {
  const row = await rowOf(memberId, db);
  if (row.totpEnabledAt) throw conflict('Two-factor sign-in is already on: turn it off first to set up a new app.');
  const secret = newTotpSecret();
  await db
    .update(staffUsers)
    .set({ totpSecret: secret, totpEnabledAt: null, totpLastStep: null })
    .where(and(eq(staffUsers.id, memberId), isNull(staffUsers.totpEnabledAt)));
  const uri = totpUri(secret, row.email);
  const qrSvg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, uri, qrSvg };
}

const WRONG = 'That code is not right: enter the 6-digit code your authenticator app shows now.';
const REUSED = 'That code was used already: wait for the next code of your authenticator app.';

/**
 * Takes `code` as used, once: the step it matches (±1 step of drift) must be later than the last one
 * accepted, in one conditional update, so two requests with the same code cannot both pass. Null when
 * the code is accepted, else why not.
 */
export async function spendTotpCode(
  memberId: string,
  secret: string,
  code: string,
  db: DbOrTx,
  atMs = Date.now(),
): Promise<'wrong' | 'reused' | null> {
  const step = totpMatchingStep(secret, code, atMs);
  if (step === null) return 'wrong';
  const spent = await db
    .update(staffUsers)
    .set({ totpLastStep: step })
    .where(
      and(
        eq(staffUsers.id, memberId),
        eq(staffUsers.totpSecret, secret),
        or(isNull(staffUsers.totpLastStep), lt(staffUsers.totpLastStep, step)),
      ),
    )
    .returning({ id: staffUsers.id });
  return spent.length ? null : 'reused';
}

/** Spends the input's code, or refuses it with a message at the `code` field. */
async function spendOrRefuse(memberId: string, secret: string, input: unknown, db: DbOrTx, atMs: number) {
  const { code } = twoFactorCodeInput.parse(input);
  const refused = await spendTotpCode(memberId, secret, code, db, atMs);
  if (!refused) return;
  const message = refused === 'reused' ? REUSED : WRONG;
  throw new AppError('BAD_REQUEST', message, { details: [{ path: 'code', message }] });
}

/**
 * Turns two-factor sign-in on (`on`: once the code shows the member's app holds the secret just set up) or
 * off (a current code, not one used before, is the proof that it is the member), in one conditional update.
 */
export async function switchTwoFactor(
  memberId: string,
  on: boolean,
  input: unknown,
  db: DbOrTx,
  atMs = Date.now(),
): Promise<{ enabled: boolean }> {
  const row = await rowOf(memberId, db);
  const already = on ? 'Two-factor sign-in is already on.' : 'Two-factor sign-in is not on.';
  if (Boolean(row.totpEnabledAt) === on) throw conflict(already);
  if (!row.totpSecret) throw conflict('Start the set-up first: there is no secret waiting for a code.');
  await spendOrRefuse(memberId, row.totpSecret, input, db, atMs);
  const [done] = await db
    .update(staffUsers)
    .set(on ? { totpEnabledAt: new Date(atMs) } : { totpSecret: null, totpEnabledAt: null, totpLastStep: null })
    .where(
      and(eq(staffUsers.id, memberId), on ? isNull(staffUsers.totpEnabledAt) : isNotNull(staffUsers.totpEnabledAt)),
    )
    .returning({ id: staffUsers.id });
  if (!done) throw conflict(already);
  return { enabled: on };
}
