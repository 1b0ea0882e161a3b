import { describe, expect, it } from 'vitest';
import { makePartner } from '@/server/testing/fixtures';
import { createCallerFactory } from '../init';
import { appRouter } from '../router';

const createCaller = createCallerFactory(appRouter);
const staff = createCaller({ staff: { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' } });
const anonymous = createCaller({ staff: null });

describe('opsMoney router', () => {
  it('is for staff only, answers a fresh partner’s week as balanced and empty, and names a bad field', async () => {
    const { partner } = await makePartner('Money router');
    const week = { partnerId: partner.id, from: '2026-03-02', to: '2026-03-08' };
    await expect(anonymous.opsMoney.reconciliation(week)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await staff.opsMoney.reconciliation(week)).toMatchObject({
      partnerId: partner.id,
      totals: [],
      mismatches: [],
      mismatchCount: 0,
      payoutsByState: [],
    });
    await expect(staff.opsMoney.reconciliation({ ...week, partnerId: 'ptn_nope' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(staff.opsMoney.reconciliation({ ...week, from: '2026-3-2' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'from must be a date (YYYY-MM-DD)',
    });
  });
});
