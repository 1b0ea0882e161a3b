import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setEnvInFile } from '@/server/testing/env';
import { makePartner } from '@/server/testing/fixtures';
import { recordJobs } from '@/server/testing/jobs';
import { createCallerFactory } from '../init';
import { appRouter } from '../router';

// The dispatcher itself is tested in the webhooks module; here: the procedures ask for it after their commit.
let jobs: ReturnType<typeof recordJobs>;
/** Dispatches asked for: the asks are merged over 25 ms, so wait past that first. */
async function dispatchesAsked(): Promise<number> {
  await new Promise((r) => setTimeout(r, 40));
  return jobs.sent.filter((j) => j.name === 'webhooks.dispatch').length;
}

const createCaller = createCallerFactory(appRouter);
const staff = createCaller({ staff: { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' } });
const anonymous = createCaller({ staff: null });

setEnvInFile({ ALLOW_PRIVATE_PARTNER_URLS: '1' });
beforeEach(() => {
  jobs = recordJobs();
});
afterEach(() => jobs.restore());

describe('webhooks router', () => {
  it('refuses callers who are not signed in', async () => {
    const { partner } = await makePartner('Router auth');
    await expect(anonymous.webhooks.endpoint.get({ partnerId: partner.id })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await expect(anonymous.webhooks.messages.sendTest({ partnerId: partner.id })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await expect(anonymous.jobs.overview()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('returns the signing secret once, on creation and on rotation, and asks for a dispatch after each change that makes messages due', async () => {
    const { partner } = await makePartner('Router endpoint');
    const partnerId = partner.id;
    expect(await staff.webhooks.endpoint.get({ partnerId })).toBeNull();

    const created = await staff.webhooks.endpoint.upsert({ partnerId, url: 'http://127.0.0.1:9/hooks' });
    expect(created.signingSecret).toMatch(/^whsec_/);
    expect(await dispatchesAsked()).toBe(1);
    const updated = await staff.webhooks.endpoint.upsert({
      partnerId,
      url: 'http://127.0.0.1:9/other',
      enabled: false,
    });
    expect(updated.signingSecret).toBeNull();
    expect(updated.endpoint).toMatchObject({ url: 'http://127.0.0.1:9/other', enabled: false });
    expect(await dispatchesAsked()).toBe(1); // a disabled endpoint holds its messages: nothing to deliver
    expect(JSON.stringify(await staff.webhooks.endpoint.get({ partnerId }))).not.toContain(created.signingSecret!);

    const { signingSecret } = await staff.webhooks.endpoint.rotateSecret({ partnerId });
    expect(signingSecret).toMatch(/^whsec_/);
    expect(signingSecret).not.toBe(created.signingSecret);

    const { messageId } = await staff.webhooks.messages.sendTest({ partnerId });
    expect(await dispatchesAsked()).toBe(2);
    const list = await staff.webhooks.messages.list({ partnerId, status: 'pending', action: 'test.ping' });
    expect(list.items.map((m) => m.id)).toEqual([messageId]);
    const { message, attempts } = await staff.webhooks.messages.get({ partnerId, messageId });
    expect(message).toMatchObject({ family: 'test', action: 'test.ping', status: 'pending' });
    expect(attempts).toEqual([]);
    await staff.webhooks.messages.retryNow({ partnerId, messageId });
    expect(await dispatchesAsked()).toBe(3);
  });

  it('maps module errors: a refused URL names the field, an unknown message is NOT_FOUND', async () => {
    const { partner } = await makePartner('Router errors');
    await expect(
      staff.webhooks.endpoint.upsert({ partnerId: partner.id, url: 'ftp://partner.example/hooks' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'Partner URLs must use https' });
    await expect(staff.webhooks.endpoint.rotateSecret({ partnerId: partner.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(staff.webhooks.messages.get({ partnerId: partner.id, messageId: 'msg_nope' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      staff.webhooks.messages.retryNow({ partnerId: partner.id, messageId: 'msg_nope' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await dispatchesAsked()).toBe(0);
  });
});
