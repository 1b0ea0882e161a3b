import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as applyRules } from '@/app/v1/events/rules/route';
import { POST as syncPost } from '@/app/v1/sync/tickets/route';
import { GET as getBatchGet } from '@/app/v1/tickets/batches/[batchId]/route';
import { POST as ticketsPost } from '@/app/v1/tickets/route';
import { POST as cancel } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { getDb } from '@/db';
import { tickets } from '@/db/schema';
import { apiRequest, makePartner, pushEvent, routeParams, testShow } from '@/server/testing/fixtures';
import { syncTickets } from '@/server/testing/ticket-api';
import { processBatch, unfinishedBatchIds } from './ticket-import';

let seq = 0;

async function setup() {
  const partner = await makePartner('Tickets');
  const ref = `TK-${Date.now()}-${++seq}`;
  const priceTypes = [{ priceTypeId: 'ADULT' }, { priceTypeId: 'CHILD' }];
  await pushEvent(partner.apiKey, ref, [testShow(`${ref}-S1`, { priceTypes }), testShow(`${ref}-S2`, { priceTypes })]);
  await applyRules(
    apiRequest('/v1/events/rules', {
      key: partner.apiKey,
      body: [
        {
          externalReferenceEventId: ref,
          showId: `${ref}-S1`,
          ticketOptionId: 'GA',
          priceTypeId: 'CHILD',
          price: 15,
          ruleType: 'COMBINATION',
        },
      ],
    }),
  );
  return { ...partner, ref, s1: `${ref}-S1`, s2: `${ref}-S2` };
}

const ticket = (s: { ref: string; s1: string }, ticketId: string, extra: Record<string, unknown> = {}) => ({
  externalReferenceEventId: s.ref,
  showId: s.s1,
  buyer: 'Fan@Example.com',
  ticketId,
  ticketAccess: { type: 'URL', locator: `https://qr.example/${ticketId}.png`, status: 'LOCKED' },
  ticketOptionId: 'GA',
  ...extra,
});

const sync = syncTickets;

describe('POST /v1/sync/tickets', () => {
  it('imports valid tickets and reports each failure by field, without stopping the others', async () => {
    const s = await setup();
    const other = await setup();
    const res = await sync(s.apiKey, [
      ticket(s, 'T1'),
      ticket(s, 'T2', { buyer: { phone: '+5491155550000', fullName: 'Ana' }, priceTypeId: 'CHILD' }),
      ticket(s, 'T3', { priceTypeId: 'ADULT' }),
      ticket(s, 'T4', { ticketOptionId: 'VIP' }),
      ticket(s, 'T5', { showId: null }),
      ticket(s, 'T6', { externalReferenceEventId: other.ref, showId: other.s1 }),
      ticket(s, 'T7', { price: '12.345' }),
    ]);
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.data.tickets.map((t: { ticketId: string }) => [t.ticketId, t]));
    expect(res.body.data).toMatchObject({ imported: 2, failed: 5 });
    expect(byId.T1).toMatchObject({ status: 'imported', id: expect.stringMatching(/^tkt_/) });
    expect(byId.T2.status).toBe('imported');
    expect(byId.T3.errors).toEqual([
      { path: 'priceTypeId', message: 'this ticketOption + priceType pair is not a declared COMBINATION' },
    ]);
    expect(byId.T4.errors[0].path).toBe('ticketOptionId');
    expect(byId.T5.errors).toEqual([{ path: 'showId', message: 'is required: the event has several shows' }]);
    expect(byId.T6.errors).toEqual([{ path: 'externalReferenceEventId', message: 'Event not found' }]); // another partner's event
    expect(byId.T7.errors[0].path).toBe('price');

    const rows = await getDb().select().from(tickets).where(eq(tickets.partnerId, s.partner.id));
    const t1 = rows.find((r) => r.ticketId === 'T1')!;
    const t2 = rows.find((r) => r.ticketId === 'T2')!;
    expect(t1).toMatchObject({ priceMinor: 4000, currency: 'EUR', buyerEmail: 'fan@example.com', status: 'VALID' });
    expect(t2.priceMinor).toBe(1500); // the combination's price wins over the option's
    expect(t2.buyer).toEqual({ phone: '+5491155550000', fullName: 'Ana' });
  });

  it('updates a re-sent ticket in place: same id, no duplicate', async () => {
    const s = await setup();
    const first = await sync(s.apiKey, [ticket(s, 'R1')]);
    const again = await sync(s.apiKey, [ticket(s, 'R1', { buyer: 'new@example.com', price: 55 })]);
    expect(again.body.data.tickets[0].id).toBe(first.body.data.tickets[0].id);
    const rows = await getDb().select().from(tickets).where(eq(tickets.partnerId, s.partner.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ buyerEmail: 'new@example.com', priceMinor: 5500 });
  });

  it('refuses new tickets for a cancelled show', async () => {
    const s = await setup();
    await cancel(
      apiRequest(`/v1/events/${s.ref}/cancellation?showId=${s.s1}`, { method: 'POST', key: s.apiKey }),
      routeParams({ externalReferenceId: s.ref }),
    );
    const res = await sync(s.apiKey, [ticket(s, 'C1')]);
    expect(res.body.data.tickets[0].errors).toEqual([
      { path: 'showId', message: 'the show is cancelled and takes no new tickets' },
    ]);
  });

  it('answers 400 naming each malformed ticket field, and for repeated ticketIds', async () => {
    const s = await setup();
    const res = await sync(s.apiKey, [
      ticket(s, 'M1', { buyer: { fullName: 'No contact' } }),
      ticket(s, 'M2', { ticketAccess: { type: 'QR', locator: 'x' } }),
      ticket(s, 'M3', { buyer: 'not-an-email' }),
    ]);
    expect(res.status).toBe(400);
    expect(res.body.errors.details).toEqual([
      { path: '[0].buyer', message: 'buyer.email or buyer.phone or buyer.id is required', in: 'body' },
      { path: '[1].ticketAccess.type', message: expect.any(String), in: 'body' },
      { path: '[2].buyer', message: 'must be an e-mail address', in: 'body' },
    ]);
    const dup = await sync(s.apiKey, [ticket(s, 'D1'), ticket(s, 'D2'), ticket(s, 'D1')]);
    expect(dup.status).toBe(400);
    expect(dup.body.errors.details).toEqual([
      { path: '[2].ticketId', message: 'repeats [0].ticketId "D1"', in: 'body' },
    ]);
  });

  it('answers the 61st request within a minute with 429 and Retry-After', async () => {
    const s = await setup();
    for (let i = 0; i < 60; i++) {
      const res = await syncPost(apiRequest('/v1/sync/tickets', { key: s.apiKey, body: [ticket(s, `L${i}`)] }));
      expect(res.status).toBe(200);
    }
    const res = await syncPost(apiRequest('/v1/sync/tickets', { key: s.apiKey, body: [ticket(s, 'L60')] }));
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('POST /v1/tickets (queued) and its batch', () => {
  it('stores the batch, answers ids at once, and the import job reports progress and errors', async () => {
    const s = await setup();
    const list = Array.from({ length: 2500 }, (_, i) =>
      ticket(s, `B${i}`, i % 1000 === 7 ? { ticketOptionId: 'NOPE' } : {}),
    );
    const res = await ticketsPost(apiRequest('/v1/tickets', { key: s.apiKey, body: list }));
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toMatchObject({ batchId: expect.stringMatching(/^tbt_/), status: 'queued', total: 2500 });
    expect(data.tickets).toHaveLength(2500);
    expect(await unfinishedBatchIds(getDb())).toContain(data.batchId);

    await processBatch(data.batchId, getDb()); // the job's definition, run here
    await processBatch(data.batchId, getDb()); // again: nothing changes
    const batchRes = await getBatchGet(
      apiRequest(`/v1/tickets/batches/${data.batchId}`, { key: s.apiKey }),
      routeParams({ batchId: data.batchId }),
    );
    const batch = (await batchRes.json()).data;
    expect(batch).toMatchObject({ status: 'completed', total: 2500, imported: 2497, failed: 3, pending: 0 });
    expect(batch.errors.map((e: { ticketId: string }) => e.ticketId)).toEqual(['B7', 'B1007', 'B2007']);
    const rows = await getDb()
      .select({ id: tickets.id, ticketId: tickets.ticketId })
      .from(tickets)
      .where(eq(tickets.partnerId, s.partner.id));
    expect(rows).toHaveLength(2497);
    const answered = new Map(data.tickets.map((t: { ticketId: string; id: string }) => [t.ticketId, t.id]));
    expect(rows.every((r) => answered.get(r.ticketId) === r.id)).toBe(true);
    expect(await unfinishedBatchIds(getDb())).not.toContain(data.batchId);
  });

  it("answers 404 for another partner's batch", async () => {
    const s = await setup();
    const other = await makePartner('Other');
    const res = await ticketsPost(apiRequest('/v1/tickets', { key: s.apiKey, body: [ticket(s, 'X1')] }));
    const { data } = await res.json();
    const batchRes = await getBatchGet(
      apiRequest(`/v1/tickets/batches/${data.batchId}`, { key: other.apiKey }),
      routeParams({ batchId: data.batchId }),
    );
    expect(batchRes.status).toBe(404);
  });
});
