import { describe, expect, it } from 'vitest';
import { POST as cancel } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { getDb } from '@/db';
import { apiRequest, makePartner, pushEvent, routeParams, testShow } from '@/server/testing/fixtures';
import { admit, admitMany, deleteTicket, putTicket, queueTickets, syncTickets } from '@/server/testing/ticket-api';
import { processBatch } from './ticket-import';
import { getTicketDetail, searchPartnerTickets } from './support';

let seq = 0;

/** A partner with two events (one show each, option GA) and the given tickets synced into the first. */
async function setup(name: string) {
  const partner = await makePartner(name);
  const refs = [1, 2].map((n) => `SUP-${Date.now()}-${++seq}-${n}`);
  for (const ref of refs) {
    await pushEvent(partner.apiKey, ref, [
      testShow(`${ref}-S`, {
        ticketOptions: [{ title: 'GA', ticketId: 'GA', description: 'g', currency: 'EUR', price: '40.00' }],
      }),
    ]);
  }
  const ticket = (ref: string, ticketId: string, buyer = 'fan@example.com') => ({
    externalReferenceEventId: ref,
    buyer,
    ticketId,
    ticketAccess: { type: 'OTHER', locator: `CODE-${ticketId}` },
    ticketOptionId: 'GA',
  });
  return { partnerId: partner.partner.id, apiKey: partner.apiKey, refs, ticket };
}

const kinds = (d: Awaited<ReturnType<typeof getTicketDetail>>) => d.history.map((h) => h.kind);

async function detail(partnerId: string, apiKey: string, ticketId: string) {
  const found = await searchPartnerTickets({ partnerId, query: ticketId }, getDb());
  const hit = found.items.find((i) => i.ticketId === ticketId);
  expect(hit, `ticket ${ticketId} found`).toBeDefined();
  return getTicketDetail({ partnerId, ticketId: hit!.id }, getDb());
}

describe('ticket history', () => {
  it('records import, update, admission and deletion in order, once each', async () => {
    const s = await setup('History');
    expect((await syncTickets(s.apiKey, [s.ticket(s.refs[0], 'H1')])).status).toBe(200);
    expect((await putTicket(s.apiKey, 'H1', { buyer: { email: 'new@example.com' } })).status).toBe(200);
    expect((await admit(s.apiKey, 'H1')).status).toBe(200);
    expect((await deleteTicket(s.apiKey, 'H1')).status).toBe(200);
    expect((await deleteTicket(s.apiKey, 'H1')).status).toBe(200); // repeated: no second entry
    const d = await detail(s.partnerId, s.apiKey, 'H1');
    expect(kinds(d)).toEqual(['imported', 'updated', 'admitted', 'invalidated']);
    expect(d.historyRecorded).toBe(true);
    expect(d.batchId).toBeNull();
    expect(d).toMatchObject({ externalReferenceEventId: s.refs[0], showId: `${s.refs[0]}-S`, ticketOptionId: 'GA' });
    expect(d.secureViewUrl).toMatch(/\/t\/[0-9a-f]{64}$/);
  });

  it('names the batch that imported a ticket, records a re-import as an update, and batch admission with its entryDate', async () => {
    const s = await setup('History batch');
    const q = await queueTickets(s.apiKey, [s.ticket(s.refs[0], 'B1'), s.ticket(s.refs[0], 'B2')]);
    await processBatch(q.body.data.batchId, getDb());
    const q2 = await queueTickets(s.apiKey, [s.ticket(s.refs[0], 'B1', 'other@example.com')]);
    await processBatch(q2.body.data.batchId, getDb());
    const entryDate = '2026-05-01T18:30:00.000Z';
    expect((await admitMany(s.apiKey, [{ ticketId: 'B2', entryDate }])).status).toBe(200);

    const b1 = await detail(s.partnerId, s.apiKey, 'B1');
    expect(b1.history.map((h) => [h.kind, h.batchId])).toEqual([
      ['imported', q.body.data.batchId],
      ['updated', q2.body.data.batchId],
    ]);
    expect(b1.batchId).toBe(q.body.data.batchId);
    const b2 = await detail(s.partnerId, s.apiKey, 'B2');
    expect(kinds(b2)).toEqual(['imported', 'admitted']);
    expect(b2.history[1].at.toISOString()).toBe(entryDate);
  });

  it('records the invalidation of every ticket of a cancelled show', async () => {
    const s = await setup('History cancel');
    await syncTickets(s.apiKey, [s.ticket(s.refs[0], 'C1'), s.ticket(s.refs[0], 'C2')]);
    const res = await cancel(
      apiRequest(`/v1/events/${s.refs[0]}/cancellation`, { key: s.apiKey, body: {} }),
      routeParams({ externalReferenceId: s.refs[0] }),
    );
    expect(res.status).toBeLessThan(300);
    for (const id of ['C1', 'C2']) {
      const d = await detail(s.partnerId, s.apiKey, id);
      expect(kinds(d)).toEqual(['imported', 'invalidated']);
      expect(d.status).toBe('INVALIDATED');
    }
  });
});

describe('ticket search across a partner’s events', () => {
  it('finds a buyer’s tickets in two events by e-mail in any case, and never another partner’s', async () => {
    const a = await setup('Search A');
    const b = await setup('Search B');
    await syncTickets(a.apiKey, [
      a.ticket(a.refs[0], 'S1', 'Shared@Example.com'),
      a.ticket(a.refs[1], 'S2', 'shared@example.com'),
      a.ticket(a.refs[1], 'S3', 'someone@example.com'),
    ]);
    await syncTickets(b.apiKey, [b.ticket(b.refs[0], 'S1', 'shared@example.com')]);

    const byEmail = await searchPartnerTickets({ partnerId: a.partnerId, query: 'SHARED@example.com' }, getDb());
    expect(byEmail.items.map((i) => [i.externalReferenceEventId, i.ticketId])).toEqual([
      [a.refs[0], 'S1'],
      [a.refs[1], 'S2'],
    ]);
    const byId = await searchPartnerTickets({ partnerId: a.partnerId, query: 'S1' }, getDb());
    expect(byId.items).toHaveLength(1);
    expect(byId.items[0].externalReferenceEventId).toBe(a.refs[0]);

    // Partner B's ticket: not found by search, and its page is NOT_FOUND when asked under partner A.
    const bTicket = (await searchPartnerTickets({ partnerId: b.partnerId, query: 'S1' }, getDb())).items[0];
    expect((await searchPartnerTickets({ partnerId: a.partnerId, query: bTicket.id }, getDb())).items).toEqual([]);
    await expect(getTicketDetail({ partnerId: a.partnerId, ticketId: bTicket.id }, getDb())).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // LIKE wildcards typed by staff match literally.
    expect((await searchPartnerTickets({ partnerId: a.partnerId, query: '%' }, getDb())).items).toEqual([]);
  });
});
