import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { getPayment } from '@/server/modules/payments';
import { makePartner } from '@/server/testing/fixtures';

const run = promisify(execFile);
// The CLI as `npm run payment:test` runs it, against this worker's database.
const paymentTest = (args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'server/cli/payment-test.ts', ...args], {
    env: { ...process.env, LOG_LEVEL: 'error' },
  });

describe('npm run payment:test', () => {
  it('opens a test payment of the amount asked and prints its id and checkout URL as one JSON line', async () => {
    const { partner } = await makePartner('Payment CLI');
    const { stdout } = await paymentTest(['--partner', partner.id, '--amount', '12.50', '--currency', 'EUR']);
    const out = JSON.parse(stdout) as { paymentId: string; url: string };
    expect(out.url).toContain(`/pay/${out.paymentId}`);
    expect(await getPayment(partner.id, out.paymentId, getDb())).toMatchObject({
      amountMinor: 1250,
      currency: 'EUR',
      status: 'pending',
    });
  });

  it('names a bad amount, and prints its usage without a partner', async () => {
    const { partner } = await makePartner('Payment CLI bad');
    const bad = await paymentTest(['--partner', partner.id, '--amount', 'lots']).catch((e) => e);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--amount');
    const usage = await paymentTest([]).catch((e) => e);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('usage: npm run payment:test');
  });
});
