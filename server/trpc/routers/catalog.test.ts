import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { applyRules } from '@/server/modules/catalog';
import { rulesRequestSchema } from '@/server/modules/catalog';
import { eventCreateSchema, type EventCreateBody } from '@/server/modules/catalog';
import { createEvent } from '@/server/modules/catalog';
import { admitTicket, invalidateTicket } from '@/server/modules/tickets';
import { ticketsRequestSchema } from '@/server/modules/tickets';
import { acceptTickets, processBatch, syncTickets } from '@/server/modules/tickets';
import { makePartner } from '@/server/testing/fixtures';
import { createCallerFactory } from '../init';
import { appRouter } from '../router';

const createCaller = createCallerFactory(appRouter);
const staff = createCaller({ staff: { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' } });
const anonymous = createCaller({ staff: null });

const show = (showId: string, extra: Record<string, unknown> = {}) => ({
  title: `Show ${showId}`,
  date: '2027-06-01T20:00:00-03:00',
  showId,
  images: [],
  configuration: {},
  ticketOptions: [
    { title: 'General', ticketId: 'GA', description: 'g', currency: 'USD', price: 50 },
    { title: 'VIP', ticketId: 'VIP', description: 'v', currency: 'USD', price: '120.00' },
  ],
  ...extra,
});

async function pushEvent(partnerId: string, body: Partial<EventCreateBody> & { externalReferenceId: string }) {
  return createEvent(
    partnerId,
    eventCreateSchema.parse({
      title: `Event ${body.externalReferenceId}`,
      description: 'd',
      location: { city: 'Lima' },
      configuration: {},
      shows: [show(`${body.externalReferenceId}-S1`)],
      ...body,
    }),
    getDb(),
  );
}

const ticket = (ref: string, showId: string, ticketId: string, extra: Record<string, unknown> = {}) => ({
  externalReferenceEventId: ref,
  showId,
  ticketId,
  buyer: { email: `${ticketId.toLowerCase()}@fans.test`, fullName: `Fan ${ticketId}` },
  ticketAccess: { type: 'URL', locator: `https://tix.test/${ticketId}` },
  ticketOptionId: 'GA',
  ...extra,
});

/** Partner A: three events (the first Price Detail, with rules and tickets) and a batch with one failure. */
const a = { partnerId: '', eventId: '', otherEventId: '', showPk: '', standardShowPk: '', batchId: '' };
/** Partner B: one event, one show, one batch — ids that must never open A's data, nor A's open B's. */
const b = { partnerId: '', eventId: '', showPk: '', batchId: '' };
const REF = 'CONCERT/2027 #1'; // partner ids may hold any character

beforeAll(async () => {
  a.partnerId = (await makePartner('Browse A')).partner.id;
  b.partnerId = (await makePartner('Browse B')).partner.id;

  await pushEvent(a.partnerId, {
    externalReferenceId: REF,
    title: 'Summer Concert',
    shows: [
      show('A-S1', { priceTypes: [{ priceTypeId: 'ADULT', title: 'Adult' }, { priceTypeId: 'CHILD' }] }),
      show('A-S2'),
    ],
  });
  await pushEvent(a.partnerId, { externalReferenceId: 'THEATRE-2', title: 'Hamlet' });
  await pushEvent(a.partnerId, { externalReferenceId: 'FEST-3', title: 'Jazz Festival' });
  await applyRules(
    a.partnerId,
    rulesRequestSchema.parse([
      {
        externalReferenceEventId: REF,
        showId: 'A-S1',
        ticketOptionId: 'GA',
        priceTypeId: 'CHILD',
        price: '25.50',
        ruleType: 'COMBINATION',
        description: 'Kids',
      },
      {
        externalReferenceEventId: REF,
        showId: 'A-S1',
        ticketOptionId: 'GA',
        priceTypeId: 'ADULT',
        ruleType: 'COMBINATION',
      },
      { externalReferenceEventId: REF, ruleType: 'RESALE_ENABLED', rules: { enabled: true } },
      { externalReferenceEventId: REF, showId: 'A-S1', ruleType: 'PRICE_LIMITS', rules: { maxPercentOfFace: 120 } },
      {
        externalReferenceEventId: REF,
        showId: 'A-S1',
        ticketOptionId: 'VIP',
        ruleType: 'MAX_TICKETS_PER_LISTING',
        rules: { max: 2 },
      },
    ]),
    getDb(),
  );

  // Seven tickets on A-S1; T-005's buyer e-mail was sent in mixed case.
  const list = ['T-001', 'T-002', 'T-003', 'T-004', 'T-005', 'T-006', 'X-100'].map((id) =>
    ticket(REF, 'A-S1', id, id === 'T-005' ? { buyer: 'Mixed.Case@Fans.TEST' } : {}),
  );
  list[1] = { ...list[1], priceTypeId: 'CHILD' } as (typeof list)[number];
  const sync = await syncTickets(a.partnerId, ticketsRequestSchema.parse(list), getDb());
  expect(sync).toMatchObject({ imported: 7, failed: 0 });
  await syncTickets(a.partnerId, ticketsRequestSchema.parse([ticket(REF, 'A-S2', 'S2-001')]), getDb());
  await invalidateTicket(a.partnerId, 'T-003', getDb());
  await admitTicket(a.partnerId, 'T-004', getDb());

  const accepted = await acceptTickets(
    a.partnerId,
    ticketsRequestSchema.parse([
      ticket(REF, 'A-S2', 'B-001'),
      ticket(REF, 'A-S2', 'B-002', { ticketOptionId: 'NOPE' }),
      ticket(REF, 'A-S2', 'B-003'),
    ]),
    getDb(),
  );
  await processBatch(accepted.batchId, getDb());
  a.batchId = accepted.batchId;

  await pushEvent(b.partnerId, { externalReferenceId: REF, title: 'B Concert', shows: [show('B-S1')] });
  const acceptedB = await acceptTickets(
    b.partnerId,
    ticketsRequestSchema.parse([ticket(REF, 'B-S1', 'T-001')]),
    getDb(),
  );
  await processBatch(acceptedB.batchId, getDb());
  b.batchId = acceptedB.batchId;

  const listA = await staff.catalog.events({ partnerId: a.partnerId, search: 'Summer' });
  a.eventId = listA.items[0].id;
  a.otherEventId = (await staff.catalog.events({ partnerId: a.partnerId, search: 'Hamlet' })).items[0].id;
  const detailA = await staff.catalog.event({ partnerId: a.partnerId, eventId: a.eventId });
  a.showPk = detailA.shows[0].id;
  a.standardShowPk = detailA.shows[1].id;
  b.eventId = (await staff.catalog.events({ partnerId: b.partnerId })).items[0].id;
  b.showPk = (await staff.catalog.event({ partnerId: b.partnerId, eventId: b.eventId })).shows[0].id;
});

describe('catalog router', () => {
  it('refuses callers who are not signed in', async () => {
    await expect(anonymous.catalog.events({ partnerId: a.partnerId })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(anonymous.catalog.batch({ partnerId: a.partnerId, batchId: a.batchId })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('answers BAD_REQUEST, not an internal error, for a value PostgreSQL refuses (a NUL in a search)', async () => {
    const { partner } = await makePartner('Catalog NUL search');
    await expect(staff.catalog.searchTickets({ partnerId: partner.id, query: 'a\u0000' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('lists events newest first with show and ticket counts, paginated and searchable', async () => {
    const first = await staff.catalog.events({ partnerId: a.partnerId, pageSize: 2 });
    expect(first).toMatchObject({ total: 3, page: 1, pageSize: 2, pageCount: 2 });
    expect(first.items.map((e) => e.title)).toEqual(['Jazz Festival', 'Hamlet']);
    const second = await staff.catalog.events({ partnerId: a.partnerId, pageSize: 2, page: 2 });
    expect(second.items).toHaveLength(1);
    expect(second.items[0]).toMatchObject({
      title: 'Summer Concert',
      externalReferenceId: REF,
      showCount: 2,
      ticketCount: 10, // 7 + 1 on A-S2 by sync, 2 imported by the batch
    });
    expect(second.items[0].firstShowAt).toEqual(new Date('2027-06-01T23:00:00Z'));

    // By part of the title (any case) or of the partner's id, with LIKE wildcards taken literally.
    expect((await staff.catalog.events({ partnerId: a.partnerId, search: 'jazz' })).items.map((e) => e.title)).toEqual([
      'Jazz Festival',
    ]);
    expect((await staff.catalog.events({ partnerId: a.partnerId, search: '2027 #' })).total).toBe(1);
    expect((await staff.catalog.events({ partnerId: a.partnerId, search: '%' })).total).toBe(0);
    // Partner B's list holds only its own event, though it reuses A's externalReferenceId.
    const listB = await staff.catalog.events({ partnerId: b.partnerId });
    expect(listB.items.map((e) => e.title)).toEqual(['B Concert']);
  });

  it('shows an event through getEvent, with combinations (price wins) and rules grouped by scope', async () => {
    const detail = await staff.catalog.event({ partnerId: a.partnerId, eventId: a.eventId });
    expect(detail.event).toMatchObject({ title: 'Summer Concert', externalReferenceId: REF });
    expect(detail.event.shows.map((s) => s.showId)).toEqual(['A-S1', 'A-S2']);
    expect(detail.event.shows[0].priceTypes?.map((p) => p.priceTypeId)).toEqual(['ADULT', 'CHILD']);
    const [s1, s2] = detail.shows;
    expect(s1).toMatchObject({ showId: 'A-S1', tickets: { total: 7, valid: 6, invalidated: 1, admitted: 1 } });
    expect(s1.id).toMatch(/^shw_/);
    expect(s1.combinations).toEqual([
      {
        ticketOptionId: 'GA',
        priceTypeId: 'ADULT',
        currency: 'USD',
        price: null,
        optionPrice: 50,
        faceValue: 50,
        priceFrom: 'option',
        description: null,
      },
      {
        ticketOptionId: 'GA',
        priceTypeId: 'CHILD',
        currency: 'USD',
        price: 25.5,
        optionPrice: 50,
        faceValue: 25.5,
        priceFrom: 'combination',
        description: 'Kids',
      },
    ]);
    expect(s2).toMatchObject({ showId: 'A-S2', combinations: [], tickets: { total: 3 } });
    expect(detail.ruleGroups.map((g) => [g.level, g.showId, g.ticketOptionId, g.rules.map((r) => r.ruleType)])).toEqual(
      [
        ['event', null, null, ['RESALE_ENABLED']],
        ['show', 'A-S1', null, ['PRICE_LIMITS']],
        ['ticketOption', 'A-S1', 'VIP', ['MAX_TICKETS_PER_LISTING']],
      ],
    );
    expect(detail.ruleGroups[2].rules[0].rules).toEqual({ max: 2 });
  });

  it('pages a show’s tickets by ticketId in both directions, with their status', async () => {
    const ref = { partnerId: a.partnerId, eventId: a.eventId, showId: a.showPk, pageSize: 3 };
    const p1 = await staff.catalog.showTickets(ref);
    expect(p1).toMatchObject({ total: 7, offset: 0, prevCursor: null, nextCursor: 'T-003' });
    expect(p1.items.map((t) => t.ticketId)).toEqual(['T-001', 'T-002', 'T-003']);
    expect(p1.items[1]).toMatchObject({ priceTypeId: 'CHILD', price: 25.5, currency: 'USD', status: 'VALID' });
    expect(p1.items[0]).toMatchObject({ buyerEmail: 't-001@fans.test', buyerName: 'Fan T-001', price: 50 });
    expect(p1.items[2]).toMatchObject({ status: 'INVALIDATED', admittedAt: null });

    const p2 = await staff.catalog.showTickets({ ...ref, after: p1.nextCursor! });
    expect(p2).toMatchObject({ offset: 3, prevCursor: 'T-004', nextCursor: 'T-006' });
    expect(p2.items.map((t) => t.ticketId)).toEqual(['T-004', 'T-005', 'T-006']);
    expect(p2.items[0].status).toBe('VALID');
    expect(p2.items[0].admittedAt).toBeInstanceOf(Date);
    const p3 = await staff.catalog.showTickets({ ...ref, after: p2.nextCursor! });
    expect(p3).toMatchObject({ offset: 6, nextCursor: null, prevCursor: 'X-100' });
    expect(p3.items.map((t) => t.ticketId)).toEqual(['X-100']);

    // Back from the last page lands on exactly the page before it, then on the first.
    const back = await staff.catalog.showTickets({ ...ref, before: p3.prevCursor! });
    expect(back.items.map((t) => t.ticketId)).toEqual(['T-004', 'T-005', 'T-006']);
    expect(back).toMatchObject({ offset: 3, prevCursor: 'T-004', nextCursor: 'T-006' });
    const front = await staff.catalog.showTickets({ ...ref, before: back.prevCursor! });
    expect(front).toMatchObject({ offset: 0, prevCursor: null, nextCursor: 'T-003' });

    await expect(staff.catalog.showTickets({ ...ref, after: 'T-001', before: 'T-009' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('finds tickets by ticketId prefix and by whole buyer e-mail in any case', async () => {
    const ref = { partnerId: a.partnerId, eventId: a.eventId, showId: a.showPk };
    const prefix = await staff.catalog.showTickets({ ...ref, search: 'T-00' });
    expect(prefix.total).toBe(6);
    expect(prefix.items.map((t) => t.ticketId)).not.toContain('X-100');
    expect((await staff.catalog.showTickets({ ...ref, search: 't-00' })).total).toBe(0); // ids are exact
    expect((await staff.catalog.showTickets({ ...ref, search: 'X-100' })).items.map((t) => t.ticketId)).toEqual([
      'X-100',
    ]);

    const byMail = await staff.catalog.showTickets({ ...ref, search: '  MIXED.case@fans.test ' });
    expect(byMail.items.map((t) => [t.ticketId, t.buyerEmail, t.buyerName])).toEqual([
      ['T-005', 'mixed.case@fans.test', null],
    ]);
    expect((await staff.catalog.showTickets({ ...ref, search: 'T-002@FANS.test' })).items[0].ticketId).toBe('T-002');
    // A part of an e-mail is not a match (the index serves whole addresses).
    expect((await staff.catalog.showTickets({ ...ref, search: 'mixed.case' })).total).toBe(0);
    // Another show's tickets never appear, even when the search would match them.
    const s2 = await staff.catalog.showTickets({ ...ref, showId: a.standardShowPk, search: 'T-' });
    expect(s2.total).toBe(0);

    const summary = await staff.catalog.show(ref);
    expect(summary).toMatchObject({
      showId: 'A-S1',
      status: 'LIVE',
      event: { id: a.eventId, externalReferenceId: REF, title: 'Summer Concert' },
      tickets: { total: 7, valid: 6, invalidated: 1, admitted: 1 },
    });
  });

  it('lists batches with their counts and shows a batch’s failed tickets with their errors, paginated', async () => {
    const list = await staff.catalog.batches({ partnerId: a.partnerId });
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({
      id: a.batchId,
      status: 'completed',
      total: 3,
      imported: 2,
      failed: 1,
      pending: 0,
    });
    expect(list.items[0].completedAt).toBeInstanceOf(Date);

    const detail = await staff.catalog.batch({ partnerId: a.partnerId, batchId: a.batchId });
    expect(detail.batch).toMatchObject({ id: a.batchId, imported: 2, failed: 1 });
    expect(detail.pageCount).toBe(1);
    expect(detail.failedItems).toEqual([
      {
        position: 1,
        ticketId: 'B-002',
        errors: [{ path: 'ticketOptionId', message: "must equal a ticketId of the show's ticket options" }],
      },
    ]);
    const past = await staff.catalog.batch({ partnerId: a.partnerId, batchId: a.batchId, page: 2 });
    expect(past.failedItems).toEqual([]);
  });

  it('answers NOT_FOUND for another partner’s ids and for a wrong event/show pairing, never data', async () => {
    const notFound = { code: 'NOT_FOUND' };
    // A's ids asked under B.
    await expect(staff.catalog.event({ partnerId: b.partnerId, eventId: a.eventId })).rejects.toMatchObject(notFound);
    await expect(
      staff.catalog.show({ partnerId: b.partnerId, eventId: a.eventId, showId: a.showPk }),
    ).rejects.toMatchObject(notFound);
    await expect(
      staff.catalog.showTickets({ partnerId: b.partnerId, eventId: a.eventId, showId: a.showPk }),
    ).rejects.toMatchObject(notFound);
    await expect(staff.catalog.batch({ partnerId: b.partnerId, batchId: a.batchId })).rejects.toMatchObject(notFound);
    // B's own event with A's show, and A's event with B's show.
    await expect(
      staff.catalog.showTickets({ partnerId: b.partnerId, eventId: b.eventId, showId: a.showPk }),
    ).rejects.toMatchObject(notFound);
    await expect(
      staff.catalog.showTickets({ partnerId: a.partnerId, eventId: a.eventId, showId: b.showPk }),
    ).rejects.toMatchObject(notFound);
    // A show under another event of the same partner.
    await expect(
      staff.catalog.show({ partnerId: a.partnerId, eventId: a.otherEventId, showId: a.showPk }),
    ).rejects.toMatchObject(notFound);
    await expect(staff.catalog.event({ partnerId: a.partnerId, eventId: 'evt_nope' })).rejects.toMatchObject(notFound);
    // B's batches hold only B's batch.
    expect((await staff.catalog.batches({ partnerId: b.partnerId })).items.map((x) => x.id)).toEqual([b.batchId]);
  });
});
