import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { createBuyIntention, createListing } from '@/server/modules/marketplace';
import { getPayment } from '@/server/modules/payments';
import { listMessages } from '@/server/modules/webhooks';
import { makePartner, pushEvent, testShow } from '@/server/testing/fixtures';
import { recordJobsInFile } from '@/server/testing/jobs';
import { syncTickets } from '@/server/testing/ticket-api';
import { createCallerFactory } from '../init';
import { appRouter } from '../router';
import { payOnSandbox } from '@/server/testing/payments';

const createCaller = createCallerFactory(appRouter);
const staff = createCaller({ staff: { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' } });
const anonymous = createCaller({ staff: null });

recordJobsInFile();

const SELLER = 'seller@example.com';
const BUYER = 'buyer@example.com';

/** A partner with two events (show 1, option GA at 40.00 EUR, in a year), tickets T1–T3 and U1 owned by SELLER. */
async function market() {
  const { partner, apiKey } = await makePartner('Market dashboard');
  const date = new Date(Date.now() + 365 * 24 * 3600_000).toISOString();
  const refs = [`evt-a-${partner.id}`, `evt-b-${partner.id}`];
  for (const ref of refs) await pushEvent(apiKey, ref, [testShow('1', { date })]);
  const ticket = (ref: string, ticketId: string) => ({
    externalReferenceEventId: ref,
    showId: '1',
    ticketOptionId: 'GA',
    buyer: SELLER,
    ticketAccess: { type: 'OTHER', locator: 'x' },
    price: 40,
    ticketId,
  });
  const res = await syncTickets(apiKey, [
    ticket(refs[0], 'T1'),
    ticket(refs[0], 'T2'),
    ticket(refs[0], 'T3'),
    ticket(refs[1], 'U1'),
  ]);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { partnerId: partner.id, refs };
}

async function paySandbox(paymentUrl: string) {
  const paid = await payOnSandbox(paymentUrl);
  expect(paid.status).toBe(303);
  return paid.paymentId;
}

/** Three listings on event A (T1 sold to BUYER, T2 active, T3 held by a pending intention), one on event B. */
async function soldMarket() {
  const m = await market();
  const list = (ticketId: string, price: number) =>
    createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: [ticketId], price }, getDb());
  const sold = await list('T1', 100);
  const active = await list('T2', 50);
  const held = await list('T3', 60);
  const other = await list('U1', 70);
  const intention = await createBuyIntention(m.partnerId, { items: [sold.id], user: BUYER }, getDb());
  const paymentId = await paySandbox(intention.paymentUrl!);
  await createBuyIntention(m.partnerId, { items: [held.id], user: 'later@example.com' }, getDb());
  return { ...m, sold, active, held, other, intentionId: intention.id, paymentId };
}

describe('market router', () => {
  it('refuses callers who are not signed in', async () => {
    const { partner } = await makePartner('Market auth');
    const partnerId = partner.id;
    for (const call of [
      anonymous.market.listings({ partnerId }),
      anonymous.market.purchases({ partnerId }),
      anonymous.market.payouts({ partnerId }),
      anonymous.market.terms.get({ partnerId }),
      anonymous.market.terms.set({
        partnerId,
        buyerFeePercent: 1,
        buyerFeeFixed: 0,
        sellerFeePercent: 0,
        sellerFeeFixed: 0,
        payoutDelayDays: 0,
      }),
      anonymous.market.refund({ partnerId, intentionId: 'bi_x', reason: 'x' }),
    ]) {
      await expect(call).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('lists listings newest first, by status and by event, with their tickets and event', async () => {
    const m = await soldMarket();
    const all = await staff.market.listings({ partnerId: m.partnerId });
    expect(all).toMatchObject({ total: 4, page: 1, pageCount: 1 });
    expect(all.items.map((l) => l.id)).toEqual([m.other.id, m.held.id, m.active.id, m.sold.id]);
    expect(all.items[3]).toMatchObject({
      status: 'SOLD',
      type: 'SINGLE',
      eventRef: m.refs[0],
      showId: '1',
      ticketIds: ['T1'],
      price: 100,
      currency: 'EUR',
      sellerEmail: SELLER,
      soldAt: expect.any(Date),
    });
    const byStatus = await staff.market.listings({ partnerId: m.partnerId, status: 'ACTIVE' });
    expect(byStatus.items.map((l) => l.id)).toEqual([m.other.id, m.active.id]);
    const byEvent = await staff.market.listings({ partnerId: m.partnerId, eventRef: m.refs[1] });
    expect(byEvent).toMatchObject({ total: 1, items: [{ id: m.other.id, ticketIds: ['U1'] }] });
    const both = await staff.market.listings({ partnerId: m.partnerId, eventRef: m.refs[0], status: 'RESERVED' });
    expect(both.items.map((l) => l.id)).toEqual([m.held.id]);
    const paged = await staff.market.listings({ partnerId: m.partnerId, page: 2, pageSize: 3 });
    expect(paged).toMatchObject({ total: 4, page: 2, pageCount: 2, items: [{ id: m.sold.id }] });
    // Another partner sees none of them.
    const { partner: other } = await makePartner('Market other');
    expect((await staff.market.listings({ partnerId: other.id })).total).toBe(0);
  });

  it('lists paid purchases and payouts; refunds one: payment refunded, payout cancelled, partner told; never twice', async () => {
    const m = await soldMarket();
    const purchases = await staff.market.purchases({ partnerId: m.partnerId });
    // The pending intention took no money: not a purchase.
    expect(purchases.total).toBe(1);
    expect(purchases.items[0]).toMatchObject({
      id: m.intentionId,
      status: 'COMPLETED',
      buyerEmail: BUYER,
      listingIds: [m.sold.id],
      total: 100,
      currency: 'EUR',
      paymentId: m.paymentId,
      paymentStatus: 'paid',
      refunded: 0,
      refundable: true,
    });
    const payouts = await staff.market.payouts({ partnerId: m.partnerId });
    expect(payouts).toMatchObject({
      total: 1,
      items: [{ listingId: m.sold.id, sellerEmail: SELLER, status: 'SCHEDULED', amount: 100, currency: 'EUR' }],
    });
    expect((await staff.market.payouts({ partnerId: m.partnerId, status: 'PAID' })).total).toBe(0);

    const refund = await staff.market.refund({
      partnerId: m.partnerId,
      intentionId: m.intentionId,
      reason: 'Show moved, buyer cannot come',
    });
    expect(refund).toMatchObject({
      intentionId: m.intentionId,
      paymentId: m.paymentId,
      refundStatus: 'succeeded',
      refunded: 100,
      currency: 'EUR',
      cancelledPayouts: [payouts.items[0].id],
    });
    expect((await getPayment(m.partnerId, m.paymentId, getDb())).status).toBe('refunded');
    expect((await staff.market.payouts({ partnerId: m.partnerId, status: 'CANCELLED' })).total).toBe(1);
    expect((await staff.market.purchases({ partnerId: m.partnerId })).items[0]).toMatchObject({
      paymentStatus: 'refunded',
      refunded: 100,
      refundable: false,
      endReason: 'Refunded: Show moved, buyer cannot come',
    });
    const messages = await listMessages({ partnerId: m.partnerId, action: 'ticket.refunded' }, getDb());
    expect(messages.items).toHaveLength(1);
    expect(messages.items[0]).toMatchObject({
      id: refund.messageId,
      family: 'ticket',
      data: { ids: ['T1'], buyerEmail: BUYER, reason: 'Show moved, buyer cannot come' },
    });

    await expect(
      staff.market.refund({ partnerId: m.partnerId, intentionId: m.intentionId, reason: 'Again' }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: 'This purchase has already been refunded' });
    // The refund is in the audit log, once: who, the reason and the amount (the refused second one left none).
    const audit = await staff.audit.list({ partnerId: m.partnerId, action: 'purchase.refunded' });
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0]).toMatchObject({
      actorLabel: 'ops@encore.test',
      targetId: m.intentionId,
      before: { refunded: false },
      after: { refunded: true, reason: 'Show moved, buyer cannot come', amountMinor: 10000, currency: 'EUR' },
    });
    expect((await listMessages({ partnerId: m.partnerId, action: 'ticket.refunded' }, getDb())).total).toBe(1);
  });

  it('refuses a purchase that is not completed, an empty reason, and another partner’s purchase', async () => {
    const m = await soldMarket();
    const pending = await createBuyIntention(m.partnerId, { items: [m.active.id], user: BUYER }, getDb());
    await expect(
      staff.market.refund({ partnerId: m.partnerId, intentionId: pending.id, reason: 'No' }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Only a completed purchase can be refunded; this one is pending',
    });
    await expect(
      staff.market.refund({ partnerId: m.partnerId, intentionId: m.intentionId, reason: '  ' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const { partner: other } = await makePartner('Market other refund');
    await expect(
      staff.market.refund({ partnerId: other.id, intentionId: m.intentionId, reason: 'Mine now' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await getPayment(m.partnerId, m.paymentId, getDb())).status).toBe('paid');
  });

  it('reads and sets the market terms, validated; an unknown partner is NOT_FOUND', async () => {
    const { partner } = await makePartner('Market terms');
    const partnerId = partner.id;
    expect(await staff.market.terms.get({ partnerId })).toEqual({
      buyerFeePercent: 0,
      buyerFeeFixed: 0,
      sellerFeePercent: 0,
      sellerFeeFixed: 0,
      payoutDelayDays: 0,
    });
    const terms = {
      buyerFeePercent: 10,
      buyerFeeFixed: 1.5,
      sellerFeePercent: 5,
      sellerFeeFixed: 0,
      payoutDelayDays: 3,
    };
    expect(await staff.market.terms.set({ partnerId, ...terms })).toEqual(terms);
    expect(await staff.market.terms.get({ partnerId })).toEqual(terms);
    for (const bad of [
      { buyerFeePercent: 100.5 },
      { sellerFeeFixed: -1 },
      { payoutDelayDays: 366 },
      { payoutDelayDays: 1.5 },
    ]) {
      await expect(staff.market.terms.set({ partnerId, ...terms, ...bad })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
    }
    await expect(staff.market.terms.get({ partnerId: 'ptr_unknown' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(staff.market.terms.set({ partnerId: 'ptr_unknown', ...terms })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
