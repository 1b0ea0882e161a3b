import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { GET as orderGet } from '@/app/v1/marketplace/sellingflow/url/order/entrypoint/route';
import { GET as sellGet } from '@/app/v1/marketplace/sellingflow/url/entrypoint/route';
import { getDb } from '@/db';
import { tickets } from '@/db/schema';
import { updateIntegration } from '@/server/modules/partners';
import { storeVouchedTickets, type TicketCreate, ticketsForSale } from '@/server/modules/tickets';
import { setEnvInFile } from '@/server/testing/env';
import { fakePartnerInFile, fakeTicket } from '@/server/testing/fake-partner';
import { callRoute } from '@/server/testing/fixtures';
import { recordJobsInFile } from '@/server/testing/jobs';
import { sellerMarket } from '@/server/testing/market';
import { race, statuses } from '@/server/testing/race';
import { syncForSale, ticketSellStatuses } from './sell';

/*
 * Sync on demand (the spec: "ticket ownership is synchronised on demand, only when a
 * user wants to sell"): the selling entrypoints answer a URL for a ticket or order Encore was never sent
 * when the partner has a verification endpoint; that page asks the partner (a real HTTP server here),
 * stores what it vouches for this fan, and goes on to sell, or says why not.
 */

const fake = fakePartnerInFile();
setEnvInFile({ ALLOW_PRIVATE_PARTNER_URLS: '1', PUBLIC_BASE_URL: 'https://encore.test' });
recordJobsInFile();

const SELLER = 'seller@example.com';

/** A partner (event `evt-<id>`, show 1, option GA) with `pushed` (T1) pushed, and its verification at `fake/<path>`. */
async function market(path: string | null = 'api', pushed = 'T1') {
  const m = await sellerMarket({
    seller: SELLER,
    name: 'Sync on demand',
    daysAhead: 30,
    tickets: [{ ticketId: pushed }],
  });
  if (path) await updateIntegration({ partnerId: m.partnerId, verificationUrl: `${fake.origin}/${path}` }, getDb());
  return m;
}

const vouched = (ref: string, ticketId: string, tags: string[] = []) =>
  fakeTicket({ ticketId, externalReferenceEventId: ref, showId: '1', ticketOptionId: 'GA', price: '40', tags });

const rowsOf = (partnerId: string, ticketId: string) =>
  getDb()
    .select({ id: tickets.id, partnerId: tickets.partnerId, buyerEmail: tickets.buyerEmail, data: tickets.data })
    .from(tickets)
    .where(and(eq(tickets.partnerId, partnerId), eq(tickets.ticketId, ticketId)));

const ticketUrl = (key: string, ticketId: string) =>
  callRoute(
    sellGet,
    `/v1/marketplace/sellingflow/url/entrypoint?ticketId=${encodeURIComponent(ticketId)}&lang=es`,
    key,
  );
const orderUrl = (key: string, orderId: string) =>
  callRoute(orderGet, `/v1/marketplace/sellingflow/url/order/entrypoint?orderId=${encodeURIComponent(orderId)}`, key);

describe('the selling entrypoints for a ticket or order Encore was never sent', () => {
  it('answer 404 without a verification endpoint, as before', async () => {
    const m = await market(null);
    const ticket = await ticketUrl(m.key, 'NEVER-SENT');
    expect([ticket.status, ticket.body.errors.message]).toEqual([404, 'Ticket not found']);
    const order = await orderUrl(m.key, 'O-NEVER');
    expect([order.status, order.body.errors.message]).toEqual([404, 'Order not found']);
  });

  it("answer 200 with the partner's resale entry asked to sync it, with a verification endpoint; nothing asked yet", async () => {
    const m = await market();
    const ticket = await ticketUrl(m.key, 'NEW 7');
    expect(ticket.status).toBe(200);
    expect(ticket.body.data).toBe(`https://encore.test/resale/${m.partnerId}?sync=1&ticketId=NEW+7&lang=es`);
    const order = await orderUrl(m.key, 'O-9');
    expect(order.body.data).toBe(`https://encore.test/resale/${m.partnerId}?sync=1&orderId=O-9`);
    // No fan is known yet: the partner is asked by the page, for the signed-in fan.
    expect(fake.requests).toHaveLength(0);
    // A ticket Encore knows still goes straight to its sell page.
    expect((await ticketUrl(m.key, 'T1')).body.data).toMatch(/^https:\/\/encore\.test\/sell\/tkt_\w+\?lang=es$/);
  });

  it("another partner's ticket of the same id is not this partner's: a sync URL for its own partner", async () => {
    const a = await market(null, 'A-ONLY');
    const b = await market();
    expect((await ticketUrl(b.key, 'A-ONLY')).body.data).toBe(
      `https://encore.test/resale/${b.partnerId}?sync=1&ticketId=A-ONLY&lang=es`,
    );
    expect((await ticketUrl(a.key, 'A-ONLY')).body.data).toMatch(/\/sell\/tkt_/);
  });
});

describe('the page-side pull (syncForSale)', () => {
  it('stores the ticket the partner vouches for this fan, the fan as its buyer, and goes on to sell it', async () => {
    const m = await market();
    fake.setTickets(SELLER, [vouched(m.ref, 'NEW-7'), vouched(m.ref, 'OTHER-8')]);
    const out = await syncForSale(m.partnerId, ' Seller@Example.com ', { ticketId: 'NEW-7' }, getDb());
    expect(out.kind).toBe('SELL');
    const asked = fake.requestsTo('/api/tickets');
    expect(asked.map((r) => r.query.get('user'))).toEqual([SELLER]);
    const [stored] = await ticketsForSale(m.partnerId, ['NEW-7'], getDb());
    expect(out).toEqual({ kind: 'SELL', ticketPk: stored.pk, order: false });
    expect(stored).toMatchObject({ partnerId: m.partnerId, buyerEmail: SELLER, showId: '1', status: 'VALID' });
    // Only the ticket asked for is stored (no inventory beyond what the fan wants to sell).
    expect(await ticketsForSale(m.partnerId, ['OTHER-8'], getDb())).toEqual([]);
    const [status] = await ticketSellStatuses(m.partnerId, SELLER, [stored], getDb());
    expect(status.sellable).toBe(true);
    // Again (a reload): the same ticket, one row.
    expect(await syncForSale(m.partnerId, SELLER, { ticketId: 'NEW-7' }, getDb())).toEqual(out);
    expect(await rowsOf(m.partnerId, 'NEW-7')).toHaveLength(1);
  });

  it("stores an order's vouched tickets and sells them together", async () => {
    const m = await market();
    fake.setTickets(SELLER, [
      vouched(m.ref, 'O9-B', ['order:O-9']),
      vouched(m.ref, 'O9-A', ['order:O-9']),
      vouched(m.ref, 'X-1', ['order:O-1']),
    ]);
    const out = await syncForSale(m.partnerId, SELLER, { orderId: 'O-9' }, getDb());
    const stored = await ticketsForSale(m.partnerId, ['O9-A', 'O9-B', 'X-1'], getDb());
    expect(stored.map((t) => [t.ticketId, t.orderId])).toEqual([
      ['O9-A', 'O-9'],
      ['O9-B', 'O-9'],
    ]);
    expect(out).toEqual({ kind: 'SELL', ticketPk: stored[0].pk, order: true });
  });

  it('refuses clearly when the partner does not list the ticket for this fan, and stores nothing', async () => {
    const m = await market();
    // The partner lists NEW-7 for someone else: asked for SELLER, it does not vouch for it.
    fake.setTickets('other@example.com', [vouched(m.ref, 'NEW-7')]);
    fake.setTickets(SELLER, [vouched(m.ref, 'MINE-1')]);
    expect(await syncForSale(m.partnerId, SELLER, { ticketId: 'NEW-7' }, getDb())).toEqual({ kind: 'NOT_LISTED' });
    expect(await syncForSale(m.partnerId, SELLER, { orderId: 'O-404' }, getDb())).toEqual({ kind: 'NOT_LISTED' });
    expect(await ticketsForSale(m.partnerId, ['NEW-7', 'MINE-1'], getDb())).toEqual([]);
    // The other fan, vouched for, gets it.
    expect((await syncForSale(m.partnerId, 'other@example.com', { ticketId: 'NEW-7' }, getDb())).kind).toBe('SELL');
  });

  it('says why not when the show is not on Encore, the partner is unreachable, or there is no endpoint', async () => {
    const m = await market();
    fake.setTickets(SELLER, [fakeTicket({ ticketId: 'ELSEWHERE', externalReferenceEventId: 'never-pushed' })]);
    expect(await syncForSale(m.partnerId, SELLER, { ticketId: 'ELSEWHERE' }, getDb())).toEqual({ kind: 'NOT_STORED' });
    fake.misbehaviour = { kind: 'status', status: 503 };
    expect(await syncForSale(m.partnerId, SELLER, { ticketId: 'ELSEWHERE' }, getDb())).toEqual({
      kind: 'UNAVAILABLE',
    });
    const none = await market(null);
    expect(await syncForSale(none.partnerId, SELLER, { ticketId: 'T1' }, getDb())).toEqual({ kind: 'NO_ENDPOINT' });
  });

  it('never overwrites a ticket the partner pushed: its code and buyer stay', async () => {
    const m = await market();
    const [before] = await rowsOf(m.partnerId, 'T1');
    fake.setTickets(SELLER, [vouched(m.ref, 'T1')]);
    expect(await syncForSale(m.partnerId, SELLER, { ticketId: 'T1' }, getDb())).toEqual({
      kind: 'SELL',
      ticketPk: before.id,
      order: false,
    });
    expect(await rowsOf(m.partnerId, 'T1')).toEqual([before]);
    // Even when the sync read "missing" just before the partner pushed it (two writers at once): insert-only.
    const late = {
      externalReferenceEventId: m.ref,
      showId: '1',
      ticketId: 'T1',
      ticketOptionId: 'GA',
      buyer: 'late@example.com',
      ticketAccess: { type: 'API', locator: 'T1', status: 'LOCKED' },
      price: '40',
    } as TicketCreate;
    await storeVouchedTickets(m.partnerId, [late], getDb());
    expect(await rowsOf(m.partnerId, 'T1')).toEqual([before]);
  });

  it('keeps to the calling partner: asks its own endpoint and stores under it alone', async () => {
    const a = await market('a');
    const b = await market('b');
    fake.setTickets(SELLER, [vouched(b.ref, 'SHARED-1')]);
    expect((await syncForSale(b.partnerId, SELLER, { ticketId: 'SHARED-1' }, getDb())).kind).toBe('SELL');
    expect(fake.requestsTo('/a/tickets')).toHaveLength(0);
    expect(fake.requestsTo('/b/tickets')).toHaveLength(1);
    expect((await rowsOf(b.partnerId, 'SHARED-1')).map((r) => r.partnerId)).toEqual([b.partnerId]);
    expect(await rowsOf(a.partnerId, 'SHARED-1')).toEqual([]);
    // Partner A's endpoint vouches for a ticket of B's event: A has no such event, nothing is stored.
    expect(await syncForSale(a.partnerId, SELLER, { ticketId: 'SHARED-1' }, getDb())).toEqual({ kind: 'NOT_STORED' });
    expect(await rowsOf(a.partnerId, 'SHARED-1')).toEqual([]);
  });
});

describe('two tabs at once', () => {
  it('20 concurrent syncs of one never-sent ticket store one row, and all go on to the same ticket', async () => {
    const m = await market();
    fake.setTickets(SELLER, [vouched(m.ref, 'RACE-1')]);
    const outcomes = await race(20, () => syncForSale(m.partnerId, SELLER, { ticketId: 'RACE-1' }, getDb()));
    expect(statuses(outcomes)).toEqual(Array(20).fill(200));
    const rows = await rowsOf(m.partnerId, 'RACE-1');
    expect(rows).toHaveLength(1);
    expect(new Set(outcomes.map((o) => JSON.stringify(o.value)))).toEqual(
      new Set([JSON.stringify({ kind: 'SELL', ticketPk: rows[0].id, order: false })]),
    );
  });

  it('20 concurrent syncs of an order store each of its tickets once', async () => {
    const m = await market();
    fake.setTickets(
      SELLER,
      ['RO-A', 'RO-B', 'RO-C'].map((id) => vouched(m.ref, id, ['order:RO'])),
    );
    const outcomes = await race(20, () => syncForSale(m.partnerId, SELLER, { orderId: 'RO' }, getDb()));
    expect(statuses(outcomes)).toEqual(Array(20).fill(200));
    for (const id of ['RO-A', 'RO-B', 'RO-C']) expect(await rowsOf(m.partnerId, id)).toHaveLength(1);
  });
});
