import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '@/server/env';
import { runTestHook } from './test-hooks';

const SECRET = 'a-test-hooks-secret-of-at-least-32-chars';

function hook(action: string, body: unknown, secret?: string) {
  return runTestHook(
    action,
    new Request(`http://encore.test/api/test-hooks/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(secret ? { 'x-test-hooks-secret': secret } : {}) },
      body: JSON.stringify(body),
    }),
  );
}

afterEach(() => {
  delete process.env.TEST_HOOKS_SECRET;
  resetEnvCache();
});

describe('the test-only set-up calls', () => {
  it('do not exist where TEST_HOOKS_SECRET is unset, whatever the caller sends', async () => {
    const res = await hook('partner', { name: 'Nobody' }, SECRET);
    expect(res.status).toBe(404);
  });

  it('answer 404 to a caller without the secret or with another one', async () => {
    process.env.TEST_HOOKS_SECRET = SECRET;
    resetEnvCache();
    expect((await hook('partner', { name: 'Nobody' })).status).toBe(404);
    expect((await hook('partner', { name: 'Nobody' }, `${SECRET}x`)).status).toBe(404);
    expect((await hook('partner', { name: 'Nobody' }, SECRET.replace('a', 'b'))).status).toBe(404);
  });

  it('run for the secret: a partner with keys, then a payment of it; bad input is a 400, an unknown action a 404', async () => {
    process.env.TEST_HOOKS_SECRET = SECRET;
    resetEnvCache();
    const created = await hook('partner', { name: 'Hooked partner' }, SECRET);
    expect(created.status).toBe(200);
    const partner = (await created.json()) as { partnerId: string; apiKey: string; channelsApiKey: string };
    expect(partner.partnerId).toMatch(/^ptr_/);
    expect(partner.apiKey).toMatch(/^sk_live_/);
    expect(partner.channelsApiKey).toMatch(/^sk_ch_/);

    const paid = await hook('payment', { partnerId: partner.partnerId, amount: '12.50', currency: 'EUR' }, SECRET);
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as { url: string }).url).toContain('/pay/');

    const bad = await hook('payment', { partnerId: partner.partnerId, amount: 'lots' }, SECRET);
    expect(bad.status).toBe(400);
    expect((await hook('partner', { name: 7 }, SECRET)).status).toBe(400);
    expect((await hook('drop-everything', {}, SECRET)).status).toBe(404);
  });
});
