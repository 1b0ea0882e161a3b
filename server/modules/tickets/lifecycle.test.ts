import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as cancel } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { POST as applyRules } from '@/app/v1/events/rules/route';
import { POST as syncPost } from '@/app/v1/sync/tickets/route';
import { getDb } from '@/db';
import { tickets } from '@/db/schema';
import { apiRequest, makePartner, pushEvent, routeParams, testShow } from '@/server/testing/fixtures';
import { admit, admitMany, deleteTicket, putTicket } from '@/server/testing/ticket-api';

let seq = 0;

/** A partner with one event (one show: options GA 40.00 EUR and VIP; price types; GA+CHILD = 15) and tickets T1..T3. */
async function setup() {
  const partner = await makePartner('Lifecycle');
  const ref = `LC-${Date.now()}-${++seq}`;
  await pushEvent(partner.apiKey, ref, [
    testShow(`${ref}-S`, {
      ticketOptions: [
        { title: 'GA', ticketId: 'GA', description: 'g', currency: 'EUR', price: '40.00' },
        { title: 'VIP', ticketId: 'VIP', description: 'v', currency: 'EUR', price: 90 },
      ],
      priceTypes: [{ priceTypeId: 'ADULT' }, { priceTypeId: 'CHILD' }],
    }),
  ]);
  await applyRules(
    apiRequest('/v1/events/rules', {
      key: partner.apiKey,
      body: [
        {
          externalReferenceEventId: ref,
          showId: `${ref}-S`,
          ticketOptionId: 'GA',
          priceTypeId: 'CHILD',
          price: 15,
          ruleType: 'COMBINATION',
        },
      ],
    }),
  );
  const body = ['T1', 'T2', 'T3'].map((ticketId) => ({
    externalReferenceEventId: ref,
    buyer: 'fan@example.com',
    ticketId,
    ticketAccess: { type: 'OTHER', locator: `CODE-${ticketId}` },
    ticketOptionId: 'GA',
  }));
  const res = await syncPost(apiRequest('/v1/sync/tickets', { key: partner.apiKey, body }));
  expect((await res.json()).data.imported).toBe(3);
  return { ...partner, ref };
}

describe('PUT /v1/tickets/{ticketId}', () => {
  it('changes access and buyer, keeps the rest, and re-prices a ticket moved to another combination', async () => {
    const s = await setup();
    const res = await putTicket(s.apiKey, 'T1', {
      ticketAccess: { type: 'URL', locator: 'https://qr.example/new.png' },
      buyer: { email: 'b@example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      ticketId: 'T1',
      ticketOptionId: 'GA',
      price: 40,
      currency: 'EUR',
      status: 'VALID',
    });
    const moved = await putTicket(s.apiKey, 'T1', { priceTypeId: 'CHILD' });
    expect(moved.body.data).toMatchObject({ priceTypeId: 'CHILD', price: 15 });
    const bad = await putTicket(s.apiKey, 'T1', { ticketOptionId: 'NOPE' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.details[0].path).toBe('ticketOptionId');
  });

  it("answers 404 for an unknown ticket and for another partner's", async () => {
    const s = await setup();
    const other = await makePartner('Other');
    expect((await putTicket(s.apiKey, 'NOPE', { buyer: 'x@example.com' })).status).toBe(404);
    expect((await putTicket(other.apiKey, 'T1', { buyer: 'x@example.com' })).status).toBe(404);
    expect((await deleteTicket(other.apiKey, 'T1')).status).toBe(404);
    expect((await admit(other.apiKey, 'T1')).status).toBe(404);
  });
});

describe('DELETE /v1/tickets/{ticketId}', () => {
  it('invalidates irreversibly: later updates, re-imports and admissions are refused', async () => {
    const s = await setup();
    const res = await deleteTicket(s.apiKey, 'T2');
    expect(res).toMatchObject({ status: 200, body: { data: { ticketId: 'T2', status: 'INVALIDATED' } } });
    expect((await deleteTicket(s.apiKey, 'T2')).body.data.status).toBe('INVALIDATED');
    const update = await putTicket(s.apiKey, 'T2', { buyer: 'x@example.com' });
    expect(update.status).toBe(409);
    expect(update.body.errors.message).toContain('deleted');
    expect((await admit(s.apiKey, 'T2')).status).toBe(409);
    const reimport = await syncPost(
      apiRequest('/v1/sync/tickets', {
        key: s.apiKey,
        body: [
          {
            externalReferenceEventId: s.ref,
            buyer: 'z@example.com',
            ticketId: 'T2',
            ticketAccess: { type: 'OTHER', locator: 'C' },
            ticketOptionId: 'GA',
          },
        ],
      }),
    );
    const reimported = (await reimport.json()).data.tickets[0];
    expect(reimported).toMatchObject({ ticketId: 'T2', id: res.body.data.id, status: 'failed' });
    expect(reimported.errors).toEqual([
      { path: 'ticketId', message: 'is invalid (deleted, or its show was cancelled); it cannot be changed' },
    ]);
    const [stored] = await getDb().select().from(tickets).where(eq(tickets.id, res.body.data.id));
    expect(stored).toMatchObject({ status: 'INVALIDATED', buyerEmail: 'fan@example.com' });
  });
});

describe('admission', () => {
  it('admits once; a second admission is reported, not silently accepted', async () => {
    const s = await setup();
    expect(await admit(s.apiKey, 'T1')).toEqual({ status: 200, body: { status: 200, data: true, errors: null } });
    const again = await admit(s.apiKey, 'T1');
    expect(again.status).toBe(409);
    expect(again.body.errors.message).toMatch(/^Ticket already admitted at \d{4}-/);
  });

  it('invalidates the tickets of a cancelled show: no admission, no change', async () => {
    const s = await setup();
    await cancel(
      apiRequest(`/v1/events/${s.ref}/cancellation`, { method: 'POST', key: s.apiKey }),
      routeParams({ externalReferenceId: s.ref }),
    );
    const res = await admit(s.apiKey, 'T1');
    expect(res.status).toBe(409);
    expect(res.body.errors.message).toBe(
      'The show is cancelled; its tickets are invalid and cannot be changed or admitted',
    );
    const changed = await putTicket(s.apiKey, 'T2', { buyer: 'other@example.com' });
    expect(changed.status).toBe(409);
    const many = await admitMany(s.apiKey, [{ ticketId: 'T3', entryDate: '2027-06-01T20:05:00Z' }]);
    expect(many.body.errors.details).toEqual([
      { path: '[0].ticketId', message: 'belongs to a cancelled show', in: 'body' },
    ]);
    const rows = await getDb()
      .select({ status: tickets.status, invalidatedAt: tickets.invalidatedAt })
      .from(tickets)
      .where(eq(tickets.partnerId, s.partner.id));
    expect(rows.map((r) => r.status)).toEqual(['INVALIDATED', 'INVALIDATED', 'INVALIDATED']);
    expect(rows.every((r) => r.invalidatedAt !== null)).toBe(true);
  });

  it('records a batch all or nothing, naming every item that failed', async () => {
    const s = await setup();
    await admit(s.apiKey, 'T3');
    const refused = await admitMany(s.apiKey, [
      { ticketId: 'T1', entryDate: '2027-06-01T20:05:00Z' },
      { ticketId: 'T3', entryDate: '2027-06-01T20:06:00Z' },
      { ticketId: 'NOPE', entryDate: '2027-06-01T20:07:00Z' },
      { ticketId: 'T1', entryDate: '2027-06-01T20:08:00Z' },
    ]);
    expect(refused.status).toBe(409);
    expect(refused.body.errors.details.map((d: { path: string }) => d.path)).toEqual([
      '[1].ticketId',
      '[2].ticketId',
      '[3].ticketId',
    ]);
    // Nothing was recorded: T1 can still be admitted, once.
    const ok = await admitMany(s.apiKey, [
      { ticketId: 'T1', entryDate: '2027-06-01T20:05:00Z' },
      { ticketId: 'T2', entryDate: '2027-06-01T20:05:30-03:00' },
    ]);
    expect(ok).toEqual({ status: 200, body: { status: 200, data: true, errors: null } });
    const t2 = await putTicket(s.apiKey, 'T2', {});
    expect(t2.body.data.admittedAt).toBe('2027-06-01T23:05:30.000Z');
    expect((await admit(s.apiKey, 'T1')).status).toBe(409);
  });

  it('refuses an entryDate that is not ISO 8601 with a zone, naming it', async () => {
    const s = await setup();
    const res = await admitMany(s.apiKey, [{ ticketId: 'T1', entryDate: '01/06/2027 20:05' }]);
    expect(res.status).toBe(400);
    expect(res.body.errors.details[0].path).toBe('[0].entryDate');
  });
});
