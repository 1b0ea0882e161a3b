import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import {
  buyIntentions,
  listingItems,
  listings,
  payments,
  payouts,
  refunds,
  sellerAccounts,
  tickets,
} from '@/db/schema';
import { pushEvent, testShow } from '@/server/testing/fixtures';
import { sellerMarket } from '@/server/testing/market';
import { syncTickets } from '@/server/testing/ticket-api';
import { createCallerFactory } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/router';
import { marketOverview, overviewFilterOptions, overviewInput } from './overview';

/*
 * The overview's figures on a known data set, written straight into the tables (the ops module only reads
 * them): March 2020, so no other test file's rows fall in the range. Partner A sells in EUR on two events,
 * partner B in USD; one of A's sales is refunded, one is sold after the range, one listing is on sale.
 */

const SELLER = 'ops-seller@example.com';
const PAID_SELLER = 'ops-active-seller@example.com';
const DAY = 86_400;
const at = (iso: string) => new Date(`${iso}Z`);

let A: { partnerId: string; e1: string; e2: string };
let B: { partnerId: string };
let seq = 0;

interface Sale {
  partnerId: string;
  ticketId: string;
  currency: string;
  priceMinor: number;
  createdAt: string;
  soldAt?: string;
  status?: 'SOLD' | 'ACTIVE' | 'UNLISTED';
  buyerFeeMinor?: number;
  payout?: {
    amountMinor: number;
    status: 'SCHEDULED' | 'PAID' | 'CANCELLED';
    dueAt: string;
    seller?: string;
    /** The split as the sale recorded it; absent: a sale from before it was recorded (migration 0036). */
    split?: { sellerFeeMinor: number; partnerFeeMinor: number };
    /** The face value as the sale stored it; absent: not stored (the overview reads the ticket's). */
    faceMinor?: number;
  };
  refund?: { amountMinor: number; at: string };
}

/** One listing of one ticket and, when sold, its completed intention, payout and (optional) refund. */
async function seed(s: Sale) {
  const db = getDb();
  seq += 1;
  const [t] = await db
    .select()
    .from(tickets)
    .where(sql`partner_id = ${s.partnerId} and ticket_id = ${s.ticketId}`);
  const listingId = `lst_ops_${seq}_${Date.now()}`;
  const intentionId = `bi_ops_${seq}_${Date.now()}`;
  const seller = s.payout?.seller ?? SELLER;
  const status = s.status ?? (s.soldAt ? 'SOLD' : 'ACTIVE');
  await db.insert(listings).values({
    id: listingId,
    partnerId: s.partnerId,
    eventPk: t.eventPk,
    showPk: t.showPk,
    ticketOptionId: 'GA',
    sellerEmail: seller,
    type: 'SINGLE',
    status,
    currency: s.currency,
    priceMinor: s.priceMinor,
    ticketCount: 1,
    reservedBy: s.soldAt ? intentionId : null,
    soldAt: s.soldAt ? at(s.soldAt) : null,
    createdAt: at(s.createdAt),
  });
  await db.insert(listingItems).values({
    listingId,
    ticketPk: t.id,
    partnerId: s.partnerId,
    ticketId: s.ticketId,
    open: status === 'ACTIVE',
  });
  if (!s.soldAt) return;
  const fee = s.buyerFeeMinor ?? 0;
  await db.insert(buyIntentions).values({
    id: intentionId,
    partnerId: s.partnerId,
    buyerEmail: 'ops-buyer@example.com',
    status: 'COMPLETED',
    listingIds: [listingId],
    currency: s.currency,
    subtotalMinor: s.priceMinor,
    buyerFeeMinor: fee,
    totalMinor: s.priceMinor + fee,
    expiresAt: at(s.soldAt),
    createdAt: at(s.soldAt),
    endedAt: at(s.soldAt),
    refundedAt: s.refund ? at(s.refund.at) : null,
    refundReason: s.refund ? 'STAFF_REFUND' : null,
  });
  if (s.payout) {
    await db.insert(payouts).values({
      id: `po_ops_${seq}_${Date.now()}`,
      partnerId: s.partnerId,
      sellerEmail: seller,
      listingId,
      intentionId,
      currency: s.currency,
      amountMinor: s.payout.amountMinor,
      grossMinor: s.priceMinor,
      buyerFeeMinor: fee,
      sellerFeeMinor: s.payout.split?.sellerFeeMinor ?? null,
      partnerFeeMinor: s.payout.split?.partnerFeeMinor ?? null,
      faceMinor: s.payout.faceMinor ?? null,
      status: s.payout.status,
      dueAt: at(s.payout.dueAt),
      // Inserted in the purchase's transaction: the sale's moment (the overview reads it as such).
      createdAt: at(s.soldAt),
    });
  }
  if (s.refund) {
    const paymentId = `pay_ops_${seq}_${Date.now()}`;
    await db.insert(payments).values({
      id: paymentId,
      partnerId: s.partnerId,
      purpose: 'buy_intention',
      reference: intentionId,
      description: 'ops test',
      amountMinor: s.priceMinor + fee,
      currency: s.currency,
      buyerEmail: 'ops-buyer@example.com',
      status: 'refunded',
      provider: 'sandbox',
      successUrl: 'https://encore.test/ok',
      cancelUrl: 'https://encore.test/no',
      refundedMinor: s.refund.amountMinor,
      expiresAt: at(s.soldAt),
      paidAt: at(s.soldAt),
    });
    await db.insert(refunds).values({
      id: `rfd_ops_${seq}_${Date.now()}`,
      partnerId: s.partnerId,
      paymentId,
      amountMinor: s.refund.amountMinor,
      currency: s.currency,
      reason: 'STAFF_REFUND',
      status: 'succeeded',
      createdAt: at(s.refund.at),
    });
  }
}

const eventOf = async (partnerId: string, ticketId: string) =>
  (
    await getDb()
      .select()
      .from(tickets)
      .where(sql`partner_id = ${partnerId} and ticket_id = ${ticketId}`)
  )[0].eventPk;

beforeAll(async () => {
  const a = await sellerMarket({
    seller: SELLER,
    name: 'Ops A',
    tickets: ['T1', 'T2', 'T3', 'T4', 'T5', 'T6'].map((ticketId) => ({ ticketId })),
  });
  await pushEvent(a.key, `${a.ref}-2`, [testShow('1')]);
  const synced = await syncTickets(a.key, [
    {
      externalReferenceEventId: `${a.ref}-2`,
      showId: '1',
      ticketOptionId: 'GA',
      ticketId: 'U1',
      buyer: PAID_SELLER,
      ticketAccess: { type: 'OTHER', locator: 'u' },
      price: 40,
    },
  ]);
  expect(synced.status).toBe(200);
  A = { partnerId: a.partnerId, e1: await eventOf(a.partnerId, 'T1'), e2: await eventOf(a.partnerId, 'U1') };
  const b = await sellerMarket({
    seller: SELLER,
    name: 'Ops B',
    show: {
      ticketOptions: [{ title: 'GA', ticketId: 'GA', description: 'g', currency: 'USD', price: '40.00' }],
    },
    tickets: [{ ticketId: 'T1' }],
  });
  B = { partnerId: b.partnerId };

  const p = A.partnerId;
  await seed({
    partnerId: p,
    ticketId: 'T1',
    currency: 'EUR',
    priceMinor: 5000,
    createdAt: '2020-03-01T00:00:00',
    soldAt: '2020-03-02T00:00:00',
    buyerFeeMinor: 500,
    payout: {
      amountMinor: 4500,
      status: 'PAID',
      dueAt: '2020-04-01T00:00:00',
      split: { sellerFeeMinor: 300, partnerFeeMinor: 200 },
      faceMinor: 4000,
    },
  });
  await seed({
    partnerId: p,
    ticketId: 'T2',
    currency: 'EUR',
    priceMinor: 6000,
    createdAt: '2020-03-02T00:00:00',
    soldAt: '2020-03-05T00:00:00',
    buyerFeeMinor: 600,
    payout: {
      amountMinor: 5400,
      status: 'SCHEDULED',
      dueAt: '2020-04-01T00:00:00',
      split: { sellerFeeMinor: 400, partnerFeeMinor: 200 },
      faceMinor: 4000,
    },
  });
  await seed({
    partnerId: p,
    ticketId: 'T3',
    currency: 'EUR',
    priceMinor: 4000,
    createdAt: '2020-03-03T00:00:00',
    soldAt: '2020-03-04T00:00:00',
    buyerFeeMinor: 400,
    payout: {
      amountMinor: 3600,
      status: 'CANCELLED',
      dueAt: '2020-04-01T00:00:00',
      split: { sellerFeeMinor: 250, partnerFeeMinor: 150 },
      faceMinor: 4000,
    },
    refund: { amountMinor: 4400, at: '2020-03-06T12:00:00' },
  });
  await seed({
    partnerId: p,
    ticketId: 'U1',
    currency: 'EUR',
    priceMinor: 8000,
    createdAt: '2020-03-08T00:00:00',
    soldAt: '2020-03-10T00:00:00',
    buyerFeeMinor: 800,
    payout: { amountMinor: 7200, status: 'SCHEDULED', dueAt: '2099-01-01T00:00:00', seller: PAID_SELLER },
  });
  // Listed in the range, sold after it.
  await seed({
    partnerId: p,
    ticketId: 'T4',
    currency: 'EUR',
    priceMinor: 9999,
    createdAt: '2020-03-20T00:00:00',
    soldAt: '2020-04-05T00:00:00',
    payout: { amountMinor: 9000, status: 'SCHEDULED', dueAt: '2020-05-01T00:00:00' },
  });
  await seed({ partnerId: p, ticketId: 'T5', currency: 'EUR', priceMinor: 4500, createdAt: '2020-03-15T00:00:00' });
  await seed({
    partnerId: p,
    ticketId: 'T6',
    currency: 'EUR',
    priceMinor: 4500,
    createdAt: '2020-03-16T00:00:00',
    status: 'UNLISTED',
  });
  await seed({
    partnerId: B.partnerId,
    ticketId: 'T1',
    currency: 'USD',
    priceMinor: 10000,
    createdAt: '2020-03-01T00:00:00',
    soldAt: '2020-03-03T00:00:00',
    buyerFeeMinor: 1000,
    payout: {
      amountMinor: 9000,
      status: 'PAID',
      dueAt: '2020-04-01T00:00:00',
      split: { sellerFeeMinor: 600, partnerFeeMinor: 400 },
      faceMinor: 4000,
    },
  });
  await getDb()
    .insert(sellerAccounts)
    .values({
      id: `sac_ops_${Date.now()}`,
      partnerId: p,
      sellerEmail: PAID_SELLER,
      provider: 'sandbox',
      accountRef: `acct_ops_${Date.now()}`,
      status: 'active',
    });
  // Reissues: T1 and T2 await their new code (2 h and 4 h), U1 was reissued a day after the request.
  const ticket = (id: string) => sql`partner_id = ${p} and ticket_id = ${id}`;
  await getDb()
    .update(tickets)
    .set({ reissueRequestedAt: sql`now() - interval '2 hours'` })
    .where(ticket('T1'));
  await getDb()
    .update(tickets)
    .set({ reissueRequestedAt: sql`now() - interval '4 hours'` })
    .where(ticket('T2'));
  await getDb()
    .update(tickets)
    .set({ reissueRequestedAt: at('2020-03-10T00:00:00'), reissuedAt: at('2020-03-11T00:00:00') })
    .where(ticket('U1'));
});

const MARCH = { from: '2020-03-01', to: '2020-03-31' };
const overview = (filters: Record<string, string>) => marketOverview(overviewInput.parse(filters), getDb());

describe('market overview', () => {
  it('answers every partner’s figures over the range, each currency apart', async () => {
    const o = await overview(MARCH);
    expect(o.currencies.map((c) => c.currency)).toEqual(['EUR', 'USD']);
    const [eur, usd] = o.currencies;
    expect(eur).toEqual({
      currency: 'EUR',
      sales: 4,
      ticketsResold: 4,
      gmvMinor: 23000,
      buyerFeesMinor: 1900, // the refunded purchase's fee is not earned
      sellerFeesMinor: 700, // as recorded on T1 and T2; the refunded sale left out
      partnerFeesMinor: 400,
      unsplitFeesMinor: 800, // U1, sold before the split was recorded: price less payout
      payouts: { dueMinor: 5400, upcomingMinor: 7200, paidMinor: 4500, waitingForInfoMinor: 5400, waitingForInfo: 1 },
      refunds: { count: 1, amountMinor: 4400 },
    });
    expect(usd).toMatchObject({
      currency: 'USD',
      sales: 1,
      gmvMinor: 10000,
      buyerFeesMinor: 1000,
      sellerFeesMinor: 600,
      partnerFeesMinor: 400,
      unsplitFeesMinor: 0,
    });
    expect(usd.payouts.paidMinor).toBe(9000);
    expect(o.sales).toBe(5);
    expect(o.ticketsResold).toBe(5);
    // 1, 1, 2, 2 and 3 days from listing to sale.
    expect(o.medianSecondsToSell).toBe(2 * DAY);
    // 50/40, 60/40, 40/40, 80/40, 100/40 over five tickets.
    expect(o.priceToFace).toBe(1.65);
  });

  it('filters by partner: partner B’s sales never in partner A’s figures', async () => {
    const a = await overview({ ...MARCH, partnerId: A.partnerId });
    expect(a.currencies.map((c) => c.currency)).toEqual(['EUR']);
    expect(a.currencies[0].gmvMinor).toBe(23000);
    expect(a.medianSecondsToSell).toBe(1.5 * DAY);
    expect(a.priceToFace).toBe(1.4375);
    expect(a.activeListings).toEqual({ listings: 1, tickets: 1 });
    // T1…T6 and U1 listed in March; T1–T4 and U1 sold (T4 in April).
    expect(a.sellThrough).toEqual({ listed: 7, sold: 5, rate: 0.7143 });
    expect(a.reissues).toMatchObject({ awaited: 2, reissued: 1, medianDelaySeconds: DAY });
    expect(a.reissues.oldestWaitSeconds).toBeGreaterThanOrEqual(4 * 3600);
    expect(a.reissues.oldestWaitSeconds).toBeLessThan(4 * 3600 + 120);
    expect(a.reissues.medianWaitSeconds).toBeGreaterThanOrEqual(3 * 3600);
    expect(a.reissues.medianWaitSeconds).toBeLessThan(3 * 3600 + 120);

    const b = await overview({ ...MARCH, partnerId: B.partnerId });
    expect(b.currencies).toHaveLength(1);
    expect(b.currencies[0]).toMatchObject({ currency: 'USD', gmvMinor: 10000, sales: 1, refunds: { count: 0 } });
    expect(b.activeListings).toEqual({ listings: 0, tickets: 0 });
    expect(b.reissues).toMatchObject({ awaited: 0, reissued: 0, medianDelaySeconds: null });
  });

  it('reads the face value each sale stored, and the tickets’ own only where none was stored', async () => {
    const p = A.partnerId;
    const prices = await getDb()
      .select({ id: tickets.id, priceMinor: tickets.priceMinor })
      .from(tickets)
      .where(sql`partner_id = ${p}`);
    try {
      // The catalogue changes after the sales: T1–T3 stored 40 at their sale, U1 (sold before 0038) did not.
      await getDb()
        .update(tickets)
        .set({ priceMinor: 10000 })
        .where(sql`partner_id = ${p} and ticket_id in ('T1', 'T2', 'T3')`);
      await getDb()
        .update(tickets)
        .set({ priceMinor: 8000 })
        .where(sql`partner_id = ${p} and ticket_id = 'U1'`);
      // (50 + 60 + 40 + 80) over (40 + 40 + 40 + 80).
      expect((await overview({ ...MARCH, partnerId: p })).priceToFace).toBe(1.15);
    } finally {
      for (const t of prices) {
        await getDb()
          .update(tickets)
          .set({ priceMinor: t.priceMinor })
          .where(sql`id = ${t.id}`);
      }
    }
    expect((await overview({ ...MARCH, partnerId: p })).priceToFace).toBe(1.4375);
  });

  it('filters by event', async () => {
    const e2 = await overview({ ...MARCH, partnerId: A.partnerId, eventId: A.e2 });
    expect(e2.currencies).toEqual([
      expect.objectContaining({ gmvMinor: 8000, sales: 1, payouts: expect.objectContaining({ upcomingMinor: 7200 }) }),
    ]);
    expect(e2.currencies[0].refunds).toEqual({ count: 0, amountMinor: 0 });
    expect(e2.reissues).toMatchObject({ awaited: 0, reissued: 1 });
    const e1 = await overview({ ...MARCH, eventId: A.e1 });
    expect(e1.currencies[0]).toMatchObject({ gmvMinor: 15000, sales: 3, refunds: { count: 1, amountMinor: 4400 } });
    expect(e1.activeListings.listings).toBe(1);
  });

  it('counts only the days asked for, and draws every one of them', async () => {
    const o = await overview({ from: '2020-03-01', to: '2020-03-03', partnerId: A.partnerId });
    expect(o.currencies).toEqual([
      expect.objectContaining({ gmvMinor: 5000, sales: 1, refunds: { count: 0, amountMinor: 0 } }),
    ]);
    expect(o.series).toEqual([
      { day: '2020-03-01', currency: 'EUR', gmvMinor: 0, tickets: 0 },
      { day: '2020-03-02', currency: 'EUR', gmvMinor: 5000, tickets: 1 },
      { day: '2020-03-03', currency: 'EUR', gmvMinor: 0, tickets: 0 },
    ]);
    const march = await overview({ ...MARCH, partnerId: A.partnerId });
    expect(march.series).toHaveLength(31);
    expect(march.series.filter((d) => d.gmvMinor > 0).map((d) => [d.day, d.gmvMinor])).toEqual([
      ['2020-03-02', 5000],
      ['2020-03-04', 4000],
      ['2020-03-05', 6000],
      ['2020-03-10', 8000],
    ]);
  });

  it('answers an empty market as zeros and nulls, not errors', async () => {
    const o = await overview({ from: '2019-01-01', to: '2019-01-02', partnerId: B.partnerId });
    expect(o).toMatchObject({
      currencies: [],
      sales: 0,
      medianSecondsToSell: null,
      priceToFace: null,
      sellThrough: { listed: 0, sold: 0, rate: null },
      series: [],
    });
  });

  it('refuses bad filters, naming the field', () => {
    const issues = (v: unknown) => overviewInput.safeParse(v).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues({ from: '2020-13-01', to: '2020-03-01' })).toEqual([['from', 'from must be a date like 2026-11-27']]);
    expect(issues({ from: '2020-03-02', to: '2020-03-01' })).toEqual([['to', 'to must be on or after from']]);
    expect(issues({ from: '2020-01-01', to: '2021-01-01' })).toEqual([['to', 'The range must be at most 366 days']]);
  });

  it('offers every partner and the chosen partner’s events as filters', async () => {
    const options = await overviewFilterOptions(A.partnerId, getDb());
    expect(options.partners.map((x) => x.id)).toEqual(expect.arrayContaining([A.partnerId, B.partnerId]));
    expect(options.events.map((e) => e.id).sort()).toEqual([A.e1, A.e2].sort());
    expect((await overviewFilterOptions(undefined, getDb())).events).toEqual([]);
  });
});

describe('opsOverview router', () => {
  const createCaller = createCallerFactory(appRouter);
  const staff = createCaller({ staff: { id: 'stf_ops', email: 'ops@encore.test', name: 'Ops', role: 'admin' } });

  it('answers staff the module’s figures, and nobody else', async () => {
    const input = { ...MARCH, partnerId: A.partnerId };
    const figures = await staff.opsOverview.figures(input);
    expect(figures.currencies[0].gmvMinor).toBe(23000);
    await expect(createCaller({ staff: null }).opsOverview.figures(input)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('refuses bad input with a 400 naming the field, and unknown partners and events with a 404', async () => {
    await expect(staff.opsOverview.figures({ from: 'yesterday', to: '2020-03-01' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('from must be a date like 2026-11-27'),
    });
    await expect(staff.opsOverview.figures({ ...MARCH, partnerId: 'ptr_nope' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Partner not found',
    });
    // Partner B's id with partner A's event: not B's.
    await expect(staff.opsOverview.figures({ ...MARCH, partnerId: B.partnerId, eventId: A.e1 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Event not found for this partner',
    });
    const options = await staff.opsOverview.filters({ partnerId: B.partnerId });
    expect(options.events).toHaveLength(1);
  });
});
