import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as cancelRoute } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { PUT as updateRoute } from '@/app/v1/events/route';
import { POST as rulesRoute } from '@/app/v1/events/rules/route';
import { GET as salePublicUrlRoute } from '@/app/v1/events/tickets/salePublicUrl/route';
import { GET as secureUrlRoute } from '@/app/v1/tickets/[ticketId]/url/route';
import { getDb } from '@/db';
import { combinations, events, shows, tickets } from '@/db/schema';
import { AppError, pgErrorOf } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { updateIntegration } from '@/server/modules/partners';
import { processBatch } from '@/server/modules/tickets';
import { secureViewByToken } from '@/server/modules/tickets';
import { setEnv } from '@/server/testing/env';
import { FakePartner } from '@/server/testing/fake-partner';
import { apiRequest, makePartner, pushEvent, routeParams, testShow } from '@/server/testing/fixtures';
import { admit, json, putTicket, queueTickets, syncTickets } from '@/server/testing/ticket-api';
import { getEventDetailWithTickets, getShowSummaryWithTickets, listShowTickets } from '@/server/modules/tickets';
import { pullFeed } from './feed';
import { effectiveResaleRules } from './rules';
import { getEvent } from './event-api';

/*
 * A showId is unique within its event, not within the partner: a partner that numbers each event's
 * shows 1, 2… has two events with a show "1". Every call that names a show also names its event, so
 * each must reach that event's show and never the other's.
 */

let seq = 0;
const priceTypes = [{ priceTypeId: 'ADULT' }, { priceTypeId: 'CHILD' }];
const option = (ticketId: string, price: string) => ({
  title: ticketId,
  ticketId,
  description: 'd',
  currency: 'EUR',
  price,
});

/**
 * A fresh partner with events A and B, both with shows "1" and "2". A's show "1" sells GA at 40.00;
 * B's show "1" sells GA at 60.00 and VIP at 90.00 (A's show "1" has no VIP). Both "1"s have price types.
 */
async function setup() {
  const partner = await makePartner('Show scope');
  const run = `${Date.now()}-${++seq}`;
  const refA = `SCOPE-A-${run}`;
  const refB = `SCOPE-B-${run}`;
  await pushEvent(partner.apiKey, refA, [
    testShow('1', { title: 'A one', priceTypes }),
    testShow('2', { title: 'A two' }),
  ]);
  await pushEvent(partner.apiKey, refB, [
    testShow('1', { title: 'B one', priceTypes, ticketOptions: [option('GA', '60.00'), option('VIP', '90.00')] }),
    testShow('2', { title: 'B two' }),
  ]);
  const rows = await showRows(partner.partner.id);
  const pkOf = (ref: string, showId: string) => rows.find((r) => r.ref === ref && r.showId === showId)!.pk;
  const eventPkOf = (ref: string) => rows.find((r) => r.ref === ref)!.eventPk;
  return { ...partner, partnerId: partner.partner.id, refA, refB, pkOf, eventPkOf };
}
type Setup = Awaited<ReturnType<typeof setup>>;

/** Every show of the partner with its event's reference, in a stable order. */
async function showRows(partnerId: string) {
  return getDb()
    .select({
      ref: events.externalReferenceId,
      eventPk: events.id,
      showId: shows.showId,
      pk: shows.id,
      title: shows.title,
      status: shows.status,
    })
    .from(shows)
    .innerJoin(events, eq(events.id, shows.eventId))
    .where(eq(shows.partnerId, partnerId))
    .orderBy(asc(events.externalReferenceId), asc(shows.showId));
}

const ticket = (ref: string, showId: string, ticketId: string, extra: Record<string, unknown> = {}) => ({
  externalReferenceEventId: ref,
  showId,
  buyer: `${ticketId.toLowerCase()}@fans.test`,
  ticketId,
  ticketAccess: { type: 'OTHER', locator: ticketId },
  ticketOptionId: 'GA',
  ...extra,
});

/** One ticket per event and show: A1, A2, B1, B2. */
async function syncFour(s: Setup) {
  const res = await syncTickets(s.apiKey, [
    ticket(s.refA, '1', 'A1'),
    ticket(s.refA, '2', 'A2'),
    ticket(s.refB, '1', 'B1'),
    ticket(s.refB, '2', 'B2'),
  ]);
  expect(res.body.data).toMatchObject({ imported: 4, failed: 0 });
}

async function ticketRows(partnerId: string) {
  const rows = await getDb()
    .select({
      ticketId: tickets.ticketId,
      id: tickets.id,
      eventPk: tickets.eventPk,
      showPk: tickets.showPk,
      priceMinor: tickets.priceMinor,
      status: tickets.status,
    })
    .from(tickets)
    .where(eq(tickets.partnerId, partnerId));
  return Object.fromEntries(rows.map((r) => [r.ticketId, r]));
}

const statuses = async (partnerId: string) =>
  Object.fromEntries(Object.entries(await ticketRows(partnerId)).map(([id, r]) => [id, r.status]));

const cancel = (key: string, ref: string, showId?: string) =>
  cancelRoute(
    apiRequest(`/v1/events/${ref}/cancellation${showId ? `?showId=${showId}` : ''}`, { method: 'POST', key }),
    routeParams({ externalReferenceId: ref }),
  ).then(json);

const putEvent = (key: string, body: unknown) =>
  updateRoute(apiRequest('/v1/events', { method: 'PUT', key, body })).then(json);

const rules = (key: string, body: unknown) => rulesRoute(apiRequest('/v1/events/rules', { key, body })).then(json);

describe('POST /v1/events: two events of one partner with the same show ids', () => {
  it('stores each event with its own shows "1" and "2"', async () => {
    const s = await setup();
    expect((await showRows(s.partnerId)).map((r) => [r.ref, r.showId, r.title])).toEqual([
      [s.refA, '1', 'A one'],
      [s.refA, '2', 'A two'],
      [s.refB, '1', 'B one'],
      [s.refB, '2', 'B two'],
    ]);
    const a = await getEvent(s.partnerId, s.refA, getDb());
    const b = await getEvent(s.partnerId, s.refB, getDb());
    expect(a.shows.map((x) => [x.showId, x.ticketOptions.map((o) => [o.ticketId, o.price])])).toEqual([
      ['1', [['GA', 40]]],
      ['2', [['GA', 40]]],
    ]);
    expect(b.shows.map((x) => [x.showId, x.ticketOptions.map((o) => [o.ticketId, o.price])])).toEqual([
      [
        '1',
        [
          ['GA', 60],
          ['VIP', 90],
        ],
      ],
      ['2', [['GA', 40]]],
    ]);
  });

  it('still refuses a showId repeated within one event, in the request and in the database', async () => {
    const s = await setup();
    const run = `SCOPE-C-${Date.now()}-${++seq}`;
    await expect(pushEvent(s.apiKey, run, [testShow('1'), testShow('1')])).rejects.toThrow(/shows\[1\]\.showId/);

    // The unique index of migration 0010 is (event_id, show_id): a second show "1" in A is refused.
    const insert = getDb()
      .insert(shows)
      .values({
        id: newId('shw'),
        partnerId: s.partnerId,
        eventId: s.eventPkOf(s.refA),
        showId: '1',
        position: 9,
        title: 'dup',
        date: '2027-06-01T20:00:00Z',
        startsAt: new Date('2027-06-01T20:00:00Z'),
        images: [],
        configuration: {},
      });
    await expect(insert).rejects.toSatisfy(
      (e) => pgErrorOf(e)?.code === '23505' && pgErrorOf(e)?.constraint_name === 'shows_event_show_idx',
    );
  });
});

describe('PUT /v1/events: show "1" of event B is not show "1" of event A', () => {
  it('updates, adds and cancels shows of B only', async () => {
    const s = await setup();
    await syncFour(s);
    const before = await getEvent(s.partnerId, s.refA, getDb());

    const res = await putEvent(s.apiKey, {
      externalReferenceId: s.refB,
      shows: [
        {
          showId: '1',
          title: 'B one renamed',
          date: '2027-09-01T20:00:00Z',
          ticketOptions: [option('GA', '65.00')],
        },
        { showId: '2', status: 'CANCELLED' },
        testShow('3', { title: 'B three' }),
      ],
    });
    expect(res.status).toBe(200);
    expect(
      res.body.data.shows.map((x: { showId: string; title: string; status: string; showRescheduled: boolean }) => [
        x.showId,
        x.title,
        x.status,
        x.showRescheduled,
      ]),
    ).toEqual([
      ['1', 'B one renamed', 'LIVE', true],
      ['2', 'B two', 'CANCELLED', false],
      ['3', 'B three', 'LIVE', false],
    ]);
    expect(res.body.data.shows[0].ticketOptions.map((o: { price: number }) => o.price)).toEqual([65, 90]);

    // A, its shows, options and tickets are exactly as they were; only B's show "2" tickets are invalid.
    expect(await getEvent(s.partnerId, s.refA, getDb())).toEqual(before);
    expect(await statuses(s.partnerId)).toEqual({ A1: 'VALID', A2: 'VALID', B1: 'VALID', B2: 'INVALIDATED' });

    // A may now add its own show "3": B's show "3" is untouched.
    const again = await putEvent(s.apiKey, {
      externalReferenceId: s.refA,
      shows: [testShow('3', { title: 'A three' })],
    });
    expect(again.status).toBe(200);
    expect((await showRows(s.partnerId)).map((r) => [r.ref, r.showId, r.title, r.status])).toEqual([
      [s.refA, '1', 'A one', 'LIVE'],
      [s.refA, '2', 'A two', 'LIVE'],
      [s.refA, '3', 'A three', 'LIVE'],
      [s.refB, '1', 'B one renamed', 'LIVE'],
      [s.refB, '2', 'B two', 'CANCELLED'],
      [s.refB, '3', 'B three', 'LIVE'],
    ]);
  });
});

describe('POST /v1/events/{externalReferenceId}/cancellation?showId=', () => {
  it("cancels only that event's show and invalidates only its tickets; admission follows", async () => {
    const s = await setup();
    await syncFour(s);

    const res = await cancel(s.apiKey, s.refB, '1');
    expect(res.status).toBe(200);
    expect(res.body.data.shows.map((x: { showId: string; status: string }) => [x.showId, x.status])).toEqual([
      ['1', 'CANCELLED'],
      ['2', 'LIVE'],
    ]);
    expect((await getEvent(s.partnerId, s.refA, getDb())).shows.map((x) => x.status)).toEqual(['LIVE', 'LIVE']);
    expect(await statuses(s.partnerId)).toEqual({ A1: 'VALID', A2: 'VALID', B1: 'INVALIDATED', B2: 'VALID' });

    // Admission of a ticket names no show, but answers by the ticket's own show.
    expect((await admit(s.apiKey, 'A1')).status).toBe(200);
    const refused = await admit(s.apiKey, 'B1');
    expect(refused.status).toBe(409);
    expect(refused.body.errors.message).toMatch(/show is cancelled/);
    expect((await admit(s.apiKey, 'B2')).status).toBe(200);

    // A show id the event does not have is a 404, even though another event has it.
    const run = `SCOPE-D-${Date.now()}-${++seq}`;
    await pushEvent(s.apiKey, run, [testShow('7')]);
    expect((await cancel(s.apiKey, s.refA, '7')).status).toBe(404);
    expect((await getEvent(s.partnerId, run, getDb())).shows[0].status).toBe('LIVE');

    // New tickets for B's cancelled show "1" are refused; A's show "1" still takes them.
    const more = await syncTickets(s.apiKey, [ticket(s.refA, '1', 'A1b'), ticket(s.refB, '1', 'B1b')]);
    expect(more.body.data.tickets.map((t: { status: string }) => t.status)).toEqual(['imported', 'failed']);
    expect(more.body.data.tickets[1].errors).toEqual([
      { path: 'showId', message: 'the show is cancelled and takes no new tickets' },
    ]);
  });
});

describe('POST /v1/events/rules with a show id two events share', () => {
  it("checks ids against the named event's show and scopes COMBINATION and resale rules to it", async () => {
    const s = await setup();
    const combo = { ticketOptionId: 'GA', priceTypeId: 'CHILD', price: 15, ruleType: 'COMBINATION' };

    // VIP exists only in B's show "1": naming it for A's show "1" is refused, and nothing is applied.
    const wrong = await rules(s.apiKey, [
      { externalReferenceEventId: s.refB, showId: '1', ...combo },
      {
        externalReferenceEventId: s.refA,
        showId: '1',
        ticketOptionId: 'VIP',
        ruleType: 'RESALE_ENABLED',
        rules: { enabled: false },
      },
    ]);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.details).toEqual([
      { path: '[1].ticketOptionId', message: "must equal a ticketId of the show's ticket options", in: 'body' },
    ]);
    expect(await getDb().select().from(combinations).where(eq(combinations.partnerId, s.partnerId))).toEqual([]);

    const ok = await rules(s.apiKey, [
      { externalReferenceEventId: s.refB, showId: '1', ...combo },
      { externalReferenceEventId: s.refA, showId: '1', ruleType: 'RESALE_ENABLED', rules: { enabled: false } },
      {
        externalReferenceEventId: s.refB,
        showId: '1',
        ticketOptionId: 'VIP',
        ruleType: 'PRICE_LIMITS',
        rules: { maxPercentOfFace: 90 },
      },
    ]);
    expect(ok).toMatchObject({ status: 200, body: { data: { applied: 3, combinations: 1 } } });

    const combos = await getDb()
      .select({ showPk: combinations.showPk, o: combinations.ticketOptionId, p: combinations.priceTypeId })
      .from(combinations)
      .where(eq(combinations.partnerId, s.partnerId));
    expect(combos).toEqual([{ showPk: s.pkOf(s.refB, '1'), o: 'GA', p: 'CHILD' }]);

    const at = (ref: string, scope: Record<string, string>) =>
      effectiveResaleRules(s.partnerId, { externalReferenceEventId: ref, ...scope }, getDb());
    expect(await at(s.refA, { showId: '1', ticketOptionId: 'GA' })).toEqual({ RESALE_ENABLED: { enabled: false } });
    expect(await at(s.refA, { showId: '2', ticketOptionId: 'GA' })).toEqual({});
    expect(await at(s.refB, { showId: '1', ticketOptionId: 'GA' })).toEqual({});
    expect(await at(s.refB, { showId: '1', ticketOptionId: 'VIP' })).toEqual({
      PRICE_LIMITS: { maxPercentOfFace: 90 },
    });
    expect(await at(s.refA, { showId: '1', ticketOptionId: 'VIP' })).toEqual({ RESALE_ENABLED: { enabled: false } });

    // The combination sells on B's show "1" at its price, and is not declared on A's.
    const res = await syncTickets(s.apiKey, [
      ticket(s.refA, '1', 'AC', { priceTypeId: 'CHILD' }),
      ticket(s.refB, '1', 'BC', { priceTypeId: 'CHILD' }),
    ]);
    expect(res.body.data.tickets[0].errors).toEqual([
      { path: 'priceTypeId', message: 'this ticketOption + priceType pair is not a declared COMBINATION' },
    ]);
    expect(res.body.data.tickets[1].status).toBe('imported');
    expect((await ticketRows(s.partnerId)).BC).toMatchObject({ showPk: s.pkOf(s.refB, '1'), priceMinor: 1500 });
  });
});

describe('tickets naming a show id two events share', () => {
  it("POST /v1/sync/tickets lands each ticket on its event's show, with that show's options", async () => {
    const s = await setup();
    await syncFour(s);
    const rows = await ticketRows(s.partnerId);
    for (const [ticketId, ref, showId, price] of [
      ['A1', s.refA, '1', 4000],
      ['A2', s.refA, '2', 4000],
      ['B1', s.refB, '1', 6000],
      ['B2', s.refB, '2', 4000],
    ] as const) {
      expect(rows[ticketId]).toMatchObject({
        eventPk: s.eventPkOf(ref),
        showPk: s.pkOf(ref, showId),
        priceMinor: price,
        status: 'VALID',
      });
    }
    const vip = await syncTickets(s.apiKey, [
      ticket(s.refA, '1', 'AV', { ticketOptionId: 'VIP' }),
      ticket(s.refB, '1', 'BV', { ticketOptionId: 'VIP' }),
    ]);
    expect(vip.body.data.tickets.map((t: { status: string }) => t.status)).toEqual(['failed', 'imported']);
    expect(vip.body.data.tickets[0].errors[0].path).toBe('ticketOptionId');
  });

  it('POST /v1/tickets (queued) imports onto the right show too', async () => {
    const s = await setup();
    const res = await queueTickets(s.apiKey, [ticket(s.refB, '1', 'QB1'), ticket(s.refA, '1', 'QA1')]);
    expect(res.status).toBe(200);
    await processBatch(res.body.data.batchId, getDb());
    const rows = await ticketRows(s.partnerId);
    expect(rows.QA1).toMatchObject({ showPk: s.pkOf(s.refA, '1'), priceMinor: 4000 });
    expect(rows.QB1).toMatchObject({ showPk: s.pkOf(s.refB, '1'), priceMinor: 6000 });
  });

  it('PUT /v1/tickets/{ticketId} moves a ticket within its event, or to the same show id of another', async () => {
    const s = await setup();
    await syncFour(s);

    const toShow2 = await putTicket(s.apiKey, 'A1', { showId: '2' });
    expect(toShow2.status).toBe(200);
    expect(toShow2.body.data).toMatchObject({ externalReferenceEventId: s.refA, showId: '2', price: 40 });
    expect((await ticketRows(s.partnerId)).A1.showPk).toBe(s.pkOf(s.refA, '2'));

    // Only the event changes: the ticket keeps showId "2", now B's show "2".
    const toB = await putTicket(s.apiKey, 'A1', { externalReferenceEventId: s.refB });
    expect(toB.body.data).toMatchObject({ externalReferenceEventId: s.refB, showId: '2' });
    expect((await ticketRows(s.partnerId)).A1).toMatchObject({
      eventPk: s.eventPkOf(s.refB),
      showPk: s.pkOf(s.refB, '2'),
    });

    // To B's show "1": B's face value (60.00), not A's show "1" (40.00).
    const toB1 = await putTicket(s.apiKey, 'A1', { showId: '1' });
    expect(toB1.body.data).toMatchObject({ externalReferenceEventId: s.refB, showId: '1', price: 60 });
    expect((await ticketRows(s.partnerId)).A1.showPk).toBe(s.pkOf(s.refB, '1'));

    // The others did not move.
    const rows = await ticketRows(s.partnerId);
    expect(rows.A2.showPk).toBe(s.pkOf(s.refA, '2'));
    expect(rows.B1.showPk).toBe(s.pkOf(s.refB, '1'));
  });

  it("GET ticket URLs answer the ticket's own event and show", async () => {
    const s = await setup();
    await syncFour(s);
    const rows = await ticketRows(s.partnerId);
    for (const [ticketId, ref, title] of [
      ['A1', s.refA, 'A one'],
      ['B1', s.refB, 'B one'],
    ] as const) {
      const sale = await salePublicUrlRoute(
        apiRequest(`/v1/events/tickets/salePublicUrl?ticketId=${ticketId}&lang=en`, { key: s.apiKey }),
      ).then(json);
      const url = new URL(sale.body.data);
      expect(url.pathname).toBe(`/market/${s.eventPkOf(ref)}`);
      expect(url.searchParams.get('ticket')).toBe(rows[ticketId].id);

      const secure = await secureUrlRoute(
        apiRequest(`/v1/tickets/${ticketId}/url`, { key: s.apiKey }),
        routeParams({ ticketId }),
      ).then(json);
      const view = await secureViewByToken(secure.body.data.split('/t/')[1], getDb());
      expect(view).toMatchObject({ event: ref, show: title });
    }
  });
});

describe('dashboard browse with a show id two events share', () => {
  it("shows each event's own shows, counts, rules and tickets", async () => {
    const s = await setup();
    await syncFour(s);
    await syncTickets(s.apiKey, [ticket(s.refB, '1', 'B1b')]);
    await rules(s.apiKey, [
      { externalReferenceEventId: s.refA, showId: '1', ruleType: 'RESALE_ENABLED', rules: { enabled: false } },
    ]);

    const a = await getEventDetailWithTickets({ partnerId: s.partnerId, eventId: s.eventPkOf(s.refA) }, getDb());
    const b = await getEventDetailWithTickets({ partnerId: s.partnerId, eventId: s.eventPkOf(s.refB) }, getDb());
    expect(a.shows.map((x) => [x.showId, x.id, x.tickets.total])).toEqual([
      ['1', s.pkOf(s.refA, '1'), 1],
      ['2', s.pkOf(s.refA, '2'), 1],
    ]);
    expect(b.shows.map((x) => [x.showId, x.id, x.tickets.total])).toEqual([
      ['1', s.pkOf(s.refB, '1'), 2],
      ['2', s.pkOf(s.refB, '2'), 1],
    ]);
    expect(a.ruleGroups.map((g) => [g.level, g.showId])).toEqual([['show', '1']]);
    expect(b.ruleGroups).toEqual([]);

    const b1 = { partnerId: s.partnerId, eventId: s.eventPkOf(s.refB), showId: s.pkOf(s.refB, '1') };
    expect(await getShowSummaryWithTickets(b1, getDb())).toMatchObject({
      showId: '1',
      title: 'B one',
      event: { externalReferenceId: s.refB },
      tickets: { total: 2 },
    });
    expect((await listShowTickets(b1, getDb())).items.map((t) => t.ticketId)).toEqual(['B1', 'B1b']);
    // B's show under A's event is not a show of A.
    await expect(listShowTickets({ ...b1, eventId: s.eventPkOf(s.refA) }, getDb())).rejects.toSatisfy(
      (e) => e instanceof AppError && e.code === 'NOT_FOUND',
    );
  });
});

describe('feed PULL with two events sharing show ids', () => {
  let fake: FakePartner;
  let restoreEnv: () => void;
  beforeAll(async () => {
    fake = await FakePartner.start();
    restoreEnv = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: '1' });
  });
  afterAll(async () => {
    restoreEnv();
    await fake.close();
  });

  const feedShow = (showId: string, price: string, extra: Record<string, unknown> = {}) => ({
    showId,
    status: 'ON_SALE',
    dates: { startsAt: '2030-07-01T21:00:00+02:00' },
    ticketOptions: [{ ticketId: 'GA', title: 'General', currency: 'EUR', price }],
    ...extra,
  });
  const priceDetail = {
    priceTypes: [{ priceTypeId: 'adult' }, { priceTypeId: 'child' }],
    combinations: [{ ticketOptionId: 'GA', priceTypeId: 'child', price: '12.00' }],
  };

  it("creates both events and applies later changes to the named event's show only", async () => {
    const { partner, apiKey } = await makePartner('Show scope feed');
    await updateIntegration({ partnerId: partner.id, feedUrl: `${fake.origin}/feed` }, getDb());
    fake.feed = [
      { externalReferenceId: 'feed-a', title: 'A', shows: [feedShow('1', '30.00'), feedShow('2', '31.00')] },
      {
        externalReferenceId: 'feed-b',
        title: 'B',
        shows: [feedShow('1', '45.00', priceDetail), feedShow('2', '46.00')],
      },
    ];
    const first = await pullFeed(partner.id, getDb());
    expect(first).toMatchObject({ ok: true, result: { events: 2, created: 2, updated: 0, refused: [], error: null } });

    const prices = async (ref: string) =>
      (await getEvent(partner.id, ref, getDb())).shows.map((x) => [x.showId, x.status, x.ticketOptions[0].price]);
    expect(await prices('feed-a')).toEqual([
      ['1', 'LIVE', 30],
      ['2', 'LIVE', 31],
    ]);
    expect(await prices('feed-b')).toEqual([
      ['1', 'LIVE', 45],
      ['2', 'LIVE', 46],
    ]);
    const rows = await showRows(partner.id);
    const pk = (ref: string, showId: string) => rows.find((r) => r.ref === ref && r.showId === showId)!.pk;
    const combos = await getDb()
      .select({ showPk: combinations.showPk, priceMinor: combinations.priceMinor })
      .from(combinations)
      .where(eq(combinations.partnerId, partner.id));
    expect(combos).toEqual([{ showPk: pk('feed-b', '1'), priceMinor: 1200 }]);

    const sync = await syncTickets(apiKey, [ticket('feed-a', '1', 'FA1'), ticket('feed-b', '1', 'FB1')]);
    expect(sync.body.data.imported).toBe(2);

    // B's show "1" is cancelled and repriced by the feed; A's show "1" keeps its price and its ticket.
    fake.feed = [
      { externalReferenceId: 'feed-a', shows: [feedShow('1', '30.00')] },
      { externalReferenceId: 'feed-b', shows: [feedShow('1', '50.00', { status: 'CANCELLED' })] },
    ];
    const second = await pullFeed(partner.id, getDb());
    expect(second).toMatchObject({ ok: true, result: { created: 0, updated: 2, refused: [] } });
    expect(await prices('feed-a')).toEqual([
      ['1', 'LIVE', 30],
      ['2', 'LIVE', 31],
    ]);
    expect(await prices('feed-b')).toEqual([
      ['1', 'CANCELLED', 50],
      ['2', 'LIVE', 46],
    ]);
    const statusOf = await getDb()
      .select({ ticketId: tickets.ticketId, status: tickets.status })
      .from(tickets)
      .where(eq(tickets.partnerId, partner.id))
      .orderBy(asc(tickets.ticketId));
    expect(statusOf).toEqual([
      { ticketId: 'FA1', status: 'VALID' },
      { ticketId: 'FB1', status: 'INVALIDATED' },
    ]);
  });
});
