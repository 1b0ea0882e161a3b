import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { staffUsers } from '@/db/schema/staff';
import { totpCode } from '@/server/lib/totp';
import { createCallerFactory } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/router';
import { createPartnerCredentials } from '@/server/modules/partners';
import { createPartnerUser, createStaff } from './members';
import {
  SIGN_IN_LIMITS,
  SignInLimitedError,
  TWO_FACTOR_REFUSED,
  TWO_FACTOR_REQUIRED,
  TwoFactorSignInError,
  verifyStaffCredentials,
} from './sign-in';
import { beginTwoFactor, spendTotpCode, switchTwoFactor, twoFactorStatus } from './two-factor';

const createCaller = createCallerFactory(appRouter);
let seq = 0;
const uniqueEmail = (tag: string) => `${tag}-${process.pid}-${++seq}-${Date.now()}@totp.test`;
const PASSWORD = 'correct horse battery';
const STEP = 30_000;

/** A member with two-factor sign-in on, enrolled at `at`; the secret and the step its enrolling code spent. */
async function enrolled(tag: string, at = Date.now()) {
  const member = await createStaff({ email: uniqueEmail(tag), password: PASSWORD, role: 'viewer' }, getDb());
  const { secret } = await beginTwoFactor(member.id, getDb());
  await switchTwoFactor(member.id, true, { code: totpCode(secret, at) }, getDb(), at);
  return { member, secret };
}

async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'signed in';
  } catch (err) {
    if (err instanceof TwoFactorSignInError) return err.reason;
    if (err instanceof SignInLimitedError) return 'limited';
    throw err;
  }
}

describe('turning two-factor sign-in on and off', () => {
  it('sets up a secret, and is on only once a current code confirms it', async () => {
    const member = await createStaff({ email: uniqueEmail('enrol'), password: PASSWORD }, getDb());
    expect(await twoFactorStatus(member.id, getDb())).toEqual({ enabled: false, enabledAt: null, pending: false });
    const { secret, uri } = await beginTwoFactor(member.id, getDb());
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain(encodeURIComponent(member.email));
    expect(await twoFactorStatus(member.id, getDb())).toMatchObject({ enabled: false, pending: true });
    // While it waits for its code, signing in is as before.
    expect(await verifyStaffCredentials({ email: member.email, password: PASSWORD }, null, getDb())).toMatchObject({
      id: member.id,
    });

    const now = Date.now();
    await expect(
      switchTwoFactor(member.id, true, { code: '000000' === totpCode(secret, now) ? '111111' : '000000' }, getDb()),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', details: [{ path: 'code' }] });
    await expect(switchTwoFactor(member.id, true, { code: 'abc' }, getDb())).rejects.toThrow(/6-digit code/);
    await switchTwoFactor(member.id, true, { code: totpCode(secret, now) }, getDb(), now);
    expect(await twoFactorStatus(member.id, getDb())).toMatchObject({ enabled: true, pending: false });
    // A second set-up would change the secret under a working app: turned off first.
    await expect(beginTwoFactor(member.id, getDb())).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('turns off with a current code, not with a wrong or spent one', async () => {
    const at = Date.now();
    const { member, secret } = await enrolled('disable', at);
    await expect(switchTwoFactor(member.id, false, { code: totpCode(secret, at) }, getDb(), at)).rejects.toThrow(
      /used already/,
    );
    await expect(
      switchTwoFactor(member.id, false, { code: totpCode(secret, at + 5 * STEP) }, getDb(), at + STEP),
    ).rejects.toThrow(/not right/);
    await switchTwoFactor(member.id, false, { code: totpCode(secret, at + STEP) }, getDb(), at + STEP);
    expect(await twoFactorStatus(member.id, getDb())).toEqual({ enabled: false, enabledAt: null, pending: false });
    const [row] = await getDb().select().from(staffUsers).where(eq(staffUsers.id, member.id));
    expect(row).toMatchObject({ totpSecret: null, totpEnabledAt: null, totpLastStep: null });
    // Signing in needs the password alone again.
    expect(await verifyStaffCredentials({ email: member.email, password: PASSWORD }, null, getDb())).toMatchObject({
      id: member.id,
    });
  });
});

describe('a code is good once, within a step of drift', () => {
  it('takes the code of the step before, now and after; refuses one two steps away and one spent', async () => {
    const at = Date.now();
    const { member, secret } = await enrolled('drift', at - 10 * STEP);
    const spend = (codeAt: number) => spendTotpCode(member.id, secret, totpCode(secret, codeAt), getDb(), at);
    expect(await spend(at - 2 * STEP)).toBe('wrong');
    expect(await spend(at + 2 * STEP)).toBe('wrong');
    expect(await spend(at - STEP)).toBeNull();
    expect(await spend(at - STEP)).toBe('reused');
    expect(await spend(at)).toBeNull();
    expect(await spend(at)).toBe('reused');
    expect(await spend(at + STEP)).toBeNull();
    // Once a later step was spent, an earlier step's code is refused though still within the drift.
    expect(await spend(at)).toBe('reused');
  });

  it('lets only one of twenty sign-ins with the same code at once through', async () => {
    const at = Date.now();
    const { member, secret } = await enrolled('race', at - 10 * STEP);
    const code = totpCode(secret, at);
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, () => spendTotpCode(member.id, secret, code, getDb(), at)),
    );
    expect(verdicts.filter((v) => v === null)).toHaveLength(1);
    expect(verdicts.filter((v) => v === 'reused')).toHaveLength(19);
  });
});

describe('signing in with two-factor sign-in on', () => {
  it('asks for the code after the right password, takes a current one once, and refuses a wrong one', async () => {
    const { member, secret } = await enrolled('signin', Date.now() - 10 * STEP);
    const signIn = (fields: Record<string, string>) =>
      refusal(() => verifyStaffCredentials({ email: member.email, ...fields }, null, getDb()));
    // A wrong password is still just a wrong password: nothing tells that a code would be asked.
    expect(await verifyStaffCredentials({ email: member.email, password: 'wrong' }, null, getDb())).toBeNull();
    expect(await signIn({ password: PASSWORD })).toBe(TWO_FACTOR_REQUIRED);
    expect(await signIn({ password: PASSWORD, code: '' })).toBe(TWO_FACTOR_REQUIRED);
    const code = totpCode(secret, Date.now());
    const wrong = code === '123456' ? '654321' : '123456';
    expect(await signIn({ password: PASSWORD, code: wrong })).toBe(TWO_FACTOR_REFUSED);
    expect(await signIn({ password: PASSWORD, code: 'not a code' })).toBe(TWO_FACTOR_REFUSED);
    expect(await signIn({ password: PASSWORD, code: `${code.slice(0, 3)} ${code.slice(3)}` })).toBe('signed in');
    expect(await signIn({ password: PASSWORD, code })).toBe(TWO_FACTOR_REFUSED);
  });

  it('counts a wrong code as a failed attempt: after 10, even the right code is refused', async () => {
    const { member, secret } = await enrolled('limit', Date.now() - 10 * STEP);
    expect(SIGN_IN_LIMITS.email.limit).toBe(10);
    const right = () => totpCode(secret, Date.now());
    const wrong = () => (right() === '000000' ? '999999' : '000000');
    for (let i = 0; i < 10; i++) {
      expect(
        await refusal(() =>
          verifyStaffCredentials({ email: member.email, password: PASSWORD, code: wrong() }, null, getDb()),
        ),
      ).toBe(TWO_FACTOR_REFUSED);
    }
    expect(
      await refusal(() =>
        verifyStaffCredentials({ email: member.email, password: PASSWORD, code: right() }, null, getDb()),
      ),
    ).toBe('limited');
  });

  it('does not count asking for the code: a member signs in many times in a row', async () => {
    const { member, secret } = await enrolled('many', Date.now() - 20 * STEP);
    const signIn = (code?: string) =>
      refusal(() => verifyStaffCredentials({ email: member.email, password: PASSWORD, code }, null, getDb()));
    // Twelve times asked for the code (over the limit of 10 if it counted), two sign-ins with a code.
    for (const ahead of [0, STEP]) {
      for (let j = 0; j < 6; j++) expect(await signIn()).toBe(TWO_FACTOR_REQUIRED);
      expect(await signIn(totpCode(secret, Date.now() + ahead))).toBe('signed in');
    }
  });
});

describe('the Security page calls (twoFactor.*)', () => {
  it('are each member’s own, staff and partner users alike, recorded without the secret or a code', async () => {
    const staffMember = await createStaff({ email: uniqueEmail('page'), password: PASSWORD, role: 'finance' }, getDb());
    const { partnerId } = await createPartnerCredentials(`TOTP partner ${Date.now()}`, getDb());
    const partnerUser = await createPartnerUser(
      { email: uniqueEmail('partner'), password: PASSWORD, role: 'viewer', partnerId },
      getDb(),
    );
    const asStaff = createCaller({ staff: { ...staffMember, role: 'finance' } });
    const asPartnerUser = createCaller({
      staff: null,
      partnerUser: { ...partnerUser, role: 'viewer', partnerId },
    });
    for (const [caller, member, partner] of [
      [asStaff, staffMember, null],
      [asPartnerUser, partnerUser, partnerId],
    ] as const) {
      const { secret } = await caller.twoFactor.begin();
      await expect(caller.twoFactor.enable({ code: '12345' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      const enabledAt = Date.now();
      await caller.twoFactor.enable({ code: totpCode(secret, enabledAt) });
      expect(await caller.twoFactor.status()).toMatchObject({ enabled: true });
      expect(JSON.stringify(await caller.twoFactor.status())).not.toContain(secret);
      await caller.twoFactor.disable({ code: totpCode(secret, enabledAt + STEP) });
      const admin = createCaller({ staff: { id: 'stf_totp_admin', email: 'a@totp.test', name: '', role: 'admin' } });
      const log = await admin.audit.list({ action: 'two_factor.', actor: member.email, limit: 10 });
      expect(log.items.map((e) => [e.action, e.partnerId, e.targetId])).toEqual([
        ['two_factor.disabled', partner, member.id],
        ['two_factor.enabled', partner, member.id],
      ]);
      expect(JSON.stringify(log)).not.toContain(secret);
    }
  });

  it('counts wrong codes on the page too: a stolen session cannot guess its way to turning it off', async () => {
    const { member, secret } = await enrolled('page-limit', Date.now() - 10 * STEP);
    const caller = createCaller({ staff: { ...member, role: 'viewer' } });
    const wrong = () => (totpCode(secret, Date.now()) === '000000' ? '999999' : '000000');
    for (let i = 0; i < 10; i++) {
      await expect(caller.twoFactor.disable({ code: wrong() })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
    await expect(caller.twoFactor.disable({ code: totpCode(secret, Date.now()) })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    });
    expect(await twoFactorStatus(member.id, getDb())).toMatchObject({ enabled: true });
  });
});
