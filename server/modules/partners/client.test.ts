import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { AppError } from '@/server/lib/errors';
import { setEnv } from '@/server/testing/env';
import { FakePartner, fakeFeedEvent, fakeTicket } from '@/server/testing/fake-partner';
import { makePartner } from '@/server/testing/fixtures';
import { applyFieldMap, PartnerCallError, testVerification, verificationRequestUrl, verifyTickets } from './client';
import { fetchEventFeed, fetchFeedNow } from '@/server/modules/catalog';
import { getIntegration, updateIntegration } from './integration';
import type { UpdateIntegrationInput } from './schemas';

let fake: FakePartner;
let restoreEnv: () => void;
beforeAll(async () => {
  fake = await FakePartner.start();
  restoreEnv = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: '1' });
});
beforeEach(() => fake.reset());
afterAll(async () => {
  restoreEnv();
  await fake.close();
});

const FAN = 'fan+resale@example.com';
const TOKEN = 'tok_partner_0123456789abcdef';

/** A partner whose integration points at the fake partner (verification under /api/). */
async function configuredPartner(settings: Omit<UpdateIntegrationInput, 'partnerId'> = {}) {
  const { partner } = await makePartner('Client');
  await updateIntegration(
    {
      partnerId: partner.id,
      verificationUrl: `${fake.origin}/api`,
      feedUrl: `${fake.origin}/feed`,
      authHeaderName: 'X-Partner-Token',
      authHeaderValue: TOKEN,
      ...settings,
    },
    getDb(),
  );
  return partner.id;
}

async function callError(p: Promise<unknown>): Promise<PartnerCallError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PartnerCallError);
  return err as PartnerCallError;
}

describe('verifyTickets', () => {
  it('asks the partner fresh, with its auth header and no caching, and keeps only VALID tickets', async () => {
    const partnerId = await configuredPartner();
    const valid = fakeTicket({ ticketId: 'T-1', price: '45.50', status: 'VALID' });
    const lower = fakeTicket({ ticketId: 'T-2', price: 30, currency: 'eur', status: 'valid', showId: null });
    const cancelled = fakeTicket({ ticketId: 'T-3', status: 'CANCELLED' });
    fake.setTickets(FAN, [valid, lower, cancelled]);

    const result = await verifyTickets(partnerId, FAN, getDb());
    expect(result.userEmail).toBe(FAN);
    expect(result.tickets).toEqual([
      {
        ticketId: 'T-1',
        externalReferenceEventId: 'evt-1',
        showId: 'show-1',
        ticketOptionId: 'opt-1',
        price: '45.50',
        priceMinor: 4550,
        currency: 'EUR',
        status: 'VALID',
        tags: ['section:A', 'row:12'],
      },
      expect.objectContaining({ ticketId: 'T-2', showId: null, priceMinor: 3000, currency: 'EUR', status: 'VALID' }),
    ]);
    expect(result.ineligible).toEqual([
      { ticket: expect.objectContaining({ ticketId: 'T-3' }), reason: 'status is CANCELLED, not VALID' },
    ]);

    const [req] = fake.requests;
    expect(req.path).toBe('/api/tickets');
    expect(req.query.get('user')).toBe(FAN);
    expect(req.headers['x-partner-token']).toBe(TOKEN);
    expect(req.headers['cache-control']).toBe('no-cache');
    expect(req.headers.accept).toBe('application/json');

    // Never cached: a second call asks again and sees the partner's new truth.
    fake.setTickets(FAN, [cancelled]);
    const again = await verifyTickets(partnerId, FAN, getDb());
    expect(again.tickets).toEqual([]);
    expect(fake.requestsTo('/tickets')).toHaveLength(2);
  });

  it('sends no auth header when none is configured', async () => {
    const partnerId = await configuredPartner({ authHeaderName: null, authHeaderValue: null });
    await verifyTickets(partnerId, FAN, getDb());
    expect(fake.requests[0].headers['x-partner-token']).toBeUndefined();
  });

  it.each([
    ['https://partner.example/api', 'https://partner.example/api/tickets?user=fan%2Bresale%40example.com'],
    ['https://partner.example/api/', 'https://partner.example/api/tickets?user=fan%2Bresale%40example.com'],
    ['https://partner.example', 'https://partner.example/tickets?user=fan%2Bresale%40example.com'],
    [
      'https://partner.example/api?tenant=7',
      'https://partner.example/api/tickets?tenant=7&user=fan%2Bresale%40example.com',
    ],
  ])('joins %s and the encoded e-mail into one URL', (base, expected) => {
    expect(verificationRequestUrl(base, FAN)).toBe(expected);
  });

  it('reaches /tickets whether or not the configured URL ends with a slash', async () => {
    const partnerId = await configuredPartner({ verificationUrl: `${fake.origin}/api/v2/?tenant=7` });
    await verifyTickets(partnerId, FAN, getDb());
    expect(fake.requests[0].path).toBe('/api/v2/tickets');
    expect(fake.requests[0].query.get('tenant')).toBe('7');
    expect(fake.requests[0].query.get('user')).toBe(FAN);
  });

  it('applies the field map (partner name → ours) at the top level and in each ticket', async () => {
    fake.renamedFields = { userEmail: 'email', tickets: 'items', ticketId: 'id', status: 'state' };
    fake.setTickets(FAN, [fakeTicket({ ticketId: 'R-1' }), fakeTicket({ ticketId: 'R-2', status: 'REFUNDED' })]);

    const unmapped = await configuredPartner();
    const err = await callError(verifyTickets(unmapped, FAN, getDb()));
    expect(err.reason).toBe('invalid_answer');
    expect(err.details?.map((d) => d.message)).toEqual(['userEmail is required', 'tickets is required']);

    const mapped = await configuredPartner({
      verificationFieldMap: { email: 'userEmail', items: 'tickets', id: 'ticketId', state: 'status' },
    });
    const result = await verifyTickets(mapped, FAN, getDb());
    expect(result.tickets.map((t) => t.ticketId)).toEqual(['R-1']);
    expect(result.ineligible).toEqual([
      { ticket: expect.objectContaining({ ticketId: 'R-2' }), reason: 'status is REFUNDED, not VALID' },
    ]);
  });

  it('lets a mapped field win over a field that already carries our name', () => {
    expect(applyFieldMap({ userEmail: 'a@x', mail: 'b@x', tickets: [] }, { mail: 'userEmail' })).toEqual({
      userEmail: 'b@x',
      tickets: [],
    });
  });

  it('names a missing mapped field by its path and by the partner name', async () => {
    const partnerId = await configuredPartner({ verificationFieldMap: { id: 'ticketId' } });
    fake.setTickets(
      FAN,
      [fakeTicket({ id: 'A' }), fakeTicket({ id: 'B' }), fakeTicket({ id: undefined })].map(
        ({ ticketId: _drop, ...t }) => t as ReturnType<typeof fakeTicket>,
      ),
    );
    const err = await callError(verifyTickets(partnerId, FAN, getDb()));
    expect(err.message).toContain('tickets[2].ticketId (partner field “id”) is required');
    expect(err.details).toEqual([
      { path: 'tickets[2].ticketId', message: 'tickets[2].ticketId (partner field “id”) is required' },
    ]);
  });

  it.each([
    [{ ticketId: undefined }, 'tickets[0].ticketId is required'],
    [{ externalReferenceEventId: 42.5 }, 'tickets[0].externalReferenceEventId must be a string'],
    [{ price: 'abc' }, 'tickets[0].price must be a non-negative decimal number'],
    [{ price: -1 }, 'tickets[0].price must be a non-negative decimal number'],
    [{ price: '45.505' }, 'tickets[0].price has more than 2 decimal places, which EUR does not allow'],
    [{ currency: 'EURO' }, 'tickets[0].currency must be an ISO 4217 currency code (e.g. EUR)'],
    [{ status: '' }, 'tickets[0].status must not be empty'],
    [{ tags: ['vip'] }, "tickets[0].tags[0] must be a 'key:value' string"],
    [{ tags: 'section:A' }, 'tickets[0].tags must be an array'],
  ])('refuses a ticket with %o: "%s"', async (override, message) => {
    const partnerId = await configuredPartner();
    fake.setTickets(FAN, [fakeTicket(override as Record<string, unknown>)]);
    const err = await callError(verifyTickets(partnerId, FAN, getDb()));
    expect(err.reason).toBe('invalid_answer');
    expect(err.code).toBe('BAD_GATEWAY');
    expect(err.details?.[0].message).toBe(message);
  });

  it('accepts numeric ids and keeps them as text, and whole-unit currencies', async () => {
    const partnerId = await configuredPartner();
    fake.setTickets(FAN, [fakeTicket({ ticketId: 123 as unknown as string, price: 1200, currency: 'JPY' })]);
    const { tickets } = await verifyTickets(partnerId, FAN, getDb());
    expect(tickets[0]).toMatchObject({ ticketId: '123', priceMinor: 1200, currency: 'JPY' });
  });

  it('marks every copy of a ticket listed twice as ineligible', async () => {
    const partnerId = await configuredPartner();
    fake.setTickets(FAN, [fakeTicket({ ticketId: 'D' }), fakeTicket({ ticketId: 'D' }), fakeTicket({ ticketId: 'E' })]);
    const result = await verifyTickets(partnerId, FAN, getDb());
    expect(result.tickets.map((t) => t.ticketId)).toEqual(['E']);
    expect(result.ineligible.map((i) => i.reason)).toEqual([
      'ticketId appears 2 times in the answer',
      'ticketId appears 2 times in the answer',
    ]);
  });

  it('refuses an answer about another user, without repeating that user', async () => {
    const partnerId = await configuredPartner();
    fake.setTickets(FAN, [fakeTicket()]);
    fake.answerAsUser = 'someone.else@example.com';
    const err = await callError(verifyTickets(partnerId, FAN, getDb()));
    expect(err.reason).toBe('ownership_mismatch');
    expect(err.message).not.toContain('someone.else');

    // The same address in another case is the same user.
    fake.answerAsUser = FAN.toUpperCase();
    expect((await verifyTickets(partnerId, FAN, getDb())).tickets).toHaveLength(1);
  });

  it('says so when the partner has no verification URL, without calling anything', async () => {
    const { partner } = await makePartner('Unconfigured');
    const err = await callError(verifyTickets(partner.id, FAN, getDb()));
    expect(err).toMatchObject({ reason: 'not_configured', code: 'CONFLICT' });
    const partnerId = await configuredPartner({ verificationUrl: null });
    expect((await callError(verifyTickets(partnerId, FAN, getDb()))).reason).toBe('not_configured');
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses an invalid e-mail and an unknown partner as caller errors', async () => {
    const partnerId = await configuredPartner();
    const bad = await verifyTickets(partnerId, 'not-an-email', getDb()).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(AppError);
    expect(bad).toMatchObject({ code: 'BAD_REQUEST' });
    const missing = await verifyTickets('ptr_nope', FAN, getDb()).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('reports a non-2xx answer with its status', async () => {
    const partnerId = await configuredPartner();
    fake.misbehaviour = { kind: 'status', status: 500 };
    let err = await callError(verifyTickets(partnerId, FAN, getDb()));
    expect(err).toMatchObject({ reason: 'http_status', httpStatus: 500, code: 'BAD_GATEWAY' });
    expect(err.message).toBe("The partner's verification endpoint answered HTTP 500");

    fake.misbehaviour = { kind: 'status', status: 302, body: '', headers: { location: `${fake.origin}/other` } };
    err = await callError(verifyTickets(partnerId, FAN, getDb()));
    expect(err.message).toContain('HTTP 302 (redirects are not followed)');
    expect(fake.requests.map((r) => r.path)).toEqual(['/api/tickets', '/api/tickets']);
  });

  it('reports an answer that is not JSON', async () => {
    const partnerId = await configuredPartner();
    fake.misbehaviour = { kind: 'badJson' };
    const err = await callError(verifyTickets(partnerId, FAN, getDb()));
    expect(err.reason).toBe('invalid_json');
    expect(err.message).toMatch(/^The partner's verification endpoint did not answer valid JSON/);
  });

  it('reports an answer of the wrong kind (not an object)', async () => {
    const partnerId = await configuredPartner();
    fake.misbehaviour = { kind: 'json', body: [1, 2] };
    const err = await callError(verifyTickets(partnerId, FAN, getDb()));
    expect(err.details?.[0].message).toBe('The answer must be an object');
  });

  it('refuses an answer over 1 MiB', async () => {
    const partnerId = await configuredPartner();
    fake.misbehaviour = { kind: 'huge', bytes: 2 * 1024 * 1024 };
    const err = await callError(verifyTickets(partnerId, FAN, getDb()));
    expect(err.reason).toBe('too_large');
    expect(err.message).toContain('more than 1 MiB');
  });

  it('reports an unreachable partner', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const partnerId = await configuredPartner({ verificationUrl: `http://127.0.0.1:${port}/api` });
    const err = await callError(verifyTickets(partnerId, FAN, getDb()));
    expect(err.reason).toBe('unreachable');
    expect(err.message).toMatch(/could not be reached: .*ECONNREFUSED/);
  });

  it('gives up after about 5 seconds when the partner hangs', async () => {
    const partnerId = await configuredPartner();
    fake.misbehaviour = { kind: 'hang' };
    const started = Date.now();
    const err = await callError(verifyTickets(partnerId, FAN, getDb()));
    expect(err.reason).toBe('timeout');
    expect(err.message).toBe("The partner's verification endpoint did not answer within 5 s");
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it('refuses a loopback partner once private addresses are no longer allowed', async () => {
    const partnerId = await configuredPartner();
    const restore = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: undefined });
    try {
      const err = await callError(verifyTickets(partnerId, FAN, getDb()));
      expect(err.reason).toBe('forbidden_address');
      expect(err.message).toContain('127.0.0.1');
      expect(fake.requests).toHaveLength(0);
    } finally {
      restore();
    }
  });

  it('answers the dashboard test as data in both outcomes', async () => {
    const partnerId = await configuredPartner();
    fake.setTickets(FAN, [fakeTicket({ ticketId: 'OK-1' })]);
    const ok = await testVerification(partnerId, FAN, getDb());
    expect(ok.ok && ok.result.tickets[0].ticketId).toBe('OK-1');
    fake.misbehaviour = { kind: 'status', status: 403 };
    const failed = await testVerification(partnerId, FAN, getDb());
    expect(failed).toEqual({
      ok: false,
      error: {
        reason: 'http_status',
        message: "The partner's verification endpoint answered HTTP 403",
        details: [],
        httpStatus: 403,
      },
    });
  });
});

describe('fetchEventFeed', () => {
  it('reads one event in the spec shape with its auth header and records a successful run', async () => {
    const partnerId = await configuredPartner({ feedIntervalMinutes: 30 });
    fake.feed = fakeFeedEvent({ priceDetail: true });
    const feed = await fetchEventFeed(partnerId, getDb());
    expect(feed.events).toHaveLength(1);
    const show = feed.events[0].shows[0];
    expect(show).toMatchObject({
      showId: 'show-1',
      status: 'ON_SALE',
      dates: { startsAt: '2030-06-01T20:00:00+02:00' },
    });
    expect(show.ticketOptions.map((o) => o.ticketOptionId)).toEqual(['opt-1', 'opt-2']);
    expect(show.ticketOptions[0]).toMatchObject({ title: 'Floor', currency: 'EUR' });
    expect(show.combinations).toHaveLength(2);
    expect(feed.events[0]).toMatchObject({ title: 'Concert' }); // fields beyond the checked ones are kept

    expect(fake.requestsTo('/feed')[0].headers['x-partner-token']).toBe(TOKEN);
    // Reading is not a run: the schedule is pullFeed's (server/modules/catalog/feed.ts).
    const s = await getIntegration(partnerId, getDb());
    expect(s.feedLastRunAt).toBeNull();
  });

  it('accepts an array of events and summarizes it', async () => {
    const partnerId = await configuredPartner();
    fake.feed = [
      fakeFeedEvent({ externalReferenceId: 'A' }),
      fakeFeedEvent({ externalReferenceId: 'B', priceDetail: true }),
    ];
    const res = await fetchFeedNow(partnerId, getDb());
    expect(res).toEqual({
      ok: true,
      result: { events: 2, shows: 2, ticketOptions: 4, priceTypes: 2, combinations: 2, durationMs: expect.any(Number) },
    });
  });

  it('requires combinations when priceTypes is present, naming the path', async () => {
    const partnerId = await configuredPartner();
    const event = fakeFeedEvent({ priceDetail: true });
    delete event.shows[0].combinations;
    fake.feed = event;
    const err = await callError(fetchEventFeed(partnerId, getDb()));
    expect(err.reason).toBe('invalid_answer');
    expect(err.details).toEqual([
      { path: 'shows[0].combinations', message: 'shows[0].combinations is required when priceTypes is present' },
    ]);
    expect(err.message).toContain('shows[0].combinations is required when priceTypes is present');

    // In an array the event's index leads the path.
    fake.feed = [fakeFeedEvent({ externalReferenceId: 'ok' }), event];
    const inArray = await callError(fetchEventFeed(partnerId, getDb()));
    expect(inArray.details?.[0].path).toBe('[1].shows[0].combinations');
  });

  it.each([
    [(e: Feed) => delete e.shows[0].showId, 'shows[0].showId is required'],
    [(e: Feed) => delete e.externalReferenceId, 'externalReferenceId is required'],
    [
      (e: Feed) => (e.shows[0].dates = { startsAt: '2030-06-01T20:00:00' }),
      'shows[0].dates.startsAt must be an ISO 8601 date and time with a time zone offset',
    ],
    [(e: Feed) => delete e.shows[0].dates, 'shows[0].dates is required'],
    [
      (e: Feed) => (e.shows[0].ticketOptions = [{ title: 'No id' }]),
      'shows[0].ticketOptions[0].ticketId is required (or ticketOptionId)',
    ],
    [
      (e: Feed) => ((e.shows[0].combinations as Feed[])[0].ticketOptionId = 'opt-9'),
      'shows[0].combinations[0].ticketOptionId names no ticket option of this show (opt-9)',
    ],
    [
      (e: Feed) => ((e.shows[0].combinations as Feed[])[1].priceTypeId = 'senior'),
      'shows[0].combinations[1].priceTypeId names no price type of this show (senior)',
    ],
    [(e: Feed) => delete (e.shows[0].combinations as Feed[])[0].price, 'shows[0].combinations[0].price is required'],
    [(e: Feed) => e.shows.push({ ...e.shows[0] }), 'shows[1].showId is a duplicate'],
  ])('refuses a feed that breaks the shape: %#', async (breakIt, message) => {
    const partnerId = await configuredPartner();
    const event = fakeFeedEvent({ priceDetail: true }) as unknown as Feed;
    breakIt(event);
    fake.feed = event;
    const err = await callError(fetchEventFeed(partnerId, getDb()));
    expect(err.details?.map((d) => d.message)).toContain(message);
  });

  it('refuses duplicate events in an array', async () => {
    const partnerId = await configuredPartner();
    fake.feed = [fakeFeedEvent(), fakeFeedEvent()];
    const err = await callError(fetchEventFeed(partnerId, getDb()));
    expect(err.details?.[0]).toEqual({
      path: '[1].externalReferenceId',
      message: '[1].externalReferenceId is a duplicate',
    });
  });

  it('reports transport failures to the dashboard as data, without recording a run', async () => {
    const partnerId = await configuredPartner();
    fake.misbehaviour = { kind: 'status', status: 503 };
    const res = await fetchFeedNow(partnerId, getDb());
    expect(res).toMatchObject({
      ok: false,
      error: { reason: 'http_status', httpStatus: 503, message: "The partner's event feed answered HTTP 503" },
    });
    expect(await getIntegration(partnerId, getDb())).toMatchObject({ feedLastRunAt: null, feedLastError: null });

    fake.misbehaviour = { kind: 'huge', bytes: 6 * 1024 * 1024 };
    const big = await callError(fetchEventFeed(partnerId, getDb()));
    expect(big.message).toContain('more than 5 MiB');
  });

  it('says when no feed URL is configured', async () => {
    const partnerId = await configuredPartner({ feedUrl: null });
    const err = await callError(fetchEventFeed(partnerId, getDb()));
    expect(err.reason).toBe('not_configured');
  });
});

type Feed = Record<string, unknown> & { shows: Record<string, unknown>[] };
