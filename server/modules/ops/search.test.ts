import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as buyIntentionPost } from '@/app/v1/marketplace/buyingflow/buyIntention/route';
import { getDb } from '@/db';
import { tickets } from '@/db/schema';
import { startFanSession } from '@/server/modules/fans';
import { createListing, refundPurchase } from '@/server/modules/marketplace';
import { apiRequest } from '@/server/testing/fixtures';
import { recordJobsInFile } from '@/server/testing/jobs';
import { sellerMarket } from '@/server/testing/market';
import { payOnSandbox } from '@/server/testing/payments';
import { opsSearch, type OpsSearchResult, SECTION_LIMIT, searchKindOf } from './search';

recordJobsInFile();

const unique = (name: string) => `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@fans.test`;
const SELLER_A = unique('seller-a');
const SELLER_B = unique('seller-b');
const BUYER = unique('Buyer');
const ORDER = `ORD-${Date.now()}`;
// The partner's ticketId both partners use (partner ids are scoped per partner, never global).
const SHARED_TICKET = `TK-${Date.now()}`;

let a: Awaited<ReturnType<typeof sellerMarket>>;
let b: Awaited<ReturnType<typeof sellerMarket>>;
let sold: { listingId: string; intentionId: string; paymentId: string; ticketPk: string };
let listedAtB: string;

const search = (q: string, more?: 'sessions') => opsSearch({ q, more }, getDb());
function ids<K extends 'email'>(r: OpsSearchResult, kind: K): Extract<OpsSearchResult, { kind: K }>;
function ids(r: OpsSearchResult, kind: string) {
  expect(r.kind).toBe(kind);
  return r;
}
const byId = (r: OpsSearchResult) => {
  if (r.kind === 'email') throw new Error('an e-mail result');
  return r;
};

beforeAll(async () => {
  const ticketsOf = (prefix: string) => [
    { ticketId: SHARED_TICKET, orderId: ORDER },
    { ticketId: `${prefix}-2`, orderId: ORDER },
  ];
  a = await sellerMarket({ seller: SELLER_A, name: 'Search A', tickets: ticketsOf('A') });
  b = await sellerMarket({ seller: SELLER_B, name: 'Search B', tickets: ticketsOf('B') });
  const listing = await createListing(
    { partnerId: a.partnerId, sellerEmail: SELLER_A, ticketIds: [SHARED_TICKET], price: 40 },
    getDb(),
  );
  listedAtB = (
    await createListing(
      { partnerId: b.partnerId, sellerEmail: SELLER_B, ticketIds: [SHARED_TICKET], price: 45 },
      getDb(),
    )
  ).id;
  const res = await buyIntentionPost(
    apiRequest('/v1/marketplace/buyingflow/buyIntention', {
      key: a.key,
      body: { items: [listing.id], user: BUYER },
    }),
  );
  const body = await res.json();
  expect(res.status).toBe(200);
  const paid = await payOnSandbox(body.data.paymentUrl);
  const [ticket] = await getDb()
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.partnerId, a.partnerId), eq(tickets.ticketId, SHARED_TICKET)));
  sold = { listingId: listing.id, intentionId: body.data.id, paymentId: paid.paymentId, ticketPk: ticket.id };
});

describe('searchKindOf', () => {
  it('recognises our ids by prefix, an e-mail by shape, and anything else as a partner id', () => {
    expect(searchKindOf('tkt_0123456789abcdefghij')).toBe('ticket');
    expect(searchKindOf('lst_0123456789abcdefghij')).toBe('listing');
    expect(searchKindOf('pay_0123456789abcdefghij')).toBe('payment');
    expect(searchKindOf('bi_0123456789abcdefghij')).toBe('intention');
    expect(searchKindOf('Fan@Example.com')).toBe('email');
    expect(searchKindOf('T-0001')).toBe('partnerRef');
    expect(searchKindOf('tkt_short')).toBe('partnerRef'); // not our id's shape: a partner may use it
    expect(searchKindOf('a@b')).toBe('partnerRef');
  });
});

describe('opsSearch', () => {
  it('an e-mail, in any case, gives the fan across partners: purchases with payment state, tickets, mails and sessions', async () => {
    await startFanSession(a.partnerId, BUYER, getDb());
    await startFanSession(b.partnerId, BUYER, getDb());
    const r = ids(await search(`  ${BUYER.toUpperCase()} `), 'email');
    expect(r.email).toBe(BUYER.toLowerCase());
    expect(r.fan.purchases.total).toBe(1);
    const [purchase] = r.fan.purchases.items;
    expect(purchase).toMatchObject({
      id: sold.intentionId,
      partnerId: a.partnerId,
      partnerName: a.partner.name,
      status: 'COMPLETED',
      paymentId: sold.paymentId,
      paymentStatus: 'paid',
      refundedMinor: 0,
      refunds: [],
      listingIds: [sold.listingId],
    });
    // The bought ticket is now the buyer's.
    expect(r.fan.tickets.items.map((t) => [t.partnerId, t.id])).toEqual([[a.partnerId, sold.ticketPk]]);
    expect(r.fan.mails.items.map((m) => m.kind)).toContain('purchaseConfirmation');
    expect(r.fan.mails.items.every((m) => m.partnerId === a.partnerId)).toBe(true);
    expect(r.fan.sessions.items.map((s) => s.partnerId).sort()).toEqual([a.partnerId, b.partnerId].sort());
    expect(r.fan.sessions.items.every((s) => s.open)).toBe(true);
    expect(r.fan.listings.total).toBe(0);

    const seller = ids(await search(SELLER_A), 'email');
    expect(seller.fan.listings.items.map((l) => [l.partnerId, l.id, l.status])).toEqual([
      [a.partnerId, sold.listingId, 'SOLD'],
    ]);
    expect(seller.fan.payouts.items).toMatchObject([
      { partnerId: a.partnerId, listingId: sold.listingId, intentionId: sold.intentionId, status: 'SCHEDULED' },
    ]);
    expect(seller.fan.purchases.total).toBe(0);
  });

  it('a long section shows SECTION_LIMIT rows with its total, and all of them when asked for more', async () => {
    const fan = unique('many');
    for (let i = 0; i < SECTION_LIMIT + 2; i++) await startFanSession(a.partnerId, fan, getDb());
    const first = ids(await search(fan), 'email');
    expect(first.fan.sessions.items).toHaveLength(SECTION_LIMIT);
    expect(first.fan.sessions.total).toBe(SECTION_LIMIT + 2);
    const all = ids(await search(fan, 'sessions'), 'email');
    expect(all.fan.sessions.items).toHaveLength(SECTION_LIMIT + 2);
  });

  it('the listing id, payment id and intention id all land on the same purchase', async () => {
    for (const q of [sold.listingId, sold.paymentId, sold.intentionId]) {
      const r = byId(await search(q));
      expect(r.purchases.map((p) => [p.partnerId, p.id, p.paymentId])).toEqual([
        [a.partnerId, sold.intentionId, sold.paymentId],
      ]);
      expect(r.listings.map((l) => [l.partnerId, l.id])).toEqual([[a.partnerId, sold.listingId]]);
      expect(r.tickets.map((t) => [t.partnerId, t.id])).toEqual([[a.partnerId, sold.ticketPk]]);
    }
    expect(byId(await search(sold.listingId)).kind).toBe('listing');
    expect(byId(await search(sold.paymentId)).kind).toBe('payment');
    expect(byId(await search(sold.intentionId)).kind).toBe('intention');
  });

  it("the partner's ticketId shows each partner's ticket under its own partner, and never mixes their rows", async () => {
    const r = byId(await search(SHARED_TICKET));
    expect(r.kind).toBe('partnerRef');
    expect(r.tickets.map((t) => [t.partnerName, t.ticketId]).sort()).toEqual(
      [
        [a.partner.name, SHARED_TICKET],
        [b.partner.name, SHARED_TICKET],
      ].sort(),
    );
    // Each partner's listing of its own ticket; the purchase only at A, where it was made.
    expect(r.listings.map((l) => [l.partnerId, l.id]).sort()).toEqual(
      [
        [a.partnerId, sold.listingId],
        [b.partnerId, listedAtB],
      ].sort(),
    );
    expect(r.purchases.map((p) => [p.partnerId, p.id])).toEqual([[a.partnerId, sold.intentionId]]);
    for (const row of [...r.tickets, ...r.listings, ...r.purchases])
      expect(row.partnerName).toBe(row.partnerId === a.partnerId ? a.partner.name : b.partner.name);

    // Our tkt_ id is global: only A's ticket.
    const own = byId(await search(sold.ticketPk));
    expect(own.kind).toBe('ticket');
    expect(own.tickets.map((t) => t.partnerId)).toEqual([a.partnerId]);
    expect(own.listings.map((l) => l.id)).toEqual([sold.listingId]);
  });

  it("the partner's orderId finds that order's tickets at each partner", async () => {
    const r = byId(await search(` ${ORDER} `));
    expect(r.tickets).toHaveLength(4);
    expect(new Set(r.tickets.map((t) => t.partnerId))).toEqual(new Set([a.partnerId, b.partnerId]));
    expect(r.tickets.every((t) => t.orderId === ORDER)).toBe(true);
  });

  it('after a staff refund the purchase shows refunded with the refund and its reason', async () => {
    await refundPurchase(
      {
        partnerId: a.partnerId,
        intentionId: sold.intentionId,
        reason: 'Fan could not attend',
        staffEmail: 'staff@encore.test',
      },
      getDb(),
    );
    const [purchase] = byId(await search(sold.paymentId)).purchases;
    expect(purchase).toMatchObject({ paymentStatus: 'refunded', refundReason: 'STAFF_REFUND' });
    expect(purchase.refundedMinor).toBe(purchase.paymentAmountMinor);
    expect(purchase.refunds).toHaveLength(1);
    expect(purchase.refunds[0]).toMatchObject({ status: 'succeeded', amountMinor: purchase.paymentAmountMinor });
    expect(purchase.refunds[0].reason).toContain('Fan could not attend');
    expect(purchase.refundedAt).toBeInstanceOf(Date);
  });

  it('nothing found is an empty result; blank or over-long input is a 400 naming q', async () => {
    const none = byId(await search('lst_00000000000000000000'));
    expect(none).toMatchObject({ kind: 'listing', found: 0, tickets: [], listings: [], purchases: [] });
    const nobody = ids(await search(unique('nobody')), 'email');
    expect(nobody.found).toBe(0);
    for (const q of ['', '   ', 'x'.repeat(255)]) {
      await expect(search(q)).rejects.toMatchObject({ status: 400, details: [{ path: 'q' }] });
    }
  });
});
