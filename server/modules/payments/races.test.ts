import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { payments, payouts } from '@/db/schema';
import { createBuyIntention, createListing } from '@/server/modules/marketplace';
import { createPartner } from '@/server/modules/partners';
import { FakeStripe, sessionOf } from '@/server/testing/fake-stripe';
import { recordJobs } from '@/server/testing/jobs';
import { sellerMarket } from '@/server/testing/market';
import { payOnSandbox } from '@/server/testing/payments';
import { mailsOf, race, statuses, webhooksOf } from '@/server/testing/race';
import { getPayment, onPaymentSucceeded, startPayment } from './index';
import { onPaymentFailed } from './events';
import { expireDuePayments } from './payments';

/*
 * Race tests of a payment's confirmation and closing (docs/trust.md): the conditional UPDATE … WHERE
 * status IN (open) lets exactly one of 20 at once act and run its listeners.
 */

const PURPOSE = 'payments_races';
const succeeded: string[] = [];
const failed: string[] = [];
onPaymentSucceeded('payments-races', async (_work, p) => {
  if (p.purpose === PURPOSE) succeeded.push(p.id);
});
onPaymentFailed('payments-races', async (_work, p) => {
  if (p.purpose === PURPOSE) failed.push(p.id);
});

let partnerId: string;
let seq = 0;
let jobs: ReturnType<typeof recordJobs>;
beforeAll(async () => {
  partnerId = (await createPartner({ name: `Payment races ${process.pid}-${Date.now()}` }, getDb())).id;
  jobs = recordJobs();
});
afterAll(() => jobs.restore());

const open = () =>
  startPayment(
    partnerId,
    {
      purpose: PURPOSE,
      reference: `race-${process.pid}-${++seq}`,
      description: 'General admission',
      amountMinor: 4000,
      currency: 'EUR',
      buyerEmail: 'fan@fans.test',
      successUrl: 'https://partner.test/done',
      cancelUrl: 'https://partner.test/back',
    },
    getDb(),
  );

const count = (list: string[], id: string) => list.filter((x) => x === id).length;

describe('sandbox', () => {
  it('payment confirmed: the card form posted 20 times at once pays once, runs the listeners once, and every answer leads to the success page', async () => {
    const { payment, url } = await open();
    const outcomes = await race(20, () => payOnSandbox(url));
    expect(statuses(outcomes)).toEqual(Array(20).fill(200));
    for (const o of outcomes) expect(o.value).toMatchObject({ status: 303, location: 'https://partner.test/done' });
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('paid');
    expect(count(succeeded, payment.id)).toBe(1);
  });

  it('payment expired: 10 sweeps and 10 card payments of an expired checkout at once close it once; none pays', async () => {
    const { payment, url } = await open();
    await getDb()
      .update(payments)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(payments.id, payment.id));
    const outcomes = await race<unknown>(20, (i) => (i % 2 ? expireDuePayments(getDb()) : payOnSandbox(url)));
    expect(statuses(outcomes)).toEqual(Array(20).fill(200));
    for (const o of outcomes.filter((_, i) => i % 2 === 0))
      expect((o.value as { location: string }).location).toBe(`http://encore.test/pay/${payment.id}?error=not_payable`);
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('expired');
    expect(count(failed, payment.id)).toBe(1);
    expect(count(succeeded, payment.id)).toBe(0);
  });
});

describe('Stripe webhook', () => {
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await FakeStripe.start();
  });
  afterAll(() => stripe.stop());

  it('payment confirmed: the same checkout.session.completed delivered 20 times at once completes the purchase once (one payout, one ticket.updated, one mail each)', async () => {
    const seller = 'stripe-seller@example.com';
    const buyer = 'stripe-buyer@example.com';
    const m = await sellerMarket({ seller, name: 'Stripe races', tickets: [{ ticketId: 'T1' }] });
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: seller, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    const intention = await createBuyIntention(m.partnerId, { items: [listing.id], user: buyer }, getDb());
    const [payment] = await getDb()
      .select()
      .from(payments)
      .where(and(eq(payments.partnerId, m.partnerId), eq(payments.reference, intention.id)));
    expect(payment).toMatchObject({ provider: 'stripe', status: 'pending' });
    const event = stripe.event('checkout.session.completed', sessionOf(payment));
    const outcomes = await race(
      20,
      () => stripe.deliver(event),
      (r) => r.status,
    );
    expect(statuses(outcomes)).toEqual(Array(20).fill(200));
    expect((await getPayment(m.partnerId, payment.id, getDb())).status).toBe('paid');
    const rows = await getDb().select().from(payouts).where(eq(payouts.listingId, listing.id));
    expect(rows.map((p) => p.status)).toEqual(['SCHEDULED']);
    expect((await webhooksOf(m.partnerId, 'ticket.updated')).map((x) => x.data)).toEqual([
      { id: 'T1', newOwnerEmail: buyer, oldOwnerEmail: seller },
    ]);
    expect((await mailsOf(m.partnerId, 'purchaseConfirmation')).map((x) => x.toAddress)).toEqual([buyer]);
    expect((await mailsOf(m.partnerId, 'ticketSold')).map((x) => x.toAddress)).toEqual([seller]);
  });

  it('payment failed racing payment: 10 checkout.session.expired and 10 completed at once; exactly one applies, never both', async () => {
    const { payment } = await open();
    const paid = stripe.event('checkout.session.completed', sessionOf(payment));
    const expired = stripe.event('checkout.session.expired', sessionOf(payment, { payment_status: 'unpaid' }));
    const outcomes = await race(
      20,
      (i) => stripe.deliver(i % 2 ? expired : paid),
      (r) => r.status,
    );
    expect(statuses(outcomes)).toEqual(Array(20).fill(200));
    const { status } = await getPayment(partnerId, payment.id, getDb());
    expect(['paid', 'expired']).toContain(status);
    expect(count(succeeded, payment.id)).toBe(status === 'paid' ? 1 : 0);
    expect(count(failed, payment.id)).toBe(status === 'expired' ? 1 : 0);
  });
});
