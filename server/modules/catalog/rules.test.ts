import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as rulesPost } from '@/app/v1/events/rules/route';
import { POST as create } from '@/app/v1/events/route';
import { getDb } from '@/db';
import { events, shows } from '@/db/schema';
import { apiRequest, makePartner } from '@/server/testing/fixtures';
import { effectiveResaleRules, faceValueMinor, isDeclaredCombination } from './rules';

let seq = 0;

/** A Price Detail event: one show with two options (GA, VIP) and two price types (ADULT, CHILD). */
async function setup() {
  const partner = await makePartner('Rules');
  const ref = `RULES-${Date.now()}-${++seq}`;
  const showId = `${ref}-S1`;
  const res = await create(
    apiRequest('/v1/events', {
      key: partner.apiKey,
      body: {
        title: 'Rules event',
        description: 'd',
        externalReferenceId: ref,
        location: { city: 'Lima' },
        configuration: {},
        shows: [
          {
            title: 'S1',
            date: '2027-06-01T20:00:00Z',
            showId,
            images: [],
            configuration: {},
            ticketOptions: [
              { title: 'GA', ticketId: 'GA', description: 'g', currency: 'USD', price: 50 },
              { title: 'VIP', ticketId: 'VIP', description: 'v', currency: 'USD', price: 120 },
            ],
            priceTypes: [{ priceTypeId: 'ADULT' }, { priceTypeId: 'CHILD' }],
          },
        ],
      },
    }),
  );
  expect(res.status).toBe(200);
  const [row] = await getDb()
    .select({ pk: shows.id })
    .from(shows)
    .innerJoin(events, eq(events.id, shows.eventId))
    .where(and(eq(events.partnerId, partner.partner.id), eq(shows.showId, showId)));
  return { ...partner, ref, showId, showPk: row.pk };
}

async function post(key: string, body: unknown) {
  const res = await rulesPost(apiRequest('/v1/events/rules', { key, body }));
  return { status: res.status, body: await res.json() };
}

describe('POST /v1/events/rules', () => {
  it('declares combinations whose price wins over the option price; undeclared pairs do not exist', async () => {
    const s = await setup();
    const res = await post(s.apiKey, [
      {
        externalReferenceEventId: s.ref,
        showId: s.showId,
        ticketOptionId: 'GA',
        priceTypeId: 'CHILD',
        price: '25.50',
        ruleType: 'COMBINATION',
        description: 'Kids',
      },
      {
        externalReferenceEventId: s.ref,
        showId: s.showId,
        ticketOptionId: 'GA',
        priceTypeId: 'ADULT',
        ruleType: 'COMBINATION',
      },
    ]);
    expect(res).toMatchObject({ status: 200, body: { data: { applied: 2, combinations: 2 }, errors: null } });
    expect(await faceValueMinor(s.showPk, 'GA', 'CHILD', getDb())).toBe(2550);
    expect(await faceValueMinor(s.showPk, 'GA', 'ADULT', getDb())).toBe(5000); // declared without a price: the option's
    expect(await faceValueMinor(s.showPk, 'VIP', undefined, getDb())).toBe(12000);
    expect(await isDeclaredCombination(s.showPk, 'GA', 'CHILD', getDb())).toBe(true);
    expect(await isDeclaredCombination(s.showPk, 'VIP', 'CHILD', getDb())).toBe(false);
    // Re-sending replaces, never duplicates.
    await post(s.apiKey, [
      {
        externalReferenceEventId: s.ref,
        showId: s.showId,
        ticketOptionId: 'GA',
        priceTypeId: 'CHILD',
        price: 20,
        ruleType: 'COMBINATION',
      },
    ]);
    expect(await faceValueMinor(s.showPk, 'GA', 'CHILD', getDb())).toBe(2000);
  });

  it('refuses a combination whose option, price type or show is not the event’s, naming each, and applies nothing', async () => {
    const s = await setup();
    const res = await post(s.apiKey, [
      { externalReferenceEventId: s.ref, ruleType: 'RESALE_ENABLED', rules: { enabled: false } },
      {
        externalReferenceEventId: s.ref,
        showId: s.showId,
        ticketOptionId: 'NOPE',
        priceTypeId: 'SENIOR',
        ruleType: 'COMBINATION',
      },
      {
        externalReferenceEventId: s.ref,
        showId: 'other-show',
        ticketOptionId: 'GA',
        priceTypeId: 'ADULT',
        ruleType: 'COMBINATION',
      },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.errors.details.map((d: { path: string }) => d.path)).toEqual([
      '[1].ticketOptionId',
      '[1].priceTypeId',
      '[2].showId',
    ]);
    expect(await effectiveResaleRules(s.partner.id, { externalReferenceEventId: s.ref }, getDb())).toEqual({});
  });

  it('requires the combination fields and a known ruleType, with valid rules content', async () => {
    const s = await setup();
    const res = await post(s.apiKey, [
      { externalReferenceEventId: s.ref, ruleType: 'COMBINATION', ticketOptionId: 'GA' },
      { externalReferenceEventId: s.ref, ruleType: 'MAGIC' },
      {
        externalReferenceEventId: s.ref,
        ruleType: 'PRICE_LIMITS',
        rules: { minPercentOfFace: 150, maxPercentOfFace: 120 },
      },
      { externalReferenceEventId: s.ref, ruleType: 'MAX_TICKETS_PER_LISTING', rules: { max: 0 } },
    ]);
    expect(res.status).toBe(400);
    const details = res.body.errors.details.map((d: { path: string; message: string }) => [d.path, d.message]);
    // Each problem once: a COMBINATION without showId is not also told showId is needed for its ticketOptionId.
    expect(details.filter(([path]: string[]) => path.startsWith('[0]'))).toEqual([
      ['[0].showId', 'is required for a COMBINATION'],
      ['[0].priceTypeId', 'is required for a COMBINATION'],
    ]);
    expect(details.map(([path]: string[]) => path)).toEqual(
      expect.arrayContaining(['[1].ruleType', '[2].rules.minPercentOfFace', '[3].rules.max']),
    );
  });

  it('answers 404 for an unknown event and for another partner’s event', async () => {
    const s = await setup();
    const other = await makePartner('Other');
    for (const key of [s.apiKey, other.apiKey]) {
      const res = await post(key, [
        {
          externalReferenceEventId: key === s.apiKey ? 'nope' : s.ref,
          ruleType: 'P2P_TRANSFER',
          rules: { allowed: true },
        },
      ]);
      expect(res.status).toBe(404);
      expect(res.body.errors.message).toBe('Event not found');
    }
  });

  it('resolves resale rules by scope, the most specific winning', async () => {
    const s = await setup();
    const res = await post(s.apiKey, [
      { externalReferenceEventId: s.ref, ruleType: 'RESALE_ENABLED', rules: { enabled: true } },
      { externalReferenceEventId: s.ref, showId: s.showId, ruleType: 'PRICE_LIMITS', rules: { maxPercentOfFace: 120 } },
      {
        externalReferenceEventId: s.ref,
        showId: s.showId,
        priceTypeId: 'CHILD',
        ruleType: 'PRICE_LIMITS',
        rules: { maxPercentOfFace: 100 },
      },
      {
        externalReferenceEventId: s.ref,
        showId: s.showId,
        ticketOptionId: 'VIP',
        ruleType: 'RESALE_ENABLED',
        rules: { enabled: false },
      },
      {
        externalReferenceEventId: s.ref,
        showId: s.showId,
        ticketOptionId: 'VIP',
        priceTypeId: 'CHILD',
        ruleType: 'PRICE_LIMITS',
        rules: { maxPercentOfFace: 90 },
      },
      {
        externalReferenceEventId: s.ref,
        ruleType: 'LISTING_WINDOW',
        rules: { opensHoursBeforeShow: 720, closesHoursBeforeShow: 3 },
      },
    ]);
    expect(res.status).toBe(200);
    const at = (scope: Record<string, string>) =>
      effectiveResaleRules(s.partner.id, { externalReferenceEventId: s.ref, ...scope }, getDb());
    expect(await at({})).toEqual({
      RESALE_ENABLED: { enabled: true },
      LISTING_WINDOW: { opensHoursBeforeShow: 720, closesHoursBeforeShow: 3 },
    });
    expect(await at({ showId: s.showId, ticketOptionId: 'GA', priceTypeId: 'ADULT' })).toMatchObject({
      RESALE_ENABLED: { enabled: true },
      PRICE_LIMITS: { maxPercentOfFace: 120 },
    });
    expect(await at({ showId: s.showId, ticketOptionId: 'GA', priceTypeId: 'CHILD' })).toMatchObject({
      PRICE_LIMITS: { maxPercentOfFace: 100 },
    });
    expect(await at({ showId: s.showId, ticketOptionId: 'VIP', priceTypeId: 'ADULT' })).toMatchObject({
      RESALE_ENABLED: { enabled: false },
      PRICE_LIMITS: { maxPercentOfFace: 120 },
    });
    expect(await at({ showId: s.showId, ticketOptionId: 'VIP', priceTypeId: 'CHILD' })).toMatchObject({
      PRICE_LIMITS: { maxPercentOfFace: 90 },
    });
    // Re-sending a rule for the same scope replaces it.
    await post(s.apiKey, [{ externalReferenceEventId: s.ref, ruleType: 'RESALE_ENABLED', rules: { enabled: false } }]);
    expect((await at({})).RESALE_ENABLED).toEqual({ enabled: false });
  });
});
