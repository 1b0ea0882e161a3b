import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { listings, ticketEvents, tickets } from '@/db/schema';
import { createListing } from '@/server/modules/marketplace';
import { recordJobs } from '@/server/testing/jobs';
import { sellerMarket } from '@/server/testing/market';
import { mailsOf, race, routeStatus, statuses } from '@/server/testing/race';
import { admit, admitMany, deleteTicket, putTicket } from '@/server/testing/ticket-api';

/*
 * Race tests of the partner's ticket transitions (docs/trust.md): admission, reissue, PUT and DELETE,
 * 20 at once through the routes, each under the ticket's row lock.
 */

const HOLDER = 'race-holder@example.com';

let jobs: ReturnType<typeof recordJobs>;
beforeAll(() => {
  jobs = recordJobs();
});
afterAll(() => jobs.restore());

const market = () =>
  sellerMarket({ seller: HOLDER, name: 'Ticket races', tickets: [{ ticketId: 'T1' }, { ticketId: 'T2' }] });

async function ticket(partnerId: string, ticketId: string) {
  const [row] = await getDb()
    .select()
    .from(tickets)
    .where(and(eq(tickets.partnerId, partnerId), eq(tickets.ticketId, ticketId)));
  return row;
}

async function eventsOf(ticketPk: string, kind: (typeof ticketEvents.$inferSelect)['kind']) {
  return getDb()
    .select()
    .from(ticketEvents)
    .where(and(eq(ticketEvents.ticketPk, ticketPk), eq(ticketEvents.kind, kind)));
}

describe('ticket transitions at once', () => {
  it('admission: 20 admissions of one ticket at once admit it once; 19 clear 409s', async () => {
    const m = await market();
    const outcomes = await race(20, () => admit(m.key, 'T1'), routeStatus);
    expect(statuses(outcomes)).toEqual([200, ...Array(19).fill(409)]);
    for (const o of outcomes.filter((x) => x.status === 409))
      expect(o.value!.body.errors.message).toMatch(/^Ticket already admitted at /);
    const t1 = await ticket(m.partnerId, 'T1');
    expect(t1.admittedAt).not.toBeNull();
    expect(await eventsOf(t1.id, 'admitted')).toHaveLength(1);
  });

  it('admission, batch: 10 batches (either order) and 10 single admissions at once; one wins, all or nothing', async () => {
    const m = await market();
    const entryDate = new Date().toISOString();
    const outcomes = await race(
      20,
      (i) =>
        i % 2
          ? admit(m.key, 'T1')
          : admitMany(
              m.key,
              (i % 4 ? ['T2', 'T1'] : ['T1', 'T2']).map((ticketId) => ({ ticketId, entryDate })),
            ),
      routeStatus,
    );
    expect(statuses(outcomes)).toEqual([200, ...Array(19).fill(409)]);
    const batchWon = outcomes.findIndex((o) => o.status === 200) % 2 === 0;
    const [t1, t2] = [await ticket(m.partnerId, 'T1'), await ticket(m.partnerId, 'T2')];
    expect(await eventsOf(t1.id, 'admitted')).toHaveLength(1);
    expect(await eventsOf(t2.id, 'admitted')).toHaveLength(batchWon ? 1 : 0);
    expect(t2.admittedAt === null).toBe(!batchWon);
  });

  it('reissue: 20 PUTs with a new ticketAccess at once, on a ticket awaiting its reissue, reissue it once', async () => {
    const m = await market();
    const before = await ticket(m.partnerId, 'T1');
    // As a resale with the partner's reissue on leaves it (transferOwnership with reissue).
    await getDb()
      .update(tickets)
      .set({ reissueRequestedAt: sql`now()` as unknown as Date, reissuedAt: null })
      .where(eq(tickets.id, before.id));
    const outcomes = await race(
      20,
      (i) => putTicket(m.key, 'T1', { ticketAccess: { type: 'OTHER', locator: `new-${i}` } }),
      routeStatus,
    );
    expect(statuses(outcomes)).toEqual(Array(20).fill(200));
    const after = await ticket(m.partnerId, 'T1');
    expect(after.reissuedAt).not.toBeNull();
    expect(await eventsOf(before.id, 'reissued')).toHaveLength(1);
    expect(await eventsOf(before.id, 'updated')).toHaveLength(19);
  });

  it('ticket PUT: 20 PUTs of one ticket at once each apply whole, one after another; the last one stands', async () => {
    const m = await market();
    const outcomes = await race(20, (i) => putTicket(m.key, 'T1', { price: 40 + i }), routeStatus);
    expect(statuses(outcomes)).toEqual(Array(20).fill(200));
    const t1 = await ticket(m.partnerId, 'T1');
    expect(await eventsOf(t1.id, 'updated')).toHaveLength(20);
    expect(outcomes.map((o) => o.value!.body.data.price)).toContain(t1.priceMinor! / 100);
  });

  it('ticket DELETE: 20 DELETEs of a listed ticket at once invalidate it once, end its listing once, mail its seller once', async () => {
    const m = await market();
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: HOLDER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    const outcomes = await race(20, () => deleteTicket(m.key, 'T1'), routeStatus);
    expect(statuses(outcomes)).toEqual(Array(20).fill(200));
    for (const o of outcomes) expect(o.value!.body.data.status).toBe('INVALIDATED');
    const t1 = await ticket(m.partnerId, 'T1');
    expect(await eventsOf(t1.id, 'invalidated')).toHaveLength(1);
    expect((await getDb().select().from(listings).where(eq(listings.id, listing.id)))[0].status).toBe('CANCELLED');
    expect((await mailsOf(m.partnerId, 'listingCancelled')).map((x) => x.toAddress)).toEqual([HOLDER]);
  });

  it('ticket PUT racing DELETE: 10 of each at once; every PUT after the DELETE is a clear 409 and changes nothing', async () => {
    const m = await market();
    const outcomes = await race(
      20,
      (i) => (i % 2 ? deleteTicket(m.key, 'T1') : putTicket(m.key, 'T1', { price: 50 + i })),
      routeStatus,
    );
    for (const o of outcomes) expect([200, 409]).toContain(o.status);
    expect(outcomes.filter((o, i) => i % 2 === 1).every((o) => o.status === 200)).toBe(true);
    const t1 = await ticket(m.partnerId, 'T1');
    expect(t1.status).toBe('INVALIDATED');
    const history = await getDb()
      .select()
      .from(ticketEvents)
      .where(eq(ticketEvents.ticketPk, t1.id))
      .orderBy(ticketEvents.id);
    const kinds = history.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'invalidated')).toHaveLength(1);
    // The PUTs that answered 200 are the updates recorded, all before the invalidation.
    const puts = outcomes.filter((o, i) => i % 2 === 0 && o.status === 200).length;
    expect(kinds.slice(kinds.indexOf('invalidated') + 1)).toEqual([]);
    expect(kinds.filter((k) => k === 'updated')).toHaveLength(puts);
  });
});
