import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as rulesPost } from '@/app/v1/events/rules/route';
import { POST as create, PUT as update } from '@/app/v1/events/route';
import { getDb } from '@/db';
import { events, shows } from '@/db/schema';
import { apiRequest, makePartner } from '@/server/testing/fixtures';
import { effectiveResaleRules, faceValueMinor, isDeclaredCombination } from './rules';

let seq = 0;
const uid = () => `${Date.now()}-${++seq}`;

function show(showId: string) {
  return {
    title: 'S',
    date: '2027-06-01T20:00:00Z',
    showId,
    images: [],
    configuration: {},
    ticketOptions: [
      { title: 'Yen', ticketId: 'JPY', description: 'j', currency: 'JPY', price: 5000 },
      { title: 'Dollar', ticketId: 'USD', description: 'u', currency: 'USD', price: '50.00' },
    ],
    priceTypes: [{ priceTypeId: 'ADULT' }, { priceTypeId: 'CHILD' }],
  };
}

const eventBody = (ref: string, showIds: string[]) => ({
  title: 'Input event',
  description: 'd',
  externalReferenceId: ref,
  location: {},
  configuration: {},
  shows: showIds.map(show),
});

/** A fresh partner with one event of one show: options JPY (5000 JPY) and USD (50.00 USD), price types ADULT and CHILD. */
async function setup() {
  const partner = await makePartner('Catalog input');
  const ref = `CIN-${uid()}`;
  const showId = `${ref}-S1`;
  const res = await create(apiRequest('/v1/events', { key: partner.apiKey, body: eventBody(ref, [showId]) }));
  expect(res.status).toBe(200);
  const [row] = await getDb()
    .select({ pk: shows.id })
    .from(shows)
    .where(and(eq(shows.partnerId, partner.partner.id), eq(shows.showId, showId)));
  return { ...partner, ref, showId, showPk: row.pk };
}

const json = async (res: Response) => ({ status: res.status, body: await res.json() });
const rules = (key: string, body: unknown) => rulesPost(apiRequest('/v1/events/rules', { key, body })).then(json);
const combination = (s: { ref: string; showId: string }, extra: Record<string, unknown> = {}) => ({
  externalReferenceEventId: s.ref,
  showId: s.showId,
  ticketOptionId: 'JPY',
  priceTypeId: 'CHILD',
  ruleType: 'COMBINATION',
  ...extra,
});

describe('POST /v1/events/rules: input', () => {
  it('answers 400 naming a missing externalReferenceEventId and a missing ruleType, and applies nothing', async () => {
    const s = await setup();
    const res = await rules(s.apiKey, [
      { externalReferenceEventId: s.ref, ruleType: 'RESALE_ENABLED', rules: { enabled: false } },
      { ruleType: 'P2P_TRANSFER', rules: { allowed: false } },
      { externalReferenceEventId: s.ref, rules: { allowed: false } },
    ]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, data: null, errors: { code: 'VALIDATION_FAILED' } });
    expect(res.body.errors.message).toBe(
      'Invalid request body: [1].externalReferenceEventId is required (and 1 more problem)',
    );
    expect(res.body.errors.details).toEqual([
      { path: '[1].externalReferenceEventId', message: 'is required', in: 'body' },
      { path: '[2].ruleType', message: 'is required', in: 'body' },
    ]);
    expect(await effectiveResaleRules(s.partner.id, { externalReferenceEventId: s.ref }, getDb())).toEqual({});
  });

  it('answers 400 for an empty array and for more than 1000 rules; 1000 are accepted', async () => {
    const s = await setup();
    const empty = await rules(s.apiKey, []);
    expect(empty.status).toBe(400);
    expect(empty.body.errors.details).toEqual([{ path: '', message: 'at least one rule is required', in: 'body' }]);

    const rule = (i: number) => ({
      externalReferenceEventId: s.ref,
      ruleType: 'MAX_TICKETS_PER_LISTING',
      rules: { max: i + 1 },
    });
    const tooMany = await rules(
      s.apiKey,
      Array.from({ length: 1001 }, (_, i) => rule(i)),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.details).toEqual([{ path: '', message: 'at most 1000 rules per request', in: 'body' }]);
    expect(await effectiveResaleRules(s.partner.id, { externalReferenceEventId: s.ref }, getDb())).toEqual({});

    const most = await rules(
      s.apiKey,
      Array.from({ length: 1000 }, (_, i) => rule(i)),
    );
    expect(most).toMatchObject({ status: 200, body: { data: { applied: 1000, combinations: 0 }, errors: null } });
    // The same scope sent 1000 times: the last one stands.
    expect(await effectiveResaleRules(s.partner.id, { externalReferenceEventId: s.ref }, getDb())).toEqual({
      MAX_TICKETS_PER_LISTING: { max: 1000 },
    });
  });

  it('requires showId on a non-COMBINATION rule that names a ticketOptionId or priceTypeId', async () => {
    const s = await setup();
    const res = await rules(s.apiKey, [
      { externalReferenceEventId: s.ref, ticketOptionId: 'USD', ruleType: 'RESALE_ENABLED', rules: { enabled: false } },
      { externalReferenceEventId: s.ref, priceTypeId: 'CHILD', ruleType: 'P2P_TRANSFER', rules: { allowed: false } },
      {
        externalReferenceEventId: s.ref,
        showId: s.showId,
        ticketOptionId: 'USD',
        ruleType: 'RESALE_ENABLED',
        rules: { enabled: false },
      },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.errors.details).toEqual([
      { path: '[0].showId', message: 'is required with ticketOptionId or priceTypeId', in: 'body' },
      { path: '[1].showId', message: 'is required with ticketOptionId or priceTypeId', in: 'body' },
    ]);
    expect(
      await effectiveResaleRules(
        s.partner.id,
        {
          externalReferenceEventId: s.ref,
          showId: s.showId,
          ticketOptionId: 'USD',
        },
        getDb(),
      ),
    ).toEqual({});
  });

  it("refuses a COMBINATION price with more decimals than the option's currency, naming [i].price", async () => {
    const s = await setup();
    const yen = await rules(s.apiKey, [combination(s, { price: 10.5 })]);
    expect(yen.status).toBe(400);
    expect(yen.body).toMatchObject({ status: 400, data: null, errors: { code: 'VALIDATION_FAILED' } });
    expect(yen.body.errors.details).toEqual([
      { path: '[0].price', message: 'has more than 0 decimal places, which JPY does not allow', in: 'body' },
    ]);
    const dollar = await rules(s.apiKey, [
      combination(s, { ticketOptionId: 'USD', priceTypeId: 'ADULT', price: '10.5' }),
      combination(s, { ticketOptionId: 'USD', priceTypeId: 'CHILD', price: '10.505' }),
    ]);
    expect(dollar.status).toBe(400);
    expect(dollar.body.errors.details).toEqual([
      { path: '[1].price', message: 'has more than 2 decimal places, which USD does not allow', in: 'body' },
    ]);
    // All or none: the valid USD + ADULT of the refused request was not declared either.
    expect(await isDeclaredCombination(s.showPk, 'JPY', 'CHILD', getDb())).toBe(false);
    expect(await isDeclaredCombination(s.showPk, 'USD', 'ADULT', getDb())).toBe(false);

    const ok = await rules(s.apiKey, [
      combination(s, { price: '10.0' }),
      combination(s, { ticketOptionId: 'USD', priceTypeId: 'ADULT', price: '10.5' }),
    ]);
    expect(ok).toMatchObject({ status: 200, body: { data: { applied: 2, combinations: 2 } } });
    expect(await faceValueMinor(s.showPk, 'JPY', 'CHILD', getDb())).toBe(10);
    expect(await faceValueMinor(s.showPk, 'USD', 'ADULT', getDb())).toBe(1050);
  });
});

describe('PUT /v1/events: showId of another event', () => {
  it("adds a show whose showId another event of the partner uses, leaving that event's show alone", async () => {
    const s = await setup();
    const otherRef = `CIN-${uid()}`;
    const otherShow = `${otherRef}-S1`;
    const created = await create(apiRequest('/v1/events', { key: s.apiKey, body: eventBody(otherRef, [otherShow]) }));
    expect(created.status).toBe(200);

    const res = await json(
      await update(
        apiRequest('/v1/events', {
          method: 'PUT',
          key: s.apiKey,
          body: { externalReferenceId: s.ref, title: 'Renamed', shows: [{ ...show(otherShow), title: 'Mine' }] },
        }),
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.shows.map((x: { showId: string }) => x.showId)).toEqual([s.showId, otherShow]);

    // Showids are per event: each event has its own show of that id, with its own title.
    const rows = await getDb()
      .select({ ref: events.externalReferenceId, title: shows.title, showId: shows.showId })
      .from(shows)
      .innerJoin(events, eq(events.id, shows.eventId))
      .where(and(eq(shows.partnerId, s.partner.id), eq(shows.showId, otherShow)));
    expect(rows.sort((a, b) => a.ref.localeCompare(b.ref))).toEqual(
      [
        { ref: s.ref, title: 'Mine', showId: otherShow },
        { ref: otherRef, title: 'S', showId: otherShow },
      ].sort((a, b) => a.ref.localeCompare(b.ref)),
    );
  });
});
