import { readFileSync } from 'node:fs';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { listings, payments, payouts, transfers } from '@/db/schema';
import { setMarketTerms } from '@/server/modules/marketplace';
import { AppError } from '@/server/lib/errors';
import { recordJobsInFile } from '@/server/testing/jobs';
import { sellerMarket } from '@/server/testing/market';
import { buy, moneyMarket, SELLER } from '@/server/testing/money';
import { marketOverview } from './overview';
import { periodOf, thisWeek } from './period';
import { reconcile } from './reconciliation';

recordJobsInFile();

const today = new Date().toISOString().slice(0, 10);
const todayOnly = { from: today, to: today };

describe('money reconciliation', () => {
  it('a market made through the real purchase, refund and payout functions balances to the minor unit', async () => {
    const m = await moneyMarket('Balanced money');
    const r = await reconcile({ partnerId: m.partnerId, ...todayOnly }, getDb());
    // T1 40.00: buyer fee 4.00 + 0.50, seller fee 2.00 + 1.00, primary fee 2.00 → payout 35.00 of 44.50.
    // T2 50.00 + 5.50 refunded whole. T3 33.33: buyer fee 3.33 + 0.50, seller fee 1.67 + 1.00, primary
    // fee 1.00 (3 %) → payout 29.66 of 37.16.
    expect(r.totals).toEqual([
      {
        partnerId: m.partnerId,
        partnerName: m.partner.name,
        currency: 'EUR',
        payments: 3,
        capturedMinor: 4450 + 5550 + 3716,
        payoutsMinor: 3500 + 2966,
        encoreFeesMinor: 450 + 300 + (383 + 267),
        partnerFeesMinor: 200 + 100,
        refundsMinor: 5550,
        differenceMinor: 0,
        mismatches: 0,
      },
    ]);
    expect(r.mismatches).toEqual([]);
    expect(r.mismatchCount).toBe(0);
    const state = (s: string) => r.payoutsByState.find((p) => p.state === s);
    expect(state('PAID')).toMatchObject({ payouts: 1, amountMinor: 3500 });
    expect(state('WAITING_FOR_PAYOUT_INFO')).toMatchObject({ payouts: 1, amountMinor: 2966 });
    expect(state('CANCELLED')).toMatchObject({ payouts: 1, amountMinor: 4650 });
    expect(state('DUE')).toBeUndefined();
  });

  it('flags a payout one minor unit off, a payout paid on a refunded sale and a missing refund, with their ids', async () => {
    const m = await moneyMarket('Corrupted money');
    await getDb()
      .update(payouts)
      .set({ amountMinor: sql`${payouts.amountMinor} + 1` as unknown as number })
      .where(eq(payouts.id, m.due.payoutId));
    // The refunded sale's payout marked paid: the seller got money the buyer got back.
    await getDb()
      .update(payouts)
      .set({ status: 'PAID', paidAt: new Date() })
      .where(eq(payouts.id, m.refunded.payoutId));
    const r = await reconcile({ partnerId: m.partnerId, ...todayOnly }, getDb());
    expect(r.mismatchCount).toBe(2);
    const byPayment = new Map(r.mismatches.map((x) => [x.paymentId, x]));
    expect(byPayment.get(m.due.paymentId)).toMatchObject({
      intentionId: m.due.intentionId,
      payoutIds: [m.due.payoutId],
      capturedMinor: 3716,
      payoutsMinor: 2967,
      differenceMinor: -1,
      notes: [`Payout ${m.due.payoutId} is 2967; its sale's price less the fees recorded is 2966`],
    });
    expect(byPayment.get(m.refunded.paymentId)).toMatchObject({
      intentionId: m.refunded.intentionId,
      payoutIds: [m.refunded.payoutId],
      refundIds: [`rfd_${m.refunded.intentionId}_staff`],
      refundsMinor: 5550,
      differenceMinor: -4650,
      notes: [`Payout ${m.refunded.payoutId} was paid although its sale was refunded: recover it from the seller`],
    });
    expect(r.totals[0]).toMatchObject({ mismatches: 2, differenceMinor: -4651 });

    // A refund the payment says happened but no refund row records.
    await getDb().update(payouts).set({ amountMinor: 3500 }).where(eq(payouts.id, m.paidOut.payoutId));
    await getDb().update(payments).set({ refundedMinor: 100 }).where(eq(payments.id, m.paidOut.paymentId));
    const again = await reconcile({ partnerId: m.partnerId, ...todayOnly }, getDb());
    expect(again.mismatches.find((x) => x.paymentId === m.paidOut.paymentId)).toMatchObject({
      differenceMinor: 0,
      notes: ['The payment says 100 refunded; its succeeded refunds add up to 0'],
    });
  });

  it('keeps partners apart: one partner’s report never holds another’s payments, mismatches or payouts', async () => {
    const a = await moneyMarket('Money A');
    const b = await moneyMarket('Money B');
    await getDb().update(payouts).set({ amountMinor: 1 }).where(eq(payouts.id, b.paidOut.payoutId));
    const onlyA = await reconcile({ partnerId: a.partnerId, ...todayOnly }, getDb());
    expect(onlyA.totals.map((t) => t.partnerId)).toEqual([a.partnerId]);
    expect(onlyA.mismatchCount).toBe(0);
    expect(new Set(onlyA.payoutsByState.map((p) => p.partnerId))).toEqual(new Set([a.partnerId]));
    const onlyB = await reconcile({ partnerId: b.partnerId, ...todayOnly }, getDb());
    expect(onlyB.mismatches.map((x) => x.paymentId)).toEqual([b.paidOut.paymentId]);
    const everyone = await reconcile(todayOnly, getDb());
    const ids = everyone.totals.map((t) => t.partnerId);
    expect(ids).toEqual(expect.arrayContaining([a.partnerId, b.partnerId]));
    expect(everyone.mismatches.map((x) => x.paymentId)).toContain(b.paidOut.paymentId);
  });

  it('counts a payment in the period it was paid in: from its first microsecond to the end of its last day', async () => {
    const m = await moneyMarket('Money periods');
    const at = (id: string, when: string) =>
      getDb()
        .update(payments)
        .set({ paidAt: new Date(when) })
        .where(eq(payments.id, id));
    await at(m.paidOut.paymentId, '2026-03-02T00:00:00.000Z'); // first instant of Monday
    await at(m.refunded.paymentId, '2026-03-08T23:59:59.999Z'); // last millisecond of Sunday
    await at(m.due.paymentId, '2026-03-09T00:00:00.000Z'); // next Monday: out
    const week = await reconcile({ partnerId: m.partnerId, from: '2026-03-02', to: '2026-03-08' }, getDb());
    expect(week.totals[0]).toMatchObject({ payments: 2, capturedMinor: 4450 + 5550, differenceMinor: 0 });
    const before = await reconcile({ partnerId: m.partnerId, from: '2026-03-01', to: '2026-03-01' }, getDb());
    expect(before.totals).toEqual([]);
    const next = await reconcile({ partnerId: m.partnerId, from: '2026-03-09', to: '2026-03-09' }, getDb());
    expect(next.totals[0]).toMatchObject({ payments: 1, capturedMinor: 3716 });
  });

  it('stores each sale’s split on its payout, at the sale’s moment, as the purchase charged it', async () => {
    const m = await moneyMarket('Split money');
    const ids = [m.paidOut, m.refunded, m.due].map((x) => x.payoutId);
    const rows = await getDb()
      .select({ po: payouts, soldAt: listings.soldAt })
      .from(payouts)
      .innerJoin(listings, eq(listings.id, payouts.listingId))
      .where(inArray(payouts.id, ids));
    const byId = new Map(rows.map((r) => [r.po.id, r]));
    const split = (id: string) => {
      const { po } = byId.get(id)!;
      return [po.grossMinor, po.buyerFeeMinor, po.sellerFeeMinor, po.partnerFeeMinor, po.amountMinor, po.faceMinor];
    };
    // The face value: each ticket's price as the partner sent it (40.00).
    expect(split(m.paidOut.payoutId)).toEqual([4000, 450, 300, 200, 3500, 4000]);
    expect(split(m.refunded.payoutId)).toEqual([5000, 550, 350, 0, 4650, 4000]);
    expect(split(m.due.payoutId)).toEqual([3333, 383, 267, 100, 2966, 4000]);
    // The overview reads a payout's created_at as its sale's moment: the same transaction's now().
    for (const r of rows) expect(r.po.createdAt.getTime()).toBe(r.soldAt?.getTime());
  });

  it('stores a sale’s face value: each ticket’s own price, else its option’s, summed over the listing', async () => {
    const m = await sellerMarket({
      seller: SELLER,
      name: 'Face values',
      show: {
        ticketOptions: [
          { title: 'GA', ticketId: 'GA', description: 'g', currency: 'EUR', price: '30.00' },
          { title: 'Guest', ticketId: 'GUEST', description: 'no price', currency: 'EUR' },
        ],
      },
      tickets: [
        { ticketId: 'OWN', orderId: 'O1', price: 45 },
        { ticketId: 'OPT', orderId: 'O1', price: undefined },
        { ticketId: 'NONE', orderId: 'O2', ticketOptionId: 'GUEST', price: undefined },
      ],
    });
    const sale = await buy(m.partnerId, SELLER, ['OWN', 'OPT'], 50);
    // No face value anywhere: none stored, and the figure leaves the ticket out.
    const unknown = await buy(m.partnerId, SELLER, 'NONE', 60);
    const [po] = await getDb().select().from(payouts).where(eq(payouts.id, sale.payoutId));
    // 45.00 sent with the ticket, plus the option's 30.00 for the ticket sent without a price.
    expect(po.faceMinor).toBe(4500 + 3000);
    expect(po.grossMinor).toBe(2 * 5000);
    const [none] = await getDb().select().from(payouts).where(eq(payouts.id, unknown.payoutId));
    expect(none.faceMinor).toBeNull();
    const o = await marketOverview({ from: todayOnly.from, to: todayOnly.to, partnerId: m.partnerId }, getDb());
    expect(o.priceToFace).toBe(1.3333);
    // Migration 0038's backfill (here for these payouts only) finds the same for sales from before it.
    await getDb().update(payouts).set({ faceMinor: null }).where(eq(payouts.id, sale.payoutId));
    const backfill = readFileSync('db/migrations/0038_payout_face.sql', 'utf8').split('--> statement-breakpoint')[1];
    expect(backfill).toMatch(/^\s*UPDATE "payouts" p SET "face_minor"/);
    const only = `AND p."id" IN ('${sale.payoutId}', '${unknown.payoutId}')`;
    await getDb().execute(sql.raw(`${backfill.trim().replace(/;$/, '')} ${only}`));
    const after = await getDb()
      .select({ id: payouts.id, faceMinor: payouts.faceMinor })
      .from(payouts)
      .where(inArray(payouts.id, [sale.payoutId, unknown.payoutId]));
    expect(new Map(after.map((r) => [r.id, r.faceMinor]))).toEqual(
      new Map([
        [sale.payoutId, 7500],
        [unknown.payoutId, null],
      ]),
    );
  });

  it('stays balanced when the partner’s fees change after the sale; the overview splits Encore’s and the partner’s fees', async () => {
    const m = await moneyMarket('Fees changed later');
    const before = await reconcile({ partnerId: m.partnerId, ...todayOnly }, getDb());
    await setMarketTerms(
      m.partnerId,
      { buyerFeePercent: 20, buyerFeeFixed: 1, sellerFeePercent: 12, sellerFeeFixed: 2, payoutDelayDays: 3 },
      getDb(),
    );
    const after = await reconcile({ partnerId: m.partnerId, ...todayOnly }, getDb());
    expect(after.mismatches).toEqual([]);
    expect(after.totals).toEqual(before.totals);
    expect(after.totals[0]).toMatchObject({ encoreFeesMinor: 450 + 300 + (383 + 267), partnerFeesMinor: 300 });

    const o = await marketOverview({ from: today, to: today, partnerId: m.partnerId }, getDb());
    expect(o.currencies).toEqual([
      expect.objectContaining({
        currency: 'EUR',
        sales: 3,
        gmvMinor: 4000 + 5000 + 3333,
        buyerFeesMinor: 450 + 383, // the refunded sale's fee was given back
        sellerFeesMinor: 300 + 267,
        partnerFeesMinor: 200 + 100,
        unsplitFeesMinor: 0,
      }),
    ]);

    // A sale from before the split was stored (migration 0036) is recomputed from today's terms: the
    // change now shows, as the fallback documents.
    await getDb()
      .update(payouts)
      .set({ sellerFeeMinor: null, partnerFeeMinor: null })
      .where(eq(payouts.id, m.paidOut.payoutId));
    const legacy = await reconcile({ partnerId: m.partnerId, ...todayOnly }, getDb());
    expect(legacy.mismatches.map((x) => x.paymentId)).toEqual([m.paidOut.paymentId]);
    expect(legacy.mismatches[0].notes).toEqual([`Payout ${m.paidOut.payoutId} is 3500; the terms give 3120`]);
    const unsplit = await marketOverview({ from: today, to: today, partnerId: m.partnerId }, getDb());
    expect(unsplit.currencies[0]).toMatchObject({ sellerFeesMinor: 267, partnerFeesMinor: 100, unsplitFeesMinor: 500 });
  });

  it('shows what a provider’s rounding kept back from a paid payout, beside the payouts; the payment still balances', async () => {
    const m = await moneyMarket('Rounded payout');
    const paidState = async () =>
      (await reconcile({ partnerId: m.partnerId, ...todayOnly }, getDb())).payoutsByState.find(
        (p) => p.state === 'PAID',
      );
    // The sandbox sends what is owed: nothing rounded off.
    expect(await paidState()).toMatchObject({ payouts: 1, amountMinor: 3500, roundedOffMinor: 0 });
    // As Stripe rounds a TWD payout down to whole dollars: 35.00 owed, 34.50 sent (a payout recorded
    // before fees rounded the payouts themselves).
    const [sent] = await getDb()
      .update(transfers)
      .set({ sentMinor: 3450 })
      .where(and(eq(transfers.partnerId, m.partnerId), eq(transfers.idempotencyKey, m.paidOut.payoutId)))
      .returning();
    expect(sent.amountMinor).toBe(3500);
    const r = await reconcile({ partnerId: m.partnerId, ...todayOnly }, getDb());
    expect(r.payoutsByState.find((p) => p.state === 'PAID')).toMatchObject({
      payouts: 1,
      amountMinor: 3500,
      roundedOffMinor: 50,
    });
    expect(r.payoutsByState.filter((p) => p.state !== 'PAID').map((p) => p.roundedOffMinor)).toEqual([0, 0]);
    // Owed is what the payout counts at: the identity holds, and the 0.50 is shown, not a difference.
    expect(r.mismatches).toEqual([]);
    expect(r.totals[0]).toMatchObject({ payoutsMinor: 3500 + 2966, differenceMinor: 0 });
    // A payment that does not balance for another reason shows its rounding too.
    await getDb().update(payouts).set({ amountMinor: 3501 }).where(eq(payouts.id, m.paidOut.payoutId));
    const off = await reconcile({ partnerId: m.partnerId, ...todayOnly }, getDb());
    expect(off.mismatches).toEqual([
      expect.objectContaining({ paymentId: m.paidOut.paymentId, differenceMinor: -1, payoutRoundingMinor: 51 }),
    ]);
  });

  it('answers a bad period with a 400 naming the field', async () => {
    const fail = async (from: string, to: string) => {
      try {
        await reconcile({ from, to }, getDb());
      } catch (err) {
        return err instanceof AppError ? { status: err.status, details: err.details } : err;
      }
      return null;
    };
    expect(await fail('2026-13-01', '2026-03-02')).toMatchObject({ status: 400, details: [{ path: 'from' }] });
    expect(await fail('2026-03-02', 'yesterday')).toMatchObject({ status: 400, details: [{ path: 'to' }] });
    expect(await fail('2026-03-09', '2026-03-02')).toMatchObject({
      status: 400,
      details: [{ path: 'to', message: 'to must not be before from' }],
    });
    expect(await fail('2026-02-30', '2026-03-02')).toMatchObject({ status: 400, details: [{ path: 'from' }] });
    expect(() => periodOf({ from: '2024-01-01', to: '2026-01-01' })).toThrow('A period covers at most 367 days');
  });

  it('defaults to this week, Monday to Sunday', () => {
    expect(thisWeek(new Date('2026-11-27T03:00:00Z'))).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(thisWeek(new Date('2026-11-23T00:00:00Z'))).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(thisWeek(new Date('2026-11-29T23:59:59Z'))).toEqual({ from: '2026-11-23', to: '2026-11-29' });
  });
});
