import { describe, expect, it } from 'vitest';
import { POST as accessLayerPost } from '@/app/v1/wrapper/accesslayer/route';
import { createCallerFactory } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/router';
import { apiRequest } from '@/server/testing/fixtures';
import { postRules, sellerMarket } from '@/server/testing/market';

const createCaller = createCallerFactory(appRouter);
const staff = createCaller({ staff: { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' } });
const anonymous = createCaller({ staff: null });
const SELLER = 'seller@example.com';

async function status(key: string, ref: string, ticketId = 'T1') {
  const res = await accessLayerPost(
    apiRequest('/v1/wrapper/accesslayer', {
      key,
      body: { user: SELLER, tickets: [{ eventId: ref, showId: '1', ticketId, ticketOptionId: 'GA' }] },
    }),
  );
  return (await res.json()).data.tickets[0].status as string;
}

describe('resale rules editor', () => {
  it('staff rules win over the partner’s at the same scope; the most specific scope still wins', async () => {
    const m = await sellerMarket({ seller: SELLER, name: 'Rules editor' });
    await postRules(m.key, [
      { externalReferenceEventId: m.ref, ruleType: 'RESALE_ENABLED', rules: { enabled: false } },
    ]);
    expect(await status(m.key, m.ref)).toBe('NOT_SELLABLE');
    await expect(
      anonymous.rules.save({
        partnerId: m.partnerId,
        eventRef: m.ref,
        ruleType: 'RESALE_ENABLED',
        rules: { enabled: true },
      }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });

    // Staff turn resale on for the whole event: equal scope, staff wins.
    const rule = await staff.rules.save({
      partnerId: m.partnerId,
      eventRef: m.ref,
      ruleType: 'RESALE_ENABLED',
      rules: { enabled: true },
    });
    expect(rule).toMatchObject({ source: 'STAFF', updatedBy: 'ops@encore.test' });
    expect(await status(m.key, m.ref)).toBe('SELLABLE');
    // The partner re-sends its rule: still stored as the partner's, still overridden.
    await postRules(m.key, [
      { externalReferenceEventId: m.ref, ruleType: 'RESALE_ENABLED', rules: { enabled: false } },
    ]);
    expect(await status(m.key, m.ref)).toBe('SELLABLE');
    const view = await staff.rules.ofEvent({ partnerId: m.partnerId, eventRef: m.ref });
    expect(view.rules.map((r) => [r.ruleType, r.source, r.rules, r.overridden])).toEqual([
      ['RESALE_ENABLED', 'PARTNER', { enabled: false }, true],
      ['RESALE_ENABLED', 'STAFF', { enabled: true }, false],
    ]);
    expect(view.shows).toEqual([
      { showId: '1', title: '1', ticketOptions: [{ id: 'GA', title: 'GA' }], priceTypes: [] },
    ]);

    // A more specific partner rule (the show) beats the staff's event-wide rule.
    await postRules(m.key, [
      { externalReferenceEventId: m.ref, showId: '1', ruleType: 'RESALE_ENABLED', rules: { enabled: false } },
    ]);
    expect(await status(m.key, m.ref)).toBe('NOT_SELLABLE');
    const why = await staff.rules.explain({ partnerId: m.partnerId, ticketId: 'T1' });
    expect(why).toMatchObject({
      ticketId: 'T1',
      status: 'NOT_SELLABLE',
      reasons: ['resale is not allowed for these tickets'],
    });
    expect(why.rules).toEqual([
      {
        ruleType: 'RESALE_ENABLED',
        winner: expect.objectContaining({ source: 'PARTNER', scope: 'show 1', rules: { enabled: false } }),
        candidates: expect.arrayContaining([
          expect.objectContaining({ source: 'STAFF', scope: 'event' }),
          expect.objectContaining({ source: 'PARTNER', scope: 'event' }),
        ]),
      },
    ]);

    // Removing the staff rule: the partner's event rule applies again (the show rule still wins here).
    await staff.rules.delete({ partnerId: m.partnerId, ruleId: rule.id });
    const after = await staff.rules.ofEvent({ partnerId: m.partnerId, eventRef: m.ref });
    expect(after.rules.every((r) => r.source === 'PARTNER' && !r.overridden)).toBe(true);
    // Partner rules cannot be removed from here; another partner's rules are not reachable.
    await expect(staff.rules.delete({ partnerId: m.partnerId, ruleId: after.rules[0].id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const other = await sellerMarket({ seller: SELLER, name: 'Rules other' });
    await expect(staff.rules.ofEvent({ partnerId: other.partnerId, eventRef: m.ref })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(staff.rules.explain({ partnerId: other.partnerId, ticketId: 'NOPE' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('validates a staff rule like the API does, naming the field', async () => {
    const m = await sellerMarket({ seller: SELLER, name: 'Rules validation' });
    const refused = async (input: Record<string, unknown>) => {
      const err = await staff.rules
        .save({ partnerId: m.partnerId, eventRef: m.ref, ruleType: 'PRICE_LIMITS', rules: {}, ...input } as never)
        .then(
          () => null,
          (e: {
            code: string;
            cause?: { details?: { path: string; message: string }[]; issues?: { path: string[] }[] };
          }) => e,
        );
      expect(err?.code).toBe('BAD_REQUEST');
      return err!.cause?.details?.map((d) => d.path) ?? err!.cause?.issues?.map((i) => i.path.join('.'));
    };
    expect(await refused({ rules: { minPercentOfFace: 150, maxPercentOfFace: 100 } })).toEqual([
      'rules.minPercentOfFace',
    ]);
    expect(await refused({ ruleType: 'LISTING_WINDOW', rules: { opensHoursBeforeShow: 'soon' } })).toEqual([
      'rules.opensHoursBeforeShow',
    ]);
    expect(await refused({ ruleType: 'COMBINATION' })).toEqual(['ruleType']);
    expect(await refused({ showId: '9', rules: { maxPercentOfFace: 120 } })).toEqual(['showId']);
    expect(await refused({ showId: '1', ticketOptionId: 'VIP', rules: { maxPercentOfFace: 120 } })).toEqual([
      'ticketOptionId',
    ]);
    expect(await refused({ ticketOptionId: 'GA', rules: { maxPercentOfFace: 120 } })).toEqual(['showId']);
    expect(await refused({ eventRef: 'nope', rules: { maxPercentOfFace: 120 } })).toEqual(['eventRef']);
    // A valid one, at option scope, is stored and shown.
    await staff.rules.save({
      partnerId: m.partnerId,
      eventRef: m.ref,
      showId: '1',
      ticketOptionId: 'GA',
      ruleType: 'PRICE_LIMITS',
      rules: { maxPercentOfFace: 120 },
    });
    const view = await staff.rules.ofEvent({ partnerId: m.partnerId, eventRef: m.ref });
    expect(view.rules).toEqual([
      expect.objectContaining({
        showId: '1',
        ticketOptionId: 'GA',
        priceTypeId: null,
        source: 'STAFF',
        rules: { maxPercentOfFace: 120 },
      }),
    ]);
  });
});
