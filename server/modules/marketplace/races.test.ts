import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as cancelPost } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { getDb } from '@/db';
import { buyIntentions, listingItems, listings, payouts, refunds, ticketEvents, tickets } from '@/db/schema';
import { getPayment, markPaymentPaid } from '@/server/modules/payments';
import { updateIntegration } from '@/server/modules/partners';
import { setEnv } from '@/server/testing/env';
import { FakePartner } from '@/server/testing/fake-partner';
import { callRoute } from '@/server/testing/fixtures';
import { recordJobs } from '@/server/testing/jobs';
import { postRules, sellerMarket } from '@/server/testing/market';
import { payOnSandbox } from '@/server/testing/payments';
import { mailsOf, race, relistUnderTicketLock, routeStatus, statuses, webhooksOf } from '@/server/testing/race';
import { deleteTicket } from '@/server/testing/ticket-api';
import { createBuyIntention, expireIntention, getBuyIntention, releaseExpired } from './intentions';
import { createListing, getListing, unlist, updateListingPrice } from './listings';
import { refundPurchaseJob } from './jobs';
import { transferTickets } from './transfer';

/*
 * Race tests of the market's transitions (docs/trust.md): 20 attempts at once, exactly one effect, the
 * others a clear 409 or the same answer, never a 5xx; one webhook and one mail where the transition
 * sends them.
 */

const SELLER = 'race-seller@example.com';
const BUYER = 'race-buyer@example.com';

let fake: FakePartner;
let jobs: ReturnType<typeof recordJobs>;
let restoreEnv: () => void;
beforeAll(async () => {
  fake = await FakePartner.start();
  restoreEnv = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: '1' });
  jobs = recordJobs();
});
afterAll(async () => {
  jobs.restore();
  restoreEnv();
  await fake.close();
});

/** A partner whose SELLER lists T1 at 40 EUR: the partner, the listing. */
async function listed() {
  const m = await sellerMarket({ seller: SELLER, name: 'Races', tickets: [{ ticketId: 'T1' }] });
  const listing = await createListing(
    { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
    getDb(),
  );
  return { ...m, listing };
}

/** A listing held by BUYER: also the intention and its payment's id. */
async function held() {
  const m = await listed();
  const intention = await createBuyIntention(m.partnerId, { items: [m.listing.id], user: BUYER }, getDb());
  const paymentId = new URL(intention.paymentUrl!).pathname.split('/').pop()!;
  return { ...m, intention, paymentId };
}

const expireNow = (intentionId: string) =>
  getDb()
    .update(buyIntentions)
    .set({ expiresAt: sql`now() - interval '1 second'` as unknown as Date })
    .where(eq(buyIntentions.id, intentionId));

/** What one completed sale leaves behind: its payouts, ticket.updated messages, and mails. */
async function saleEffects(partnerId: string, listingId: string) {
  const [payoutRows, updated, confirmations, sold, [t1]] = await Promise.all([
    getDb().select().from(payouts).where(eq(payouts.listingId, listingId)),
    webhooksOf(partnerId, 'ticket.updated'),
    mailsOf(partnerId, 'purchaseConfirmation'),
    mailsOf(partnerId, 'ticketSold'),
    getDb()
      .select()
      .from(tickets)
      .where(and(eq(tickets.partnerId, partnerId), eq(tickets.ticketId, 'T1'))),
  ]);
  const transferred = await getDb()
    .select()
    .from(ticketEvents)
    .where(and(eq(ticketEvents.ticketPk, t1.id), eq(ticketEvents.kind, 'transferred')));
  return { payoutRows, updated, confirmations, sold, ticket: t1, transferred };
}

async function expectSoldOnce(partnerId: string, listingId: string) {
  const e = await saleEffects(partnerId, listingId);
  expect(e.payoutRows).toHaveLength(1);
  expect(e.payoutRows[0].status).toBe('SCHEDULED');
  expect(e.ticket.buyerEmail).toBe(BUYER);
  expect(e.transferred).toHaveLength(1);
  expect(e.updated.map((m) => m.data)).toEqual([{ id: 'T1', newOwnerEmail: BUYER, oldOwnerEmail: SELLER }]);
  expect(e.confirmations.map((m) => m.toAddress)).toEqual([BUYER]);
  expect(e.sold.map((m) => m.toAddress)).toEqual([SELLER]);
  expect((await getListing(partnerId, listingId, getDb())).status).toBe('SOLD');
}

describe('listing changes at once', () => {
  it('reprice: 20 new prices and a buyer at once; the buyer is charged the price their hold found, later prices are a 409', async () => {
    const m = await listed();
    const outcomes = await race<unknown>(21, (i) =>
      i === 10
        ? createBuyIntention(m.partnerId, { items: [m.listing.id], user: BUYER }, getDb())
        : updateListingPrice(m.partnerId, m.listing.id, 41 + i, getDb()),
    );
    expect(outcomes.every((o) => o.status === 200 || o.status === 409)).toBe(true);
    const after = await getDb().select().from(listings).where(eq(listings.id, m.listing.id));
    const priceMinor = after[0].priceMinor;
    const hold = outcomes[10];
    if (hold.status === 200) {
      // The hold's subtotal is the price at the moment it took the listing; no reprice came after it.
      const intention = hold.value as { subtotal: number };
      expect(intention.subtotal * 100).toBe(priceMinor);
      expect(after[0].status).toBe('RESERVED');
      for (const o of outcomes.filter((x, i) => i !== 10 && x.status === 409))
        expect(o.fanReason).toBe('HELD_BY_BUYER');
    } else {
      // The buyer met the listing locked by a reprice: a clear 409, and nothing held.
      expect(hold.message).toMatch(/^Not available any more/);
      expect(after[0].status).toBe('ACTIVE');
    }
    const applied = outcomes
      .filter((o, i) => i !== 10 && o.status === 200)
      .map((o) => (o.value as { price: number }).price);
    expect(applied.map((p) => p * 100)).toContain(priceMinor);
  });

  it('unlist: 20 at once take the listing off sale once; 19 clear 409s; its ticket is free again', async () => {
    const m = await listed();
    const outcomes = await race(20, () => unlist(m.partnerId, m.listing.id, getDb()));
    expect(statuses(outcomes)).toEqual([200, ...Array(19).fill(409)]);
    for (const o of outcomes.filter((x) => x.status === 409)) {
      expect(o.message).toBe('The listing is not on sale (it is UNLISTED)');
      expect(o.fanReason).toBe('NOT_ON_SALE');
    }
    expect((await getListing(m.partnerId, m.listing.id, getDb())).status).toBe('UNLISTED');
    const items = await getDb().select().from(listingItems).where(eq(listingItems.listingId, m.listing.id));
    expect(items.map((i) => i.open)).toEqual([false]);
  });

  it('unlist racing 20 buyers: either the seller or one buyer wins, never both', async () => {
    const m = await listed();
    const outcomes = await race<unknown>(21, (i) =>
      i === 0
        ? unlist(m.partnerId, m.listing.id, getDb())
        : createBuyIntention(m.partnerId, { items: [m.listing.id], user: `b${i}@example.com` }, getDb()),
    );
    expect(outcomes.every((o) => o.status === 200 || o.status === 409)).toBe(true);
    const winners = outcomes.filter((o) => o.status === 200);
    expect(winners).toHaveLength(1);
    const status = (await getListing(m.partnerId, m.listing.id, getDb())).status;
    expect(status).toBe(outcomes[0].status === 200 ? 'UNLISTED' : 'RESERVED');
  });
});

describe('holds ending at once', () => {
  it('hold expiry: 10 expiry jobs and 10 sweeps at once end the hold once and put the listing back on sale', async () => {
    const m = await held();
    await expireNow(m.intention.id);
    const outcomes = await race(20, async (i) =>
      i % 2 ? expireIntention(m.intention.id, getDb()) : (await releaseExpired(getDb())).includes(m.intention.id),
    );
    expect(outcomes.every((o) => o.status === 200)).toBe(true);
    expect(outcomes.filter((o) => o.value === true)).toHaveLength(1);
    expect((await getBuyIntention(m.partnerId, m.intention.id, getDb())).status).toBe('EXPIRED');
    expect((await getListing(m.partnerId, m.listing.id, getDb())).status).toBe('ACTIVE');
    expect((await getPayment(m.partnerId, m.paymentId, getDb())).status).toBe('pending');
  });

  it('expiry racing a late payment: 10 expiries and 10 card payments at once sell the ticket once (the listing was still free)', async () => {
    const m = await held();
    await expireNow(m.intention.id);
    const outcomes = await race(20, async (i) =>
      i % 2 ? expireIntention(m.intention.id, getDb()) : payOnSandbox(m.intention.paymentUrl!),
    );
    expect(outcomes.every((o) => o.status === 200)).toBe(true);
    for (const o of outcomes.filter((_, i) => i % 2 === 0))
      expect(o.value).toMatchObject({ status: 303, location: `http://encore.test/checkout/${m.intention.id}` });
    expect((await getBuyIntention(m.partnerId, m.intention.id, getDb())).status).toBe('COMPLETED');
    expect((await getPayment(m.partnerId, m.paymentId, getDb())).status).toBe('paid');
    await expectSoldOnce(m.partnerId, m.listing.id);
  });
});

describe('a hold that just ran out (only the sweep and the claim end it, never a read)', () => {
  it('20 buyers at once claim a listing whose hold just expired (no job or sweep ran): one wins, the old hold ends EXPIRED, no money moves', async () => {
    const m = await held();
    await expireNow(m.intention.id);
    const outcomes = await race(20, (i) =>
      createBuyIntention(m.partnerId, { items: [m.listing.id], user: `late${i}@example.com` }, getDb()),
    );
    expect(statuses(outcomes)).toEqual([200, ...Array(19).fill(409)]);
    const winner = outcomes.find((o) => o.status === 200)!.value as { id: string; status: string };
    expect(winner.status).toBe('PENDING');
    // The claim ended the old hold in its own transaction: the intention is EXPIRED in its row, not only on read.
    const [old] = await getDb().select().from(buyIntentions).where(eq(buyIntentions.id, m.intention.id));
    expect(old).toMatchObject({ status: 'EXPIRED' });
    expect(old.endedAt).not.toBeNull();
    const [row] = await getDb().select().from(listings).where(eq(listings.id, m.listing.id));
    expect(row).toMatchObject({ status: 'RESERVED', reservedBy: winner.id });
    // Money untouched: the old payment was never taken nor refunded, and paying it now is refused uncharged.
    expect((await getPayment(m.partnerId, m.paymentId, getDb())).status).toBe('pending');
    const paid = await payOnSandbox(m.intention.paymentUrl!);
    expect(paid.location).toBe(`http://encore.test/pay/${m.paymentId}?error=hold_ended`);
    expect(await getPayment(m.partnerId, m.paymentId, getDb())).toMatchObject({ status: 'failed', paidAt: null });
    expect(await getDb().select().from(refunds).where(eq(refunds.paymentId, m.paymentId))).toEqual([]);
    expect(await getDb().select().from(payouts).where(eq(payouts.listingId, m.listing.id))).toEqual([]);
  });
});

describe('purchase completion', () => {
  it('20 confirmations of one intention’s payment at once: paid once, sold once, one payout scheduled, one ticket.updated, one mail each', async () => {
    const m = await held();
    // The buyer's card form posted 20 times at once (a double submit, several tabs): each answer leads
    // to the order page, as a paid payment's does.
    const outcomes = await race(20, () => payOnSandbox(m.intention.paymentUrl!));
    expect(statuses(outcomes)).toEqual(Array(20).fill(200));
    for (const o of outcomes)
      expect(o.value).toMatchObject({ status: 303, location: `http://encore.test/checkout/${m.intention.id}` });
    expect((await getPayment(m.partnerId, m.paymentId, getDb())).status).toBe('paid');
    expect((await getBuyIntention(m.partnerId, m.intention.id, getDb())).status).toBe('COMPLETED');
    await expectSoldOnce(m.partnerId, m.listing.id);
  });

  it('a late payment after another buyer took the listing: refused and refunded once, even when its refund job runs 20 times at once', async () => {
    const m = await held();
    await expireNow(m.intention.id);
    expect(await expireIntention(m.intention.id, getDb())).toBe(true);
    const other = await createBuyIntention(m.partnerId, { items: [m.listing.id], user: 'other@example.com' }, getDb());
    const sent = jobs.sent.length;
    // The sandbox page now refuses such a payment before charging (refund-races.test.ts); a provider whose
    // page took the money anyway (a Stripe session completing as the hold ended) confirms it like this.
    expect(await markPaymentPaid(m.paymentId, { provider: 'sandbox' }, getDb())).toMatchObject({ status: 'paid' });
    expect(await getBuyIntention(m.partnerId, m.intention.id, getDb())).toMatchObject({
      status: 'CANCELLED',
      reason: 'The tickets were no longer available when the payment arrived',
    });
    // The other buyer still holds it.
    expect((await getListing(m.partnerId, m.listing.id, getDb())).status).toBe('RESERVED');
    expect((await getBuyIntention(m.partnerId, other.id, getDb())).status).toBe('PENDING');
    const job = jobs.sent.slice(sent).filter((j) => j.name === 'marketplace.refundPurchase');
    expect(job).toHaveLength(1);
    const input = refundPurchaseJob.input.parse(job[0].input);
    const outcomes = await race(20, (i) => refundPurchaseJob.run(input, { provider: 'local', attempt: 1 + (i % 3) }));
    // Every run answers the one refund (a retried job must not fail for ever on a refunded payment).
    expect(statuses(outcomes)).toEqual(Array(20).fill(200));
    const made = await getDb().select().from(refunds).where(eq(refunds.paymentId, m.paymentId));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ amountMinor: 4000, status: 'succeeded' });
    expect(new Set(outcomes.map((o) => (o.value as { refundId: string }).refundId))).toEqual(new Set([made[0].id]));
    expect((await getPayment(m.partnerId, m.paymentId, getDb())).status).toBe('refunded');
    expect((await mailsOf(m.partnerId, 'purchaseRefunded')).map((x) => x.toAddress)).toEqual([BUYER]);
    expect(await getDb().select().from(payouts).where(eq(payouts.listingId, m.listing.id))).toEqual([]);
  });

  it('refund of a refused purchase (the seller no longer holds the ticket): 20 runs of its job at once refund once', async () => {
    const m = await held();
    await updateIntegration({ partnerId: m.partnerId, verificationUrl: `${fake.origin}/api` }, getDb());
    fake.setTickets(SELLER, []);
    try {
      const sent = jobs.sent.length;
      expect((await payOnSandbox(m.intention.paymentUrl!)).status).toBe(303);
      expect((await getListing(m.partnerId, m.listing.id, getDb())).status).toBe('CANCELLED');
      const job = jobs.sent.slice(sent).find((j) => j.name === 'marketplace.refundPurchase')!;
      const input = refundPurchaseJob.input.parse(job.input);
      const outcomes = await race(20, () => refundPurchaseJob.run(input, { provider: 'local', attempt: 1 }));
      expect(statuses(outcomes)).toEqual(Array(20).fill(200));
      const made = await getDb().select().from(refunds).where(eq(refunds.paymentId, m.paymentId));
      expect(made.map((r) => [r.amountMinor, r.status])).toEqual([[4000, 'succeeded']]);
      expect((await mailsOf(m.partnerId, 'purchaseRefunded')).map((x) => x.toAddress)).toEqual([BUYER]);
      expect((await mailsOf(m.partnerId, 'listingCancelled')).map((x) => x.toAddress)).toEqual([SELLER]);
      expect(await webhooksOf(m.partnerId, 'ticket.updated')).toEqual([]);
    } finally {
      fake.reset();
    }
  });
});

describe('payouts', () => {
  it('payout cancelled: a sold ticket’s show cancelled 20 times at once cancels its payout once and refunds the buyer once', async () => {
    const m = await held();
    expect((await payOnSandbox(m.intention.paymentUrl!)).status).toBe(303);
    const sent = jobs.sent.length;
    const outcomes = await race(
      20,
      () =>
        callRoute(cancelPost, `/v1/events/${m.ref}/cancellation`, m.key, {
          method: 'POST',
          params: { externalReferenceId: m.ref },
        }),
      routeStatus,
    );
    expect(statuses(outcomes)).toEqual(Array(20).fill(200));
    const rows = await getDb().select().from(payouts).where(eq(payouts.listingId, m.listing.id));
    expect(rows.map((p) => p.status)).toEqual(['CANCELLED']);
    const refundJobs = jobs.sent.slice(sent).filter((j) => j.name === 'marketplace.refundPurchase');
    expect(refundJobs.map((j) => j.input)).toEqual([
      expect.objectContaining({ paymentId: m.paymentId, refundId: `rfd_${m.intention.id}_cancelled` }),
    ]);
    expect((await mailsOf(m.partnerId, 'purchaseRefunded')).map((x) => x.toAddress)).toEqual([BUYER]);
    const input = refundPurchaseJob.input.parse(refundJobs[0].input);
    await race(20, () => refundPurchaseJob.run(input, { provider: 'local', attempt: 1 }));
    expect(await getDb().select().from(refunds).where(eq(refunds.paymentId, m.paymentId))).toHaveLength(1);
  });
});

describe('peer-to-peer transfer against the ticket’s other moves', () => {
  it('20 transfers while the holder’s listing of the ticket goes back on sale (under the ticket lock): all refused as listed', async () => {
    const m = await listed();
    await postRules(m.key, [{ externalReferenceEventId: m.ref, ruleType: 'P2P_TRANSFER', rules: { allowed: true } }]);
    await unlist(m.partnerId, m.listing.id, getDb());
    const [item] = await getDb().select().from(listingItems).where(eq(listingItems.listingId, m.listing.id));
    const outcomes = await relistUnderTicketLock(item.ticketPk, m.listing.id, () =>
      race(20, (i) =>
        transferTickets(
          m.partnerId,
          { ticketIds: ['T1'], fromEmail: SELLER, toEmail: `friend${i}@example.com` },
          getDb(),
        ),
      ),
    );
    expect(statuses(outcomes)).toEqual(Array(20).fill(409));
    for (const o of outcomes) expect(o.fanReason).toBe('TRANSFER_LISTED');
    const [t1] = await getDb().select().from(tickets).where(eq(tickets.id, item.ticketPk));
    expect(t1.buyerEmail).toBe(SELLER);
    expect((await getListing(m.partnerId, m.listing.id, getDb())).status).toBe('ACTIVE');
    expect(await webhooksOf(m.partnerId, 'ticket.updated')).toEqual([]);
  });

  it('10 transfers and 10 DELETEs of the ticket at once: the ticket is invalidated; a transfer wins only before the DELETE, never after', async () => {
    const m = await sellerMarket({ seller: SELLER, name: 'Races', tickets: [{ ticketId: 'T1' }] });
    await postRules(m.key, [{ externalReferenceEventId: m.ref, ruleType: 'P2P_TRANSFER', rules: { allowed: true } }]);
    const outcomes = await race<unknown>(
      20,
      (i) =>
        i % 2
          ? deleteTicket(m.key, 'T1')
          : transferTickets(
              m.partnerId,
              { ticketIds: ['T1'], fromEmail: SELLER, toEmail: `friend${i}@example.com` },
              getDb(),
            ),
      (v) => (v as { status?: number }).status ?? 200,
    );
    for (const o of outcomes) expect([200, 409]).toContain(o.status);
    const [t1] = await getDb()
      .select()
      .from(tickets)
      .where(and(eq(tickets.partnerId, m.partnerId), eq(tickets.ticketId, 'T1')));
    expect(t1.status).toBe('INVALIDATED');
    const events = await getDb()
      .select()
      .from(ticketEvents)
      .where(eq(ticketEvents.ticketPk, t1.id))
      .orderBy(ticketEvents.id);
    const kinds = events.map((e) => e.kind).filter((k) => k !== 'imported');
    // At most one transfer, and only before the invalidation.
    expect([['invalidated'], ['transferred', 'invalidated']]).toContainEqual(kinds);
    expect(outcomes.filter((o, i) => i % 2 === 0 && o.status === 200)).toHaveLength(kinds.length - 1);
  });
});
