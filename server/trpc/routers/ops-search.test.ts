import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { fanSessionFrom, startFanSession } from '@/server/modules/fans';
import { makePartner } from '@/server/testing/fixtures';
import { recordJobsInFile } from '@/server/testing/jobs';
import { createCallerFactory } from '../init';
import { appRouter } from '../router';

const createCaller = createCallerFactory(appRouter);
const staff = createCaller({ staff: { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' } });
const anonymous = createCaller({ staff: null });

recordJobsInFile();

describe('opsSearch router', () => {
  it('refuses callers who are not signed in, for the search and every action', async () => {
    const { partner } = await makePartner('Search auth');
    for (const call of [
      anonymous.opsSearch.search({ q: 'fan@example.com' }),
      anonymous.opsSearch.endSessions({ partnerId: partner.id, email: 'fan@example.com' }),
      anonymous.mail.resend({ id: 'mail_x' }),
    ]) {
      await expect(call).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('bad input is a BAD_REQUEST naming the field; an unknown partner or mail a NOT_FOUND', async () => {
    await expect(staff.opsSearch.search({ q: '   ' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(staff.opsSearch.search({ q: 'x'.repeat(255) })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      staff.opsSearch.endSessions({ partnerId: 'ptr_nope', email: 'fan@example.com' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const { partner } = await makePartner('Search input');
    await expect(staff.opsSearch.endSessions({ partnerId: partner.id, email: 'not-an-email' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(staff.mail.resend({ id: 'mail_nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('endSessions signs the fan out at that partner only; the search shows their sessions ended', async () => {
    const a = await makePartner('Search end A');
    const b = await makePartner('Search end B');
    const email = `ended.${Date.now()}@fans.test`;
    const atA = await startFanSession(a.partner.id, email, getDb());
    const atB = await startFanSession(b.partner.id, email, getDb());
    expect(await staff.opsSearch.endSessions({ partnerId: a.partner.id, email: email.toUpperCase() })).toEqual({
      ended: 1,
    });
    expect(await fanSessionFrom(atA, a.partner.id, getDb())).toBeNull();
    expect(await fanSessionFrom(atB, b.partner.id, getDb())).not.toBeNull();
    const found = await staff.opsSearch.search({ q: email });
    if (found.kind !== 'email') throw new Error('an e-mail search');
    const state = Object.fromEntries(found.fan.sessions.items.map((s) => [s.partnerId, s.open]));
    expect(state).toEqual({ [a.partner.id]: false, [b.partner.id]: true });
  });
});
