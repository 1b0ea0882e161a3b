import { describe, expect, it } from 'vitest';
import { makePartner } from '@/server/testing/fixtures';
import { zodIssues } from '@/server/testing/trpc';
import { createCallerFactory } from '../init';
import { appRouter } from '../router';

const createCaller = createCallerFactory(appRouter);
const staff = createCaller({ staff: { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' } });
const anonymous = createCaller({ staff: null });

/** The zod issue paths of a refused input, e.g. `['primarySalesFee', 'value']`. */
async function refusedPaths(call: Promise<unknown>): Promise<(string | number)[][]> {
  return (await zodIssues(call)).map((i) => i.path as (string | number)[]);
}

describe('partners.setPrimarySalesFee', () => {
  it('refuses callers who are not signed in', async () => {
    const { partner } = await makePartner('Fee router auth');
    await expect(
      anonymous.partners.setPrimarySalesFee({
        partnerId: partner.id,
        primarySalesFee: { type: 'FIXED', value: 1 },
      }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await staff.partners.get({ partnerId: partner.id })).primarySalesFee).toBeNull();
  });

  it('sets, replaces and (with null) removes the partner default; partners.get shows it', async () => {
    const { partner } = await makePartner('Fee router');
    const partnerId = partner.id;
    expect((await staff.partners.get({ partnerId })).primarySalesFee).toBeNull();

    const set = await staff.partners.setPrimarySalesFee({
      partnerId,
      primarySalesFee: { type: 'FIXED', value: 2.5 },
    });
    expect(set).toMatchObject({ id: partnerId, primarySalesFee: { type: 'FIXED', value: 2.5 } });
    expect((await staff.partners.get({ partnerId })).primarySalesFee).toEqual({ type: 'FIXED', value: 2.5 });

    // Only { type, value } is kept; 100 is the largest percentage.
    await staff.partners.setPrimarySalesFee({
      partnerId,
      primarySalesFee: { type: 'PERCENTAGE', value: 100, note: 'ignored' } as { type: 'PERCENTAGE'; value: number },
    });
    expect((await staff.partners.get({ partnerId })).primarySalesFee).toEqual({ type: 'PERCENTAGE', value: 100 });

    const cleared = await staff.partners.setPrimarySalesFee({ partnerId, primarySalesFee: null });
    expect(cleared.primarySalesFee).toBeNull();
    expect((await staff.partners.get({ partnerId })).primarySalesFee).toBeNull();
  });

  it('validates with the partner API schema: type, value ≥ 0, a percentage at most 100', async () => {
    const { partner } = await makePartner('Fee router invalid');
    const partnerId = partner.id;
    await staff.partners.setPrimarySalesFee({ partnerId, primarySalesFee: { type: 'FIXED', value: 4 } });

    expect(
      await refusedPaths(
        staff.partners.setPrimarySalesFee({ partnerId, primarySalesFee: { type: 'PERCENTAGE', value: 100.01 } }),
      ),
    ).toEqual([['primarySalesFee', 'value']]);
    expect(
      await refusedPaths(
        staff.partners.setPrimarySalesFee({ partnerId, primarySalesFee: { type: 'FIXED', value: -1 } }),
      ),
    ).toEqual([['primarySalesFee', 'value']]);
    expect(
      await refusedPaths(
        staff.partners.setPrimarySalesFee({
          partnerId,
          primarySalesFee: { type: 'FLAT', value: 1 } as unknown as { type: 'FIXED'; value: number },
        }),
      ),
    ).toEqual([['primarySalesFee', 'type']]);
    // The fee is required: leaving it out is not a way to clear it (null is).
    expect(
      await refusedPaths(
        staff.partners.setPrimarySalesFee({ partnerId } as unknown as { partnerId: string; primarySalesFee: null }),
      ),
    ).toEqual([['primarySalesFee']]);

    // Nothing refused was stored.
    expect((await staff.partners.get({ partnerId })).primarySalesFee).toEqual({ type: 'FIXED', value: 4 });
  });

  it('answers NOT_FOUND for an unknown partner', async () => {
    await expect(
      staff.partners.setPrimarySalesFee({ partnerId: 'ptr_nope', primarySalesFee: { type: 'FIXED', value: 1 } }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Partner not found' });
  });
});
