import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as bulkPost } from '@/app/v1/marketdata/ticket-leads/bulk/route';
import { POST as singlePost } from '@/app/v1/marketdata/ticket-leads/route';
import { POST as usersBulkPost } from '@/app/v1/marketdata/users/bulk/route';
import { POST as usersPost } from '@/app/v1/marketdata/users/route';
import { getDb } from '@/db';
import { leads } from '@/db/schema/market-data';
import { apiRequest } from '@/server/testing/fixtures';
import { sellerMarket } from '@/server/testing/market';

type Handler = (req: Request) => Promise<Response>;

async function send(handler: Handler, path: string, key: string, body: unknown) {
  const res = await handler(apiRequest(path, { key, body }));
  return { status: res.status, body: await res.json() };
}
const one = (key: string, body: unknown) => send(singlePost as Handler, '/v1/marketdata/ticket-leads', key, body);
const bulk = (key: string, body: unknown) => send(bulkPost as Handler, '/v1/marketdata/ticket-leads/bulk', key, body);

async function market(name = 'Leads') {
  const m = await sellerMarket({ seller: 'holder@example.com', name });
  const rows = () => getDb().select().from(leads).where(eq(leads.partnerId, m.partnerId));
  const lead = (extra: Record<string, unknown> = {}) => ({
    type: 'WISHLIST',
    externalReferenceEventId: m.ref,
    showId: '1',
    buyer: { email: 'fan@example.com' },
    ...extra,
  });
  return { ...m, rows, lead };
}

describe('leads API: one lead', () => {
  it('saves a lead (200 data true) and upserts on buyer + event + show: a repeat creates no duplicate', async () => {
    const m = await market();
    expect(await one(m.key, m.lead({ tags: ['a'] }))).toEqual({
      status: 200,
      body: { status: 200, data: true, errors: null },
    });
    // The same buyer (e-mail in another case) for the same show: updated, fields left out kept.
    const again = await one(
      m.key,
      m.lead({ type: 'ABANDONED_CART', buyer: { email: 'FAN@example.com', fullName: 'Fan' }, price: 40 }),
    );
    expect(again.status).toBe(200);
    const rows = await m.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: 'ABANDONED_CART',
      buyerEmail: 'fan@example.com',
      buyerFullName: 'Fan',
      price: 4000,
      currency: 'EUR',
      tags: ['a'],
    });
    // The alias path writes the same table with the same key.
    expect((await send(usersPost as Handler, '/v1/marketdata/users', m.key, m.lead())).status).toBe(200);
    expect(await m.rows()).toHaveLength(1);
    // Another buyer identifier (phone, id) is another lead.
    await one(m.key, m.lead({ buyer: { phone: '+34 600 000 000' } }));
    await one(m.key, m.lead({ buyer: { id: 'cust-1' }, type: 'VIRTUAL_QUEUE' }));
    expect(await m.rows()).toHaveLength(3);
  });

  it('answers the spec’s exact messages', async () => {
    const m = await market('Leads messages');
    const noBuyer = await one(m.key, m.lead({ buyer: { fullName: 'Nobody' } }));
    expect(noBuyer.status).toBe(400);
    expect(noBuyer.body).toMatchObject({ status: 400, data: null });
    expect(noBuyer.body.errors.message).toBe('buyer.email or buyer.phone or buyer.id is required');
    expect(noBuyer.body.errors.details).toEqual([expect.objectContaining({ path: 'buyer' })]);
    const noEvent = await one(m.key, m.lead({ externalReferenceEventId: 'nope' }));
    expect(noEvent.status).toBe(404);
    expect(noEvent.body.errors.message).toBe('Event not found');
    const noShow = await one(m.key, m.lead({ showId: '99' }));
    expect([noShow.status, noShow.body.errors.message]).toEqual([404, 'Show not found']);
    expect(await m.rows()).toHaveLength(0);
  });

  it('applies the per-type requirements', async () => {
    const m = await market('Leads types');
    const holder = await one(m.key, m.lead({ type: 'TICKET_HOLDER' }));
    expect(holder.status).toBe(400);
    expect(holder.body.errors.details.map((d: { path: string }) => d.path).sort()).toEqual(['price', 'ticketId']);
    expect(holder.body.errors.message).toContain('ticketId is required for TICKET_HOLDER');
    expect((await one(m.key, m.lead({ type: 'TICKET_HOLDER', ticketId: 'T1', price: 40 }))).status).toBe(200);
    // ABANDONED_CART: ticketId and price optional; VIRTUAL_QUEUE: price, option and seating optional.
    expect((await one(m.key, m.lead({ type: 'ABANDONED_CART', buyer: { id: 'b1' } }))).status).toBe(200);
    expect((await one(m.key, m.lead({ type: 'VIRTUAL_QUEUE', buyer: { id: 'b2' } }))).status).toBe(200);
    const badType = await one(m.key, m.lead({ type: 'FAN' }));
    expect([badType.status, badType.body.errors.details[0].path]).toEqual([400, 'type']);
    const badPct = await one(m.key, m.lead({ currency: 'EURO', price: 1 }));
    expect(badPct.body.errors.details[0].path).toBe('currency');
    // `date` is accepted as the synonym of purchaseDate.
    await one(m.key, m.lead({ buyer: { id: 'b3' }, date: '2026-11-20T10:00:00Z' }));
    const [dated] = await getDb()
      .select()
      .from(leads)
      .where(and(eq(leads.partnerId, m.partnerId), eq(leads.buyerKey, 'id:b3')));
    expect(dated.purchaseDate?.toISOString()).toBe('2026-11-20T10:00:00.000Z');
  });

  it('keeps partners apart: another partner’s event is "Event not found"', async () => {
    const a = await market('Leads A');
    const b = await market('Leads B');
    const res = await one(b.key, a.lead());
    expect([res.status, res.body.errors.message]).toEqual([404, 'Event not found']);
    expect(await a.rows()).toHaveLength(0);
  });
});

describe('leads API: bulk', () => {
  it('takes 1,000 mixed leads in one request and refuses the 1,001st', async () => {
    const m = await market('Leads bulk');
    const types = ['TICKET_HOLDER', 'ABANDONED_CART', 'VIRTUAL_QUEUE', 'WISHLIST'];
    const items = Array.from({ length: 1000 }, (_, i) =>
      m.lead({ type: types[i % 4], buyer: { email: `b${i}@example.com` }, ticketId: `T${i}`, price: 10 }),
    );
    expect(await bulk(m.key, items)).toEqual({ status: 200, body: { status: 200, data: true, errors: null } });
    expect(await m.rows()).toHaveLength(1000);
    // A repeat of the same request creates nothing new.
    expect((await bulk(m.key, items)).status).toBe(200);
    expect(await m.rows()).toHaveLength(1000);
    const tooMany = await bulk(m.key, [...items, m.lead()]);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.message).toContain('at most 1000 leads per request');
    const alias = await send(usersBulkPost as Handler, '/v1/marketdata/users/bulk', m.key, [
      m.lead({ buyer: { id: 'x' } }),
    ]);
    expect(alias.status).toBe(200);
    expect(await m.rows()).toHaveLength(1001);
  });

  it('validates each lead on its own: stores the valid ones and names each refused one by index', async () => {
    const m = await market('Leads partial');
    const res = await bulk(m.key, [
      m.lead({ buyer: { email: 'ok1@example.com' } }),
      m.lead({ buyer: {} }),
      m.lead({ buyer: { email: 'ok2@example.com' }, externalReferenceEventId: 'missing' }),
      'not a lead',
      m.lead({ type: 'TICKET_HOLDER', buyer: { email: 'ok3@example.com' } }),
      m.lead({ buyer: { email: 'ok4@example.com' } }),
      // The same buyer twice in one request: one lead, the later one wins.
      m.lead({ buyer: { email: 'ok4@example.com' }, type: 'ABANDONED_CART' }),
    ]);
    expect(res.status).toBe(400);
    expect(res.body.errors.message).toMatch(
      /^4 of 7 leads were refused \(\[1\] buyer\.email or buyer\.phone or buyer\.id is required; \[2\] Event not found; \[3\]/,
    );
    expect(res.body.errors.message).toMatch(/the other 3 were stored$/);
    const paths = res.body.errors.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(['[1].buyer', '[2].externalReferenceEventId', '[3]', '[4].ticketId', '[4].price']);
    const rows = await m.rows();
    expect(rows.map((r) => [r.buyerEmail, r.type]).sort()).toEqual([
      ['ok1@example.com', 'WISHLIST'],
      ['ok4@example.com', 'ABANDONED_CART'],
    ]);
  });
});
