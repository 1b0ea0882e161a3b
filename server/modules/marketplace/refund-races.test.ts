import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as cancelPost } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { getDb, getSql } from '@/db';
import { buyIntentions, mails, payments, payouts, refunds, transfers } from '@/db/schema';
import { AppError } from '@/server/lib/errors';
import { getPayment } from '@/server/modules/payments';
import { listMessages } from '@/server/modules/webhooks';
import { apiRequest, routeParams } from '@/server/testing/fixtures';
import { recordJobsInFile } from '@/server/testing/jobs';
import { sellerMarket } from '@/server/testing/market';
import { activePayoutAccount, payOnSandbox } from '@/server/testing/payments';
import { deleteTicket } from '@/server/testing/ticket-api';
import { refundPurchase } from './admin';
import { listPurchases } from '@/server/modules/ops';
import { createBuyIntention } from './intentions';
import { createListing } from './listings';
import { payDuePayouts } from './payouts';
import { refundPurchaseJob } from './jobs';
import { sellerListingPage } from './sell';
import { buyerIntention } from '@/server/modules/fan-pages';

/*
 * A completed purchase refunded afterwards, by staff or by its show's cancellation: recorded once, the
 * money refunded once, the buyer, the seller and the partner told once, whatever arrives at the same
 * moment; and a payment for a hold that a cancellation ended is refused before the card is charged.
 */

const jobs = recordJobsInFile();

const SELLER = 'seller@example.com';
const BUYER = 'buyer@example.com';
const STAFF = 'ops@encore.test';

const statusOf = (r: PromiseSettledResult<unknown>) =>
  r.status === 'fulfilled' ? 200 : r.reason instanceof AppError ? r.reason.status : 500;

/** A partner with T1 and T2 owned by SELLER; T1 listed at 40.00 and bought by BUYER on the sandbox page. */
async function sold(name: string) {
  const m = await sellerMarket({ seller: SELLER, name });
  const listing = await createListing(
    { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
    getDb(),
  );
  const intention = await createBuyIntention(m.partnerId, { items: [listing.id], user: BUYER }, getDb());
  const paid = await payOnSandbox(intention.paymentUrl);
  expect(paid.status).toBe(303);
  const [payout] = await getDb().select().from(payouts).where(eq(payouts.listingId, listing.id));
  return { ...m, listing, intentionId: intention.id, paymentId: paid.paymentId, payoutId: payout.id };
}

const mailsOf = (partnerId: string) =>
  getDb().select({ kind: mails.kind, to: mails.toAddress }).from(mails).where(eq(mails.partnerId, partnerId));
const mailKinds = async (partnerId: string) =>
  (await mailsOf(partnerId)).map((x) => `${x.kind} ${x.to}`).sort((a, b) => a.localeCompare(b));
const refundRows = (paymentId: string) => getDb().select().from(refunds).where(eq(refunds.paymentId, paymentId));
const intentionRow = async (id: string) =>
  (await getDb().select().from(buyIntentions).where(eq(buyIntentions.id, id)))[0];
const payoutRow = async (id: string) => (await getDb().select().from(payouts).where(eq(payouts.id, id)))[0];
const refundedMessages = async (partnerId: string) =>
  (await listMessages({ partnerId, action: 'ticket.refunded' }, getDb())).items;
const staffRefund = (partnerId: string, intentionId: string, reason = 'Duplicate order') =>
  refundPurchase({ partnerId, intentionId, reason, staffEmail: STAFF }, getDb());
const cancelShow = (m: { key: string; ref: string }) =>
  cancelPost(
    apiRequest(`/v1/events/${m.ref}/cancellation`, { key: m.key, method: 'POST' }),
    routeParams({ externalReferenceId: m.ref }),
  );

describe('staff refund', () => {
  it('20 staff refunds of one purchase at once: one refund at the provider, one mail each to buyer and seller, one webhook, 19 clear 409s', async () => {
    const m = await sold('Refund race');
    const before = await mailKinds(m.partnerId);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => staffRefund(m.partnerId, m.intentionId)));
    expect(results.map(statusOf).sort()).toEqual([200, ...Array(19).fill(409)]);
    for (const r of results) {
      if (r.status === 'rejected')
        expect((r.reason as AppError).message).toBe('This purchase has already been refunded');
    }
    const won = results.find((r) => r.status === 'fulfilled')!.value;
    expect(won).toMatchObject({
      refundStatus: 'succeeded',
      refunded: 40,
      cancelledPayouts: [m.payoutId],
      paidPayouts: [],
      retrying: false,
    });

    // The money: one refund, the payment refunded whole.
    expect(await refundRows(m.paymentId)).toEqual([
      expect.objectContaining({ id: `rfd_${m.intentionId}_staff`, status: 'succeeded', amountMinor: 4000 }),
    ]);
    expect((await getPayment(m.partnerId, m.paymentId, getDb())).status).toBe('refunded');
    // The books: refunded once, with its reason and moment; the payout cancelled.
    expect(await intentionRow(m.intentionId)).toMatchObject({
      status: 'COMPLETED',
      refundReason: 'STAFF_REFUND',
      refundedAt: expect.any(Date),
      endReason: 'Refunded: Duplicate order',
    });
    expect((await payoutRow(m.payoutId)).status).toBe('CANCELLED');
    // The people: one mail to the buyer, one to the seller; one webhook to the partner.
    const after = await mailKinds(m.partnerId);
    expect(after).toHaveLength(before.length + 2);
    expect(after.filter((k) => !before.includes(k))).toEqual([
      `payoutCancelled ${SELLER}`,
      `purchaseRefunded ${BUYER}`,
    ]);
    const messages = await refundedMessages(m.partnerId);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      id: won.messageId,
      family: 'ticket',
      data: { ids: ['T1'], buyerEmail: BUYER, reason: 'Duplicate order', refundReason: 'STAFF_REFUND' },
    });
  });

  it('tells staff, the buyer and the seller what was refunded, why and when', async () => {
    const m = await sold('Refund views');
    const fresh = await listPurchases({ partnerId: m.partnerId }, getDb());
    expect(fresh.items[0]).toMatchObject({ status: 'COMPLETED', refundReason: null, refundedAt: null });
    await staffRefund(m.partnerId, m.intentionId, 'Buyer charged twice');

    const { items } = await listPurchases({ partnerId: m.partnerId }, getDb());
    expect(items[0]).toMatchObject({
      id: m.intentionId,
      status: 'REFUNDED',
      refundReason: 'STAFF_REFUND',
      refundedAt: expect.any(Date),
      refundable: false,
      paidPayoutsAfterRefund: [],
    });
    // The buyer's order page: refunded, why, how much; no ticket links any more.
    const order = await buyerIntention(m.intentionId, getDb());
    expect(order?.refund).toMatchObject({ reason: 'STAFF_REFUND', amountMinor: 4000, at: expect.any(Date) });
    expect(order?.tickets).toEqual([]);
    // The seller's listing page: the payout that will not be paid.
    const page = await sellerListingPage(m.partnerId, m.listing.id, SELLER, getDb());
    expect(page?.payoutCancelled).toMatchObject({
      amountMinor: 4000,
      currency: 'EUR',
      reason: 'STAFF_REFUND',
      at: expect.any(Date),
    });
  });

  it('a staff refund racing the payout run never both pays and refunds without flagging it', async () => {
    // Deterministic half: a run is paying the payout (its row locked) when the refund comes. The refund
    // waits, finds it PAID, refunds the buyer and reports the paid payout; staff see it on the purchase.
    const m = await sold('Refund vs payout');
    let release!: () => void;
    const paying = getSql().begin(async (tx) => {
      await tx`select id from payouts where id = ${m.payoutId} for no key update`;
      await new Promise<void>((resolve) => (release = resolve));
      await tx`update payouts set status = 'PAID', paid_at = now() where id = ${m.payoutId}`;
    });
    await expect.poll(() => typeof release).toBe('function');
    const refunding = staffRefund(m.partnerId, m.intentionId);
    await new Promise((r) => setTimeout(r, 200));
    release();
    await paying;
    const result = await refunding;
    expect(result).toMatchObject({ cancelledPayouts: [], paidPayouts: [m.payoutId] });
    expect((await payoutRow(m.payoutId)).status).toBe('PAID');
    expect((await listPurchases({ partnerId: m.partnerId }, getDb())).items[0].paidPayoutsAfterRefund).toEqual([
      m.payoutId,
    ]);
    // No payout-cancelled mail for a payout that was paid.
    expect((await mailKinds(m.partnerId)).filter((k) => k.startsWith('payoutCancelled'))).toEqual([]);

    // Real race: 10 refunds and 10 payout runs at once. Either the payout was paid (and the refund
    // flags it) or it was cancelled (and no money moved to the seller); never a 5xx.
    const r = await sold('Refund vs payout race');
    await activePayoutAccount(r.partnerId, SELLER);
    await getDb()
      .update(payouts)
      .set({ dueAt: sql`now() - interval '1 minute'` as unknown as Date })
      .where(eq(payouts.id, r.payoutId));
    const all = await Promise.allSettled([
      ...Array.from({ length: 10 }, () => staffRefund(r.partnerId, r.intentionId)),
      ...Array.from({ length: 10 }, () => payDuePayouts(getDb())),
    ]);
    expect(all.map(statusOf).filter((s) => s !== 200 && s !== 409)).toEqual([]);
    expect(all.slice(0, 10).filter((x) => x.status === 'fulfilled')).toHaveLength(1);
    const moved = await getDb().select().from(transfers).where(eq(transfers.idempotencyKey, r.payoutId));
    const payout = await payoutRow(r.payoutId);
    const flagged = (await listPurchases({ partnerId: r.partnerId }, getDb())).items[0].paidPayoutsAfterRefund;
    if (payout.status === 'PAID') {
      expect(moved).toHaveLength(1);
      expect(flagged).toEqual([r.payoutId]);
    } else {
      expect(payout.status).toBe('CANCELLED');
      expect(moved).toEqual([]);
      expect(flagged).toEqual([]);
    }
    expect(await refundRows(r.paymentId)).toHaveLength(1);
  });
});

describe('show cancellation refund', () => {
  it('records the refund once, mails the seller the cancelled payout and tells the partner once; a repeat changes nothing and mails no one', async () => {
    const m = await sold('Cancel refund');
    const before = await mailKinds(m.partnerId);
    const answers = await Promise.all(Array.from({ length: 20 }, () => cancelShow(m)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const afterFirst = await mailKinds(m.partnerId);
    expect(afterFirst.filter((k) => !before.includes(k))).toEqual([
      `payoutCancelled ${SELLER}`,
      `purchaseRefunded ${BUYER}`,
    ]);
    expect(afterFirst).toHaveLength(before.length + 2);
    expect(await intentionRow(m.intentionId)).toMatchObject({
      refundReason: 'SHOW_CANCELLED',
      refundedAt: expect.any(Date),
    });
    const messages = await refundedMessages(m.partnerId);
    expect(messages).toHaveLength(1);
    expect(messages[0].data).toMatchObject({ ids: ['T1'], buyerEmail: BUYER, refundReason: 'SHOW_CANCELLED' });

    // Again: nothing changes, no one is mailed, the partner hears nothing more.
    const sent = jobs.sent.length;
    expect((await cancelShow(m)).status).toBe(200);
    expect(await mailKinds(m.partnerId)).toEqual(afterFirst);
    expect(await refundedMessages(m.partnerId)).toHaveLength(1);
    expect(jobs.sent.slice(sent).filter((j) => j.name === 'marketplace.refundPurchase')).toEqual([]);

    // Staff cannot refund it a second time.
    await expect(staffRefund(m.partnerId, m.intentionId)).rejects.toMatchObject({
      status: 409,
      message: 'This purchase has already been refunded',
    });
    const order = await buyerIntention(m.intentionId, getDb());
    expect(order?.refund).toMatchObject({ reason: 'SHOW_CANCELLED', amountMinor: 4000 });
    expect(order?.tickets).toEqual([]);
    expect((await listPurchases({ partnerId: m.partnerId }, getDb())).items[0]).toMatchObject({
      status: 'REFUNDED',
      refundReason: 'SHOW_CANCELLED',
    });
  });

  it('staff refunds and show cancellations of one purchase at once: refunded once, one mail each, one webhook', async () => {
    const m = await sold('Cancel vs staff');
    const before = await mailKinds(m.partnerId);
    const sent = jobs.sent.length;
    const all = await Promise.allSettled([
      ...Array.from({ length: 10 }, () => staffRefund(m.partnerId, m.intentionId)),
      ...Array.from({ length: 10 }, () => cancelShow(m)),
    ]);
    expect(all.map(statusOf).filter((s) => s !== 200 && s !== 409)).toEqual([]);
    for (const r of all.slice(10)) expect(r.status === 'fulfilled' && (r.value as Response).status).toBe(200);
    const row = await intentionRow(m.intentionId);
    const staffWon = all.slice(0, 10).some((r) => r.status === 'fulfilled');
    expect(row.refundReason).toBe(staffWon ? 'STAFF_REFUND' : 'SHOW_CANCELLED');
    expect(all.slice(0, 10).filter((r) => r.status === 'fulfilled')).toHaveLength(staffWon ? 1 : 0);
    // The cancellation's refund job, if it won, does the money; run it (twice) to see one refund.
    for (const job of jobs.sent.slice(sent).filter((j) => j.name === 'marketplace.refundPurchase')) {
      const input = refundPurchaseJob.input.parse(job.input);
      await refundPurchaseJob.run(input, { provider: 'local', attempt: 1 });
      await refundPurchaseJob.run(input, { provider: 'local', attempt: 2 });
    }
    expect(await refundRows(m.paymentId)).toHaveLength(1);
    const added = (await mailKinds(m.partnerId)).filter((k) => !before.includes(k));
    expect(added.filter((k) => k.startsWith('purchaseRefunded'))).toEqual([`purchaseRefunded ${BUYER}`]);
    expect(added.filter((k) => k.startsWith('payoutCancelled'))).toEqual([`payoutCancelled ${SELLER}`]);
    expect(await refundedMessages(m.partnerId)).toHaveLength(1);
  });
});

describe('a payment for a hold that ended', () => {
  const hold = async (name: string) => {
    const m = await sellerMarket({ seller: SELLER, name });
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    const intention = await createBuyIntention(m.partnerId, { items: [listing.id], user: BUYER }, getDb());
    return { ...m, listing, intention };
  };
  const paymentRow = async (id: string) => (await getDb().select().from(payments).where(eq(payments.id, id)))[0];

  it('is refused before the card is charged when the show was cancelled', async () => {
    const m = await hold('Pay after cancel');
    expect((await cancelShow(m)).status).toBe(200);
    const paid = await payOnSandbox(m.intention.paymentUrl);
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`http://encore.test/pay/${paid.paymentId}?error=show_cancelled`);
    expect(await paymentRow(paid.paymentId)).toMatchObject({ status: 'failed', paidAt: null });
    expect(await refundRows(paid.paymentId)).toEqual([]);
    expect((await intentionRow(m.intention.id)).status).toBe('CANCELLED');
    expect((await mailsOf(m.partnerId)).filter((x) => x.kind === 'purchaseRefunded')).toEqual([]);
  });

  it('is refused before the card is charged when a cascade ended the hold (the ticket was deleted)', async () => {
    const m = await hold('Pay after delete');
    expect((await deleteTicket(m.key, 'T1')).status).toBe(200);
    const paid = await payOnSandbox(m.intention.paymentUrl);
    expect(paid.location).toBe(`http://encore.test/pay/${paid.paymentId}?error=hold_ended`);
    expect(await paymentRow(paid.paymentId)).toMatchObject({ status: 'failed', paidAt: null });
    expect(await refundRows(paid.paymentId)).toEqual([]);
  });

  it('20 payment submits and the show cancellation at the same moment: refused uncharged, or paid once and refunded once; never a 5xx', async () => {
    for (let round = 0; round < 4; round++) {
      const m = await hold(`Pay vs cancel ${round}`);
      const sent = jobs.sent.length;
      const [cancelled, ...paid] = await Promise.all([
        cancelShow(m),
        ...Array.from({ length: 20 }, () => payOnSandbox(m.intention.paymentUrl)),
      ]);
      expect(cancelled.status).toBe(200);
      expect(paid.map((p) => p.status)).toEqual(Array(20).fill(303));
      const payment = await paymentRow(paid[0].paymentId);
      const refundJobs = jobs.sent.slice(sent).filter((j) => j.name === 'marketplace.refundPurchase');
      const refundMails = (await mailsOf(m.partnerId)).filter((x) => x.kind === 'purchaseRefunded');
      if (payment.status === 'paid') {
        // Paid first: the cancellation then refunded it (one job, one mail).
        expect(refundJobs).toHaveLength(1);
        expect(refundMails).toHaveLength(1);
        expect((await intentionRow(m.intention.id)).refundReason).toBe('SHOW_CANCELLED');
      } else {
        expect(payment).toMatchObject({ status: 'failed', paidAt: null });
        expect(paid.some((p) => p.location?.includes('error=show_cancelled'))).toBe(true);
        expect(refundJobs).toEqual([]);
        expect(refundMails).toEqual([]);
      }
    }
  });

  it('is refused before the card is charged when the hold expired and another buyer holds the tickets now', async () => {
    const m = await hold('Pay after expiry');
    await getDb()
      .update(buyIntentions)
      .set({ expiresAt: sql`now() - interval '1 minute'` as unknown as Date })
      .where(eq(buyIntentions.id, m.intention.id));
    // Another buyer's hold ends the first one (its time was up) and takes the listing.
    const other = await createBuyIntention(m.partnerId, { items: [m.listing.id], user: 'other@example.com' }, getDb());
    expect((await intentionRow(m.intention.id)).status).toBe('EXPIRED');
    const paid = await payOnSandbox(m.intention.paymentUrl);
    expect(paid.location).toBe(`http://encore.test/pay/${paid.paymentId}?error=hold_ended`);
    expect(await paymentRow(paid.paymentId)).toMatchObject({ status: 'failed', paidAt: null });
    // Before, the card was charged and the payment refunded by a job; now nothing is taken.
    expect(await refundRows(paid.paymentId)).toEqual([]);
    expect((await intentionRow(other.id)).status).toBe('PENDING');
  });

  it('a late payment for an expired hold still goes through while the listing is free', async () => {
    const m = await hold('Pay late');
    await getDb()
      .update(buyIntentions)
      .set({ status: 'EXPIRED', endedAt: sql`now()` as unknown as Date })
      .where(and(eq(buyIntentions.id, m.intention.id)));
    await getSql()`update listings set status = 'ACTIVE', reserved_by = null where id = ${m.listing.id}`;
    const paid = await payOnSandbox(m.intention.paymentUrl);
    expect(paid.location).not.toContain('error=');
    expect((await intentionRow(m.intention.id)).status).toBe('COMPLETED');
  });
});
