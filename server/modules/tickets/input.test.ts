import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as cancel } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { POST as applyRules } from '@/app/v1/events/rules/route';
import { PUT as updateEvent } from '@/app/v1/events/route';
import { GET as salePublicUrl } from '@/app/v1/events/tickets/salePublicUrl/route';
import { GET as getBatch } from '@/app/v1/tickets/batches/[batchId]/route';
import { getDb } from '@/db';
import { shows, ticketBatches, tickets } from '@/db/schema';
import { apiRequest, makePartner, pushEvent, routeParams, testShow } from '@/server/testing/fixtures';
import {
  admit,
  admitMany,
  deleteTicket,
  json,
  putTicket,
  queueTickets,
  syncTickets,
} from '@/server/testing/ticket-api';

let seq = 0;
const uid = () => `${Date.now()}-${++seq}`;

const priceTypes = [{ priceTypeId: 'ADULT' }, { priceTypeId: 'CHILD' }];
const newEvent = (key: string, ref: string, showIds: string[]) =>
  pushEvent(
    key,
    ref,
    showIds.map((id) => testShow(id, { priceTypes })),
  );

/**
 * A fresh partner with a two-show event (`ref`: S1, S2) and a one-show event (`single`: its show `solo`),
 * every show with option GA (40.00 EUR) and price types ADULT and CHILD; GA + ADULT is a declared
 * combination on S1.
 */
async function setup() {
  const partner = await makePartner('Input');
  const ref = `IN-${uid()}`;
  const single = `IN1-${uid()}`;
  const s = { ...partner, ref, s1: `${ref}-S1`, s2: `${ref}-S2`, single, solo: `${single}-S` };
  await newEvent(partner.apiKey, ref, [s.s1, s.s2]);
  await newEvent(partner.apiKey, single, [s.solo]);
  const rules = await applyRules(
    apiRequest('/v1/events/rules', {
      key: partner.apiKey,
      body: [
        {
          externalReferenceEventId: ref,
          showId: s.s1,
          ticketOptionId: 'GA',
          priceTypeId: 'ADULT',
          price: 30,
          ruleType: 'COMBINATION',
        },
      ],
    }),
  );
  expect(rules.status).toBe(200);
  return s;
}
type Setup = Awaited<ReturnType<typeof setup>>;

const ticket = (s: Setup, ticketId: string, extra: Record<string, unknown> = {}) => ({
  externalReferenceEventId: s.ref,
  showId: s.s1,
  buyer: 'fan@example.com',
  ticketId,
  ticketAccess: { type: 'OTHER', locator: `CODE-${ticketId}` },
  ticketOptionId: 'GA',
  ...extra,
});

/** The ticket without one of its fields. */
function without(t: Record<string, unknown>, field: string) {
  const copy = { ...t };
  delete copy[field];
  return copy;
}

const sync = syncTickets;
const queue = queueTickets;
const saleUrl = (key: string, query: string) =>
  salePublicUrl(apiRequest(`/v1/events/tickets/salePublicUrl${query}`, { key })).then(json);
const cancelShow = (key: string, ref: string, query = '') =>
  cancel(
    apiRequest(`/v1/events/${ref}/cancellation${query}`, { method: 'POST', key }),
    routeParams({ externalReferenceId: ref }),
  ).then(json);

const ticketRows = (partnerId: string) => getDb().select().from(tickets).where(eq(tickets.partnerId, partnerId));
async function ticketRow(partnerId: string, ticketId: string) {
  const [row] = await getDb()
    .select()
    .from(tickets)
    .where(and(eq(tickets.partnerId, partnerId), eq(tickets.ticketId, ticketId)));
  return row;
}
async function showPk(partnerId: string, showId: string) {
  const [row] = await getDb()
    .select({ pk: shows.id })
    .from(shows)
    .where(and(eq(shows.partnerId, partnerId), eq(shows.showId, showId)));
  return row.pk;
}

const RANGE_EMPTY = 'Too small: expected string to have >=1 characters';

describe('POST /v1/sync/tickets: shape', () => {
  it('answers 400 naming [i].field for each missing required field, and imports nothing', async () => {
    const s = await setup();
    const required = ['externalReferenceEventId', 'buyer', 'ticketId', 'ticketAccess', 'ticketOptionId'];
    const res = await sync(
      s.apiKey,
      required.map((field, i) => without(ticket(s, `M${i}`), field)),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, data: null, errors: { code: 'VALIDATION_FAILED' } });
    expect(res.body.errors.message).toBe(
      'Invalid request body: [0].externalReferenceEventId is required (and 4 more problems)',
    );
    expect(res.body.errors.details).toEqual(
      required.map((field, i) => ({ path: `[${i}].${field}`, message: 'is required', in: 'body' })),
    );
    expect(await ticketRows(s.partner.id)).toEqual([]);
  });

  it('says what a buyer must be when it is neither an e-mail string nor an object', async () => {
    const s = await setup();
    const res = await sync(s.apiKey, [ticket(s, 'W0', { buyer: 42 }), ticket(s, 'W1', { buyer: null })]);
    expect(res.status).toBe(400);
    expect(res.body.errors.details).toEqual(
      [0, 1].map((i) => ({
        path: `[${i}].buyer`,
        message: 'must be an e-mail string or an object with email, phone or id',
        in: 'body',
      })),
    );
  });

  it('refuses tags that are not key:value strings, naming each', async () => {
    const s = await setup();
    const res = await sync(s.apiKey, [
      ticket(s, 'G0', { tags: ['section:A', 'vip', 'row: 12'] }),
      ticket(s, 'G1', { tags: [':value', 'key:'] }),
    ]);
    expect(res.status).toBe(400);
    expect(res.body.errors.details).toEqual([
      { path: '[0].tags[1]', message: 'must be a key:value string', in: 'body' },
      { path: '[1].tags[0]', message: 'must be a key:value string', in: 'body' },
      { path: '[1].tags[1]', message: 'must be a key:value string', in: 'body' },
    ]);
  });

  it('refuses a primarySalesFee type other than FIXED or PERCENTAGE, and a negative value', async () => {
    const s = await setup();
    const res = await sync(s.apiKey, [
      ticket(s, 'F0', { primarySalesFee: { type: 'FLAT', value: 2 } }),
      ticket(s, 'F1', { primarySalesFee: { type: 'PERCENTAGE', value: -0.5 } }),
    ]);
    expect(res.status).toBe(400);
    expect(res.body.errors.details).toEqual([
      { path: '[0].primarySalesFee.type', message: 'Invalid option: expected one of "FIXED"|"PERCENTAGE"', in: 'body' },
      { path: '[1].primarySalesFee.value', message: 'Too small: expected number to be >=0', in: 'body' },
    ]);
  });

  it('refuses an empty ticketAccess.locator and a ticketId over 200 characters; 200 is accepted', async () => {
    const s = await setup();
    const res = await sync(s.apiKey, [
      ticket(s, 'A0', { ticketAccess: { type: 'URL', locator: '' } }),
      ticket(s, 'x'.repeat(201)),
    ]);
    expect(res.status).toBe(400);
    expect(res.body.errors.details).toEqual([
      { path: '[0].ticketAccess.locator', message: RANGE_EMPTY, in: 'body' },
      { path: '[1].ticketId', message: 'Too big: expected string to have <=200 characters', in: 'body' },
    ]);
    expect(await ticketRows(s.partner.id)).toEqual([]);
    const longest = await sync(s.apiKey, [ticket(s, 'x'.repeat(200))]);
    expect(longest.status).toBe(200);
    expect(longest.body.data).toMatchObject({ imported: 1, failed: 0 });
  });
});

describe('POST /v1/sync/tickets: against the catalogue', () => {
  it('stores unknown extra keys inside ticketAccess', async () => {
    const s = await setup();
    const access = {
      type: 'URL',
      locator: 'https://qr.example/K1.png',
      status: 'LOCKED',
      pdfUrl: 'https://qr.example/K1.pdf',
      gate: { name: 'North', door: 3 },
    };
    const res = await sync(s.apiKey, [ticket(s, 'K1', { ticketAccess: access, tags: ['section:A'] })]);
    expect(res.body.data).toMatchObject({ imported: 1, failed: 0 });
    const row = await ticketRow(s.partner.id, 'K1');
    expect(row.data).toEqual({ ticketAccess: access, tags: ['section:A'] });
  });

  it('fails a showId that is not of the event and an unknown priceTypeId, naming the field', async () => {
    const s = await setup();
    const res = await sync(s.apiKey, [
      ticket(s, 'W1', { showId: s.solo }), // a show of the partner's other event
      ticket(s, 'W2', { showId: 'no-such-show' }),
      ticket(s, 'W3', { priceTypeId: 'SENIOR' }),
      ticket(s, 'W4', { priceTypeId: 'ADULT' }),
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ imported: 1, failed: 3 });
    const [w1, w2, w3, w4] = res.body.data.tickets;
    expect(w1).toMatchObject({ ticketId: 'W1', status: 'failed' });
    expect(w1.errors).toEqual([{ path: 'showId', message: 'does not belong to the event' }]);
    expect(w2.errors).toEqual([{ path: 'showId', message: 'does not belong to the event' }]);
    expect(w3).toMatchObject({ ticketId: 'W3', status: 'failed' });
    expect(w3.errors).toEqual([{ path: 'priceTypeId', message: "must equal a priceTypeId of the show's price types" }]);
    expect(w4).toMatchObject({ ticketId: 'W4', status: 'imported' });
    expect((await ticketRows(s.partner.id)).map((r) => r.ticketId)).toEqual(['W4']);
  });

  it('imports a ticket without showId into the only show of its event; with two shows, showId is required', async () => {
    const s = await setup();
    const res = await sync(s.apiKey, [
      without(ticket(s, 'O1', { externalReferenceEventId: s.single }), 'showId'),
      without(ticket(s, 'O2'), 'showId'),
    ]);
    expect(res.status).toBe(200);
    const [o1, o2] = res.body.data.tickets;
    expect(o1).toMatchObject({ ticketId: 'O1', status: 'imported' });
    expect(o2).toMatchObject({ ticketId: 'O2', status: 'failed' });
    expect(o2.errors).toEqual([{ path: 'showId', message: 'is required: the event has several shows' }]);
    const row = await ticketRow(s.partner.id, 'O1');
    expect(row.showPk).toBe(await showPk(s.partner.id, s.solo));
    expect(row).toMatchObject({ id: o1.id, priceMinor: 4000, currency: 'EUR', status: 'VALID' });
    expect(await ticketRow(s.partner.id, 'O2')).toBeUndefined();
  });
});

describe('POST /v1/tickets (queued): refused requests store nothing', () => {
  it('answers 400 for an empty array, a malformed item, a repeated ticketId and more than 10,000 tickets', async () => {
    const s = await setup();
    const empty = await queue(s.apiKey, []);
    expect(empty.status).toBe(400);
    expect(empty.body.errors.details).toEqual([{ path: '', message: 'at least one ticket is required', in: 'body' }]);

    const malformed = await queue(s.apiKey, [
      ticket(s, 'Q0'),
      ticket(s, 'Q1', { ticketOptionId: '' }),
      ticket(s, 'Q2', { ticketAccess: { type: 'PDF', locator: 'x' } }),
    ]);
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors.details).toEqual([
      { path: '[1].ticketOptionId', message: RANGE_EMPTY, in: 'body' },
      { path: '[2].ticketAccess.type', message: 'Invalid option: expected one of "URL"|"API"|"OTHER"', in: 'body' },
    ]);

    const repeated = await queue(s.apiKey, [ticket(s, 'Q0'), ticket(s, 'Q1'), ticket(s, 'Q0')]);
    expect(repeated.status).toBe(400);
    expect(repeated.body.errors.details).toEqual([
      { path: '[2].ticketId', message: 'repeats [0].ticketId "Q0"', in: 'body' },
    ]);
    // Named beside other problems too, so one answer lists everything to fix.
    const both = await queue(s.apiKey, [ticket(s, 'Q0'), ticket(s, 'Q0', { ticketOptionId: '' })]);
    expect(both.body.errors.details).toEqual([
      { path: '[1].ticketOptionId', message: RANGE_EMPTY, in: 'body' },
      { path: '[1].ticketId', message: 'repeats [0].ticketId "Q0"', in: 'body' },
    ]);

    const tooMany = await queue(
      s.apiKey,
      Array.from({ length: 10_001 }, (_, i) => ticket(s, `N${i}`)),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.details).toEqual([
      { path: '', message: 'at most 10000 tickets per request', in: 'body' },
    ]);

    const batches = await getDb().select().from(ticketBatches).where(eq(ticketBatches.partnerId, s.partner.id));
    expect(batches).toEqual([]);
    expect(await ticketRows(s.partner.id)).toEqual([]);
  });
});

describe('PUT /v1/tickets/{ticketId}: input', () => {
  it('answers 400 naming a malformed field, and changes nothing', async () => {
    const s = await setup();
    expect((await sync(s.apiKey, [ticket(s, 'P1')])).body.data.imported).toBe(1);
    const before = await ticketRow(s.partner.id, 'P1');

    const badType = await putTicket(s.apiKey, 'P1', { ticketAccess: { type: 'QR', locator: 'x' } });
    expect(badType.status).toBe(400);
    expect(badType.body.errors.details).toEqual([
      { path: 'ticketAccess.type', message: 'Invalid option: expected one of "URL"|"API"|"OTHER"', in: 'body' },
    ]);

    const emptyType = await putTicket(s.apiKey, 'P1', { priceTypeId: '' });
    expect(emptyType.status).toBe(400);
    expect(emptyType.body.errors.details).toEqual([{ path: 'priceTypeId', message: RANGE_EMPTY, in: 'body' }]);

    expect(await ticketRow(s.partner.id, 'P1')).toEqual(before);
  });

  it('refuses to move a ticket to an unknown event with 400 naming externalReferenceEventId', async () => {
    const s = await setup();
    expect((await sync(s.apiKey, [ticket(s, 'P2')])).body.data.imported).toBe(1);
    const before = await ticketRow(s.partner.id, 'P2');
    const res = await putTicket(s.apiKey, 'P2', { externalReferenceEventId: `nope-${uid()}` });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, data: null, errors: { code: 'VALIDATION_FAILED' } });
    expect(res.body.errors.message).toBe('Invalid request body: externalReferenceEventId Event not found');
    expect(res.body.errors.details).toEqual([
      { path: 'externalReferenceEventId', message: 'Event not found', in: 'body' },
    ]);
    expect(await ticketRow(s.partner.id, 'P2')).toEqual(before);
  });
});

describe('unknown tickets of the calling partner', () => {
  it('answers 404 to DELETE and to POST …/eventAdmission', async () => {
    const s = await setup();
    const removed = await deleteTicket(s.apiKey, 'NOPE');
    expect(removed).toEqual({
      status: 404,
      body: { status: 404, data: null, errors: { message: 'Ticket not found', code: 'NOT_FOUND' } },
    });
    const admitted = await admit(s.apiKey, 'NOPE');
    expect(admitted).toEqual({
      status: 404,
      body: { status: 404, data: null, errors: { message: 'Ticket not found', code: 'NOT_FOUND' } },
    });
  });
});

describe('POST /v1/tickets/batch/eventAdmission: input', () => {
  it("reports another partner's ticketId as not found and records nothing", async () => {
    const s = await setup();
    const other = await setup();
    expect((await sync(s.apiKey, [ticket(s, 'H1')])).body.data.imported).toBe(1);
    expect((await sync(other.apiKey, [ticket(other, 'H2')])).body.data.imported).toBe(1);
    const res = await admitMany(s.apiKey, [
      { ticketId: 'H1', entryDate: '2027-06-01T20:05:00Z' },
      { ticketId: 'H2', entryDate: '2027-06-01T20:06:00Z' },
    ]);
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual({
      message: 'No admission was recorded: 1 of 2 cannot be admitted',
      code: 'CONFLICT',
      details: [{ path: '[1].ticketId', message: 'Ticket not found', in: 'body' }],
    });
    expect((await ticketRow(s.partner.id, 'H1')).admittedAt).toBeNull();
    expect((await ticketRow(other.partner.id, 'H2')).admittedAt).toBeNull();
  });

  it('answers 400 for a missing ticketId or entryDate, an empty array and more than 1000 items', async () => {
    const s = await setup();
    const missing = await admitMany(s.apiKey, [
      { ticketId: 'H1', entryDate: '2027-06-01T20:05:00Z' },
      { entryDate: '2027-06-01T20:05:00Z' },
      { ticketId: 'H3' },
    ]);
    expect(missing.status).toBe(400);
    expect(missing.body.errors.details).toEqual([
      { path: '[1].ticketId', message: 'is required', in: 'body' },
      { path: '[2].entryDate', message: 'is required', in: 'body' },
    ]);

    const empty = await admitMany(s.apiKey, []);
    expect(empty.status).toBe(400);
    expect(empty.body.errors.details).toEqual([
      { path: '', message: 'at least one admission is required', in: 'body' },
    ]);

    const tooMany = await admitMany(
      s.apiKey,
      Array.from({ length: 1001 }, (_, i) => ({ ticketId: `H${i}`, entryDate: '2027-06-01T20:05:00Z' })),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.details).toEqual([
      { path: '', message: 'at most 1000 admissions per request', in: 'body' },
    ]);
  });
});

describe('GET /v1/events/tickets/salePublicUrl: input', () => {
  it('answers 400 for a missing ticketId or a malformed lang, and 404 for an unknown ticket', async () => {
    const s = await setup();
    expect((await sync(s.apiKey, [ticket(s, 'U1')])).body.data.imported).toBe(1);

    const noTicket = await saleUrl(s.apiKey, '?lang=es');
    expect(noTicket.status).toBe(400);
    expect(noTicket.body.errors.details).toEqual([{ path: 'ticketId', message: 'is required', in: 'query' }]);

    for (const lang of ['ES', 'english', 'pt-br', 'pt_BR']) {
      const bad = await saleUrl(s.apiKey, `?ticketId=U1&lang=${lang}`);
      expect(bad.status).toBe(400);
      expect(bad.body.errors.details).toEqual([
        { path: 'lang', message: 'must be a language code such as es or pt-BR', in: 'query' },
      ]);
    }
    expect((await saleUrl(s.apiKey, '?ticketId=U1&lang=pt-BR')).status).toBe(200);

    const unknown = await saleUrl(s.apiKey, '?ticketId=NOPE&lang=es');
    expect(unknown).toEqual({
      status: 404,
      body: { status: 404, data: null, errors: { message: 'Ticket not found', code: 'NOT_FOUND' } },
    });
  });
});

describe('GET /v1/tickets/batches/{batchId}', () => {
  it('answers 404 for an unknown batch id of the calling partner', async () => {
    const s = await setup();
    const batchId = `tbt_unknown${uid()}`;
    const res = await getBatch(
      apiRequest(`/v1/tickets/batches/${batchId}`, { key: s.apiKey }),
      routeParams({ batchId }),
    );
    expect(await json(res)).toEqual({
      status: 404,
      body: { status: 404, data: null, errors: { message: 'Ticket batch not found', code: 'NOT_FOUND' } },
    });
  });
});

describe('show cancellation and its tickets', () => {
  async function withTickets() {
    const s = await setup();
    const res = await sync(s.apiKey, [
      ticket(s, 'A1'),
      ticket(s, 'A2'),
      ticket(s, 'B1', { showId: s.s2 }),
      ticket(s, 'B2', { showId: s.s2 }),
    ]);
    expect(res.body.data.imported).toBe(4);
    return s;
  }
  const statuses = async (partnerId: string) =>
    Object.fromEntries(
      (await ticketRows(partnerId)).map((r) => [
        r.ticketId,
        { status: r.status, invalidated: r.invalidatedAt !== null },
      ]),
    );

  it("POST …/cancellation?showId= invalidates that show's tickets only", async () => {
    const s = await withTickets();
    const res = await cancelShow(s.apiKey, s.ref, `?showId=${s.s1}`);
    expect(res.status).toBe(200);
    expect(res.body.data.shows.map((x: { status: string }) => x.status)).toEqual(['CANCELLED', 'LIVE']);
    expect(await statuses(s.partner.id)).toEqual({
      A1: { status: 'INVALIDATED', invalidated: true },
      A2: { status: 'INVALIDATED', invalidated: true },
      B1: { status: 'VALID', invalidated: false },
      B2: { status: 'VALID', invalidated: false },
    });
    expect((await admit(s.apiKey, 'B1')).status).toBe(200);
  });

  it("PUT /v1/events with a show's status CANCELLED invalidates its tickets", async () => {
    const s = await withTickets();
    const res = await updateEvent(
      apiRequest('/v1/events', {
        method: 'PUT',
        key: s.apiKey,
        body: { externalReferenceId: s.ref, shows: [{ showId: s.s2, status: 'CANCELLED' }] },
      }),
    );
    expect(res.status).toBe(200);
    expect(await statuses(s.partner.id)).toEqual({
      A1: { status: 'VALID', invalidated: false },
      A2: { status: 'VALID', invalidated: false },
      B1: { status: 'INVALIDATED', invalidated: true },
      B2: { status: 'INVALIDATED', invalidated: true },
    });
    const admitted = await admit(s.apiKey, 'B1');
    expect(admitted.status).toBe(409);
    expect(admitted.body.errors.message).toBe(
      'The show is cancelled; its tickets are invalid and cannot be changed or admitted',
    );
  });

  it('answers 400 for an empty ?showId= and cancels nothing', async () => {
    const s = await withTickets();
    const res = await cancelShow(s.apiKey, s.ref, '?showId=');
    expect(res.status).toBe(400);
    expect(res.body.errors.details).toEqual([{ path: 'showId', message: RANGE_EMPTY, in: 'query' }]);
    const [a1, b1] = await Promise.all([ticketRow(s.partner.id, 'A1'), ticketRow(s.partner.id, 'B1')]);
    expect([a1.status, b1.status]).toEqual(['VALID', 'VALID']);
    const stored = await getDb().select({ status: shows.status }).from(shows).where(eq(shows.partnerId, s.partner.id));
    expect(stored.map((x) => x.status)).toEqual(['LIVE', 'LIVE', 'LIVE']);
  });
});
