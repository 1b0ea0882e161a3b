import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { createChannel } from '@/server/modules/partners';
import { makePartner } from '@/server/testing/fixtures';
import { createCallerFactory } from '../init';
import { appRouter } from '../router';

const createCaller = createCallerFactory(appRouter);
const staff = createCaller({ staff: { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' } });
const anonymous = createCaller({ staff: null });

/** A partner with one channel. */
async function setUp(name = 'Channels router') {
  const { partner } = await makePartner(name);
  const channel = await createChannel({ partnerId: partner.id, name: 'Resale Hub' }, getDb());
  return { partnerId: partner.id, channelId: channel.id };
}

describe('channels router: sales and payout setup', () => {
  it('refuses callers who are not signed in', async () => {
    const ref = await setUp();
    await expect(anonymous.channels.sales(ref)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(anonymous.channels.payoutSetup(ref)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(anonymous.channels.startPayoutSetup(ref)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('answers a fresh channel’s sales as an empty page, by state too', async () => {
    const ref = await setUp();
    expect(await staff.channels.sales(ref)).toMatchObject({ items: [], total: 0, page: 1, pageSize: 25 });
    expect(await staff.channels.sales({ ...ref, status: 'FULFILLED', page: 2, pageSize: 10 })).toMatchObject({
      items: [],
      total: 0,
      page: 2,
      pageSize: 10,
    });
  });

  it('sets up the channel’s payouts: none, then an onboarding link, then no longer none', async () => {
    const ref = await setUp();
    expect(await staff.channels.payoutSetup(ref)).toEqual({ status: 'none', onboardingUrl: null });
    const started = await staff.channels.startPayoutSetup(ref);
    expect(started.onboardingUrl).toEqual(expect.any(String));
    expect((await staff.channels.payoutSetup(ref)).status).not.toBe('none');
  });

  it('answers NOT_FOUND for another partner’s channel', async () => {
    const a = await setUp('Channels router A');
    const b = await setUp('Channels router B');
    const crossed = { partnerId: a.partnerId, channelId: b.channelId };
    await expect(staff.channels.sales(crossed)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(staff.channels.payoutSetup(crossed)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(staff.channels.startPayoutSetup(crossed)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await staff.channels.payoutSetup(b)).status).toBe('none');
  });
});
