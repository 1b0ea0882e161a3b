import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { sessionOf, stripeApiServer } from '@/server/testing/fake-stripe';
import { eq, sql } from 'drizzle-orm';
import { POST as webhook } from '@/app/api/payments/stripe/webhook/route';
import { POST as cancelPost } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { buyIntentions, payments } from '@/db/schema';
import {
  createBuyIntention,
  createListing,
  NO_FEES,
  refundPurchase,
  refundPurchaseJob,
  setMarketTerms,
} from '@/server/modules/marketplace';
import { apiRequest, routeParams } from '@/server/testing/fixtures';
import { recordJobs } from '@/server/testing/jobs';
import { sellerMarket } from '@/server/testing/market';
import { seatedMarket } from '@/server/testing/seated-market';
import { resetEnvCache } from '@/server/env';
import { createPartner } from '@/server/modules/partners';
import {
  getPayment,
  onPaymentSucceeded,
  payoutStatus,
  refundPayment,
  reserveRefund,
  setUpPayoutAccount,
  startPayment,
  transferPayout,
} from '@/server/modules/payments';
import { onPaymentFailed } from './events';
import { refundsOf, resendUnansweredRefunds } from './refunds';
import { refunds } from '@/db/schema';
import { transaction } from '@/server/lib/transaction';
import { race, statuses } from '@/server/testing/race';

/*
 * The Stripe adapter over the wire: the SDK talks to a fake Stripe (a node:http server in this process,
 * reached through STRIPE_API_BASE) answering the endpoints the adapter uses, and the webhook route gets
 * events signed by the SDK's own test-header helper.
 */

const PURPOSE = 'stripe_test';
const SECRET = 'whsec_test_secret_for_encore';

interface Received {
  method: string;
  path: string;
  form: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}
const received: Received[] = [];
/** Per path, how the fake answers next (a status and body), else the default answer. */
const next = new Map<string, { status: number; body: object }[]>();
let seq = 0;

function answer(path: string, form: Record<string, string>): { status: number; body: object } {
  const queued = next.get(path)?.shift();
  if (queued) return queued;
  const id = (prefix: string) => `${prefix}_test_${++seq}`;
  switch (path) {
    case '/v1/checkout/sessions': {
      const sid = id('cs');
      return {
        status: 200,
        body: { id: sid, object: 'checkout.session', url: `https://checkout.stripe.test/c/pay/${sid}`, status: 'open' },
      };
    }
    case '/v1/refunds':
      return {
        status: 200,
        body: { id: id('re'), object: 'refund', status: 'succeeded', amount: Number(form.amount) },
      };
    case '/v1/accounts':
      return { status: 200, body: { id: id('acct'), object: 'account', payouts_enabled: false } };
    case '/v1/account_links':
      return {
        status: 200,
        body: { object: 'account_link', url: `https://connect.stripe.test/setup/e/${form.account}`, expires_at: 1 },
      };
    case '/v1/transfers':
      return { status: 200, body: { id: id('tr'), object: 'transfer', amount: Number(form.amount) } };
    default: {
      const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
      if (expire) return { status: 200, body: { id: expire[1], object: 'checkout.session', status: 'expired' } };
      return { status: 404, body: { error: { type: 'invalid_request_error', message: `No such path ${path}` } } };
    }
  }
}

const server = stripeApiServer(({ method, path, form, headers }) => {
  received.push({
    method,
    path,
    form,
    idempotencyKey: headers['idempotency-key'] as string | undefined,
    authorization: headers.authorization,
  });
  const { status, body } = answer(path, form);
  return { status, body, headers: { 'request-id': `req_${seq}` } };
});

const saved = {
  PAYMENTS_PROVIDER: process.env.PAYMENTS_PROVIDER,
  STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET: process.env.STRIPE_WEBHOOK_SECRET,
  STRIPE_API_BASE: process.env.STRIPE_API_BASE,
};
function setEnv(values: Partial<Record<keyof typeof saved, string | undefined>>) {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
}

const paidEvents: string[] = [];
const failedEvents: string[] = [];
onPaymentSucceeded('stripe-test', async (_work, p) => {
  if (p.purpose === PURPOSE) paidEvents.push(p.id);
});
onPaymentFailed('stripe-test', async (_work, p) => {
  if (p.purpose === PURPOSE) failedEvents.push(p.id);
});

let partnerId: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  setEnv({
    PAYMENTS_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_encore_fake',
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_API_BASE: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  });
  partnerId = (await createPartner({ name: 'Stripe partner' }, getDb())).id;
});
afterAll(async () => {
  setEnv(saved);
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Sends an event to the real webhook route, signed like Stripe signs (or with the given header). */
async function deliver(
  type: string,
  object: object,
  opts: { secret?: string; header?: string | null; tamper?: boolean; timestamp?: number } = {},
) {
  const payload = JSON.stringify({
    id: `evt_${++seq}`,
    object: 'event',
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
  });
  const header =
    opts.header !== undefined
      ? opts.header
      : Stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? SECRET, timestamp: opts.timestamp });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (header !== null) headers['stripe-signature'] = header;
  const res = await webhook(
    new Request('http://encore.test/api/payments/stripe/webhook', {
      method: 'POST',
      headers,
      body: opts.tamper ? payload.replace('"object":"event"', '"object":"event" ') : payload,
    }),
  );
  return { status: res.status, body: (await res.json()) as { received: boolean; ignored?: string; error?: string } };
}

async function open(amountMinor = 4550, currency = 'EUR') {
  return startPayment(
    partnerId,
    {
      purpose: PURPOSE,
      reference: `bi-${++seq}`,
      description: 'General admission · Night show',
      amountMinor,
      currency,
      buyerEmail: 'fan@fans.test',
      successUrl: 'https://partner.test/done',
      cancelUrl: 'https://partner.test/back',
    },
    getDb(),
  );
}

const last = (path: string) => received.filter((r) => r.path === path).at(-1)!;

describe('Stripe Checkout', () => {
  it('opens a Checkout Session with the amount, currency, our id and URLs, under an idempotency key', async () => {
    const before = Date.now();
    const { payment, url } = await open();
    const req = last('/v1/checkout/sessions');
    expect(req.method).toBe('POST');
    expect(req.authorization).toBe('Bearer sk_test_encore_fake');
    expect(req.idempotencyKey).toBe(`encore-checkout-${payment.id}`);
    expect(req.form).toMatchObject({
      mode: 'payment',
      client_reference_id: payment.id,
      customer_email: 'fan@fans.test',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '4550',
      'line_items[0][price_data][product_data][name]': 'General admission · Night show',
      'payment_intent_data[transfer_group]': payment.id,
      'metadata[encore_payment_id]': payment.id,
      'metadata[encore_partner_id]': partnerId,
      success_url: 'https://partner.test/done',
      cancel_url: 'https://partner.test/back',
    });
    // Stripe keeps a session open at least 30 minutes.
    expect(Number(req.form.expires_at) * 1000).toBeGreaterThan(before + 30 * 60_000);
    expect(url).toBe(`https://checkout.stripe.test/c/pay/${payment.providerRef}`);
    expect(payment).toMatchObject({ provider: 'stripe', status: 'pending', checkoutUrl: url });
    expect(payment.providerRef).toMatch(/^cs_test_/);
  });

  it('a Stripe failure is a bad gateway (the payment row rolls back with it)', async () => {
    next.set('/v1/checkout/sessions', [
      { status: 400, body: { error: { type: 'invalid_request_error', message: 'Invalid currency' } } },
    ]);
    await expect(open()).rejects.toMatchObject({
      code: 'BAD_GATEWAY',
      message: expect.stringContaining('Invalid currency'),
    });
  });
});

describe('Stripe Checkout line items of a resale purchase', () => {
  /** The Checkout Session Stripe was asked for a buy intention's payment, and that payment. */
  async function sessionFor(intentionId: string) {
    const [payment] = await getDb().select().from(payments).where(eq(payments.reference, intentionId));
    const sent = received.filter(
      (r) => r.path === '/v1/checkout/sessions' && r.form.client_reference_id === payment.id,
    );
    expect(sent).toHaveLength(1);
    return { payment, form: sent[0].form };
  }
  const total = (form: Record<string, string>) => {
    let sum = 0;
    for (let i = 0; form[`line_items[${i}][quantity]`]; i++) {
      sum += Number(form[`line_items[${i}][quantity]`]) * Number(form[`line_items[${i}][price_data][unit_amount]`]);
    }
    return sum;
  };

  it('one line per listing (event · option (price type) · seats) at the resale price, then its service fee, in the fan’s language, adding up to the amount', async () => {
    const m = await seatedMarket('Stripe lines es');
    const intention = await createBuyIntention(
      m.partnerId,
      {
        items: [m.listing.id],
        user: 'buyer@fans.test',
        locale: 'es',
      },
      getDb(),
    );
    const { payment, form } = await sessionFor(intention.id);
    expect(form).toMatchObject({
      'line_items[0][quantity]': '2',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '4000',
      'line_items[0][price_data][product_data][name]': `${m.ref} · Pista general (Adulto) · Sector A · Fila 3 · Asientos 7, 8`,
      'line_items[1][quantity]': '2',
      'line_items[1][price_data][currency]': 'eur',
      'line_items[1][price_data][unit_amount]': '450',
      'line_items[1][price_data][product_data][name]': 'Cargo de servicio (Encore)',
    });
    expect(form['line_items[2][quantity]']).toBeUndefined();
    expect(payment.amountMinor).toBe(8900);
    expect(total(form)).toBe(payment.amountMinor);
  });

  it('in the default language when the fan’s is not known', async () => {
    const m = await seatedMarket('Stripe lines en');
    const intention = await createBuyIntention(
      m.partnerId,
      { items: [m.listing.id], user: 'buyer@fans.test' },
      getDb(),
    );
    const { payment, form } = await sessionFor(intention.id);
    expect(form['line_items[0][price_data][product_data][name]']).toBe(
      `${m.ref} · Pista general (Adulto) · Section A · Row 3 · Seats 7, 8`,
    );
    expect(form['line_items[1][price_data][product_data][name]']).toBe('Service fee (Encore)');
    expect(total(form)).toBe(payment.amountMinor);
  });

  it('lines that do not add up to the amount are not sent: the session has one line, the description', async () => {
    const { payment } = await startPayment(
      partnerId,
      {
        purpose: PURPOSE,
        reference: `bi-${++seq}`,
        description: 'General admission · Night show',
        amountMinor: 5000,
        currency: 'EUR',
        buyerEmail: 'fan@fans.test',
      },
      getDb(),
      { lines: async () => [{ name: 'Wrong', unitAmountMinor: 4000, quantity: 1 }] },
    );
    const { form } = last('/v1/checkout/sessions');
    expect(form.client_reference_id).toBe(payment.id);
    expect(form).toMatchObject({
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][unit_amount]': '5000',
      'line_items[0][price_data][product_data][name]': 'General admission · Night show',
    });
    expect(form['line_items[1][quantity]']).toBeUndefined();
  });
});

describe('the Stripe webhook route', () => {
  it('refuses a missing, malformed, wrongly signed or tampered event with 400, and changes nothing', async () => {
    const { payment } = await open();
    const session = sessionOf(payment);
    expect((await deliver('checkout.session.completed', session, { header: null })).status).toBe(400);
    expect((await deliver('checkout.session.completed', session, { header: 'nonsense' })).status).toBe(400);
    expect((await deliver('checkout.session.completed', session, { secret: 'whsec_other' })).status).toBe(400);
    expect((await deliver('checkout.session.completed', session, { tamper: true })).status).toBe(400);
    // Signed right, but an hour old (a replay): outside the SDK's 5-minute tolerance.
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    expect((await deliver('checkout.session.completed', session, { timestamp: hourAgo })).status).toBe(400);
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('pending');
  });

  it('checkout.session.completed marks the payment paid once, however often (and concurrently) it is delivered', async () => {
    const { payment } = await open();
    const session = sessionOf(payment);
    const answers = await Promise.all([1, 2, 3, 4].map(() => deliver('checkout.session.completed', session)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(await getPayment(partnerId, payment.id, getDb())).toMatchObject({
      status: 'paid',
      providerPaymentRef: `pi_for_${payment.id}`,
    });
    expect(paidEvents.filter((id) => id === payment.id)).toHaveLength(1);
  });

  it('does not mark paid: an unpaid (delayed) completion, another amount, an unknown session', async () => {
    const { payment } = await open();
    expect(
      (await deliver('checkout.session.completed', sessionOf(payment, { payment_status: 'unpaid' }))).body.ignored,
    ).toBe('not paid yet');
    expect((await deliver('checkout.session.completed', sessionOf(payment, { amount_total: 1 }))).body.ignored).toBe(
      'amount mismatch',
    );
    expect(
      (await deliver('checkout.session.completed', sessionOf(payment, { id: 'cs_someone_else' }))).body.ignored,
    ).toBe('unknown payment');
    expect((await deliver('customer.created', { id: 'cus_1' })).body.ignored).toBe('event type not handled');
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('pending');
    // The delayed method succeeds later.
    expect((await deliver('checkout.session.async_payment_succeeded', sessionOf(payment))).status).toBe(200);
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('paid');
  });

  it('checkout.session.expired fails the payment and runs the failed listeners; a late completion changes nothing', async () => {
    const { payment } = await open();
    expect((await deliver('checkout.session.expired', sessionOf(payment, { payment_status: 'unpaid' }))).status).toBe(
      200,
    );
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('expired');
    expect(failedEvents).toContain(payment.id);
    await deliver('checkout.session.completed', sessionOf(payment));
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('expired');
    expect(paidEvents).not.toContain(payment.id);
  });

  it('without Stripe configured answers 400, never 500', async () => {
    setEnv({ PAYMENTS_PROVIDER: 'sandbox', STRIPE_WEBHOOK_SECRET: undefined });
    try {
      const { status, body } = await deliver('checkout.session.completed', {});
      expect(status).toBe(400);
      expect(body.error).toMatch(/not configured/);
    } finally {
      setEnv({ PAYMENTS_PROVIDER: 'stripe', STRIPE_WEBHOOK_SECRET: SECRET });
    }
  });
});

/** A paid payment; `atStripe`: the session's amount_total as Stripe sends it (in its units), when not EUR. */
async function paid(amountMinor = 5000, currency = 'EUR', atStripe = amountMinor) {
  const { payment } = await open(amountMinor, currency);
  const status = await deliver(
    'checkout.session.completed',
    sessionOf(payment, { amount_total: atStripe, currency: currency.toLowerCase() }),
  );
  expect(status.body).toEqual({ received: true });
  return getPayment(partnerId, payment.id, getDb());
}

describe('Stripe refunds', () => {
  it('refunds against the PaymentIntent and records Stripe’s answer; a pending refund settles by webhook', async () => {
    const payment = await paid(5000);
    const part = await refundPayment(
      partnerId,
      { paymentId: payment.id, amountMinor: 1500, reason: 'One ticket' },
      getDb(),
    );
    const req = last('/v1/refunds');
    expect(req.form).toMatchObject({
      payment_intent: `pi_for_${payment.id}`,
      amount: '1500',
      reason: 'requested_by_customer',
      'metadata[encore_refund_id]': part.id,
      'metadata[reason]': 'One ticket',
    });
    expect(req.idempotencyKey).toBe(`encore-refund-${part.id}`);
    expect(part).toMatchObject({ status: 'succeeded', providerRef: expect.stringMatching(/^re_test_/) });
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('partially_refunded');

    next.set('/v1/refunds', [{ status: 200, body: { id: 're_pending_1', object: 'refund', status: 'pending' } }]);
    const rest = await refundPayment(partnerId, { paymentId: payment.id, reason: 'Show cancelled' }, getDb());
    expect(rest).toMatchObject({ status: 'pending', amountMinor: 3500, providerRef: 're_pending_1' });
    expect(last('/v1/refunds').form.amount).toBe('3500');
    // Reserved while pending: nothing more can be refunded.
    await expect(refundPayment(partnerId, { paymentId: payment.id, reason: 'x' }, getDb())).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await deliver('refund.updated', { id: 're_pending_1', object: 'refund', status: 'succeeded' });
    expect(await getPayment(partnerId, payment.id, getDb())).toMatchObject({ status: 'refunded', refundedMinor: 5000 });
    expect((await refundsOf(partnerId, payment.id, getDb())).map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('a refund Stripe refuses is recorded as failed and frees its amount', async () => {
    const payment = await paid(2000);
    next.set('/v1/refunds', [
      { status: 400, body: { error: { type: 'invalid_request_error', message: 'Charge already refunded' } } },
    ]);
    await expect(refundPayment(partnerId, { paymentId: payment.id, reason: 'x' }, getDb())).rejects.toMatchObject({
      code: 'BAD_GATEWAY',
    });
    expect((await refundsOf(partnerId, payment.id, getDb()))[0]).toMatchObject({
      status: 'failed',
      failureReason: expect.stringContaining('Charge already refunded'),
    });
    expect((await refundPayment(partnerId, { paymentId: payment.id, reason: 'again' }, getDb())).status).toBe(
      'succeeded',
    );
  });
});

describe('refunds Stripe never answered', () => {
  /** Sets a refund's clock back, as if it had been reserved (and last touched) `minutes` ago. */
  async function age(refundId: string, minutes: number) {
    const then = sql`now() - make_interval(mins => ${minutes})`;
    await getDb().update(refunds).set({ createdAt: then, updatedAt: then }).where(eq(refunds.id, refundId));
  }

  /** A refund reserved as a refund job reserves it, whose process stopped before Stripe was asked. */
  async function unanswered(amountMinor: number, minutes: number) {
    const payment = await paid(amountMinor);
    const reserved = await transaction(
      ({ tx }) =>
        reserveRefund(tx, partnerId, {
          paymentId: payment.id,
          reason: 'Show cancelled',
          refundId: `rfd_sweep_${++seq}`,
        }),
      getDb(),
    );
    if (!('refund' in reserved)) throw new Error('expected a new refund');
    await age(reserved.refund.id, minutes);
    return { payment, refund: reserved.refund };
  }

  const callsFor = (refundId: string, since: number) =>
    received.slice(since).filter((r) => r.path === '/v1/refunds' && r.idempotencyKey === `encore-refund-${refundId}`);

  it('20 sweeps at once send it once, under its own idempotency key; the payment is refunded once', async () => {
    const { payment, refund } = await unanswered(3000, 11);
    // A rerun of its job finds the pending refund and does not send it (why the sweep exists).
    const rerun = await refundPayment(
      partnerId,
      {
        paymentId: payment.id,
        reason: 'Show cancelled',
        refundId: refund.id,
      },
      getDb(),
    );
    expect(rerun).toMatchObject({ id: refund.id, status: 'pending', providerRef: null });
    await age(refund.id, 11);

    const since = received.length;
    expect(statuses(await race(20, () => resendUnansweredRefunds(getDb())))).toEqual(Array(20).fill(200));
    const calls = callsFor(refund.id, since);
    expect(calls).toHaveLength(1);
    expect(calls[0].form).toMatchObject({ amount: '3000', 'metadata[encore_refund_id]': refund.id });
    expect((await refundsOf(partnerId, payment.id, getDb()))[0]).toMatchObject({
      status: 'succeeded',
      providerRef: expect.stringMatching(/^re_test_/),
    });
    expect(await getPayment(partnerId, payment.id, getDb())).toMatchObject({ status: 'refunded', refundedMinor: 3000 });

    // Answered now: later sweeps leave it alone.
    await age(refund.id, 11);
    await resendUnansweredRefunds(getDb());
    expect(callsFor(refund.id, since)).toHaveLength(1);
  });

  it('not sent again: a young one, one Stripe answered as pending, one past the 24 h of its key; a failed call waits for the next sweep', async () => {
    const young = await unanswered(1000, 5);
    const tooOld = await unanswered(1000, 24 * 60);
    const atStripe = await paid(1000);
    next.set('/v1/refunds', [
      { status: 200, body: { id: `re_pending_sweep_${seq}`, object: 'refund', status: 'pending' } },
    ]);
    const waiting = await refundPayment(partnerId, { paymentId: atStripe.id, reason: 'Settles later' }, getDb());
    expect(waiting.status).toBe('pending');
    await age(waiting.id, 11);
    const failing = await unanswered(1000, 11);

    const since = received.length;
    // Stripe down for the sweep (the SDK's retries included): the refund stays pending, unanswered.
    const down = { status: 500, body: { error: { type: 'api_error', message: 'Stripe is down' } } };
    next.set('/v1/refunds', [down, down, down]);
    try {
      await resendUnansweredRefunds(getDb());
    } finally {
      next.delete('/v1/refunds');
    }
    expect(callsFor(failing.refund.id, since).length).toBeGreaterThan(0);
    for (const r of [young.refund, tooOld.refund, waiting]) expect(callsFor(r.id, since)).toHaveLength(0);
    expect((await refundsOf(partnerId, failing.payment.id, getDb()))[0]).toMatchObject({
      status: 'pending',
      providerRef: null,
    });

    // The next sweep, ten minutes on, sends it.
    await age(failing.refund.id, 11);
    await resendUnansweredRefunds(getDb());
    expect((await refundsOf(partnerId, failing.payment.id, getDb()))[0].status).toBe('succeeded');
    expect((await refundsOf(partnerId, young.payment.id, getDb()))[0].status).toBe('pending');
    expect((await refundsOf(partnerId, tooOld.payment.id, getDb()))[0].status).toBe('pending');
  });
});

describe('Stripe Connect payouts', () => {
  it('onboards an Express account (pending payout info until account.updated), then transfers once per key', async () => {
    const email = `seller-${seq}-${Date.now()}@fans.test`;
    const setUp = await setUpPayoutAccount(
      partnerId,
      {
        sellerEmail: email,
        returnUrl: 'https://partner.test/payouts',
      },
      getDb(),
    );
    const created = last('/v1/accounts');
    expect(created.form).toMatchObject({
      type: 'express',
      email,
      'capabilities[transfers][requested]': 'true',
      'metadata[encore_seller_account_id]': setUp.account.id,
    });
    expect(created.idempotencyKey).toMatch(/^encore-seller-/);
    expect(last('/v1/account_links').form).toMatchObject({
      account: setUp.account.accountRef,
      type: 'account_onboarding',
      return_url: 'https://partner.test/payouts',
      refresh_url: 'https://partner.test/payouts',
    });
    expect(setUp.onboardingUrl).toBe(`https://connect.stripe.test/setup/e/${setUp.account.accountRef}`);
    expect(await payoutStatus(partnerId, email, getDb())).toBe('pending');

    const payment = await paid(6000);
    const input = {
      sellerEmail: email,
      amountMinor: 5400,
      currency: 'EUR',
      idempotencyKey: `po-${payment.id}`,
      paymentId: payment.id,
    };
    await expect(transferPayout(partnerId, input, getDb())).rejects.toThrow(/pending payout info/);

    // Onboarding half done: details submitted, transfers not active yet.
    await deliver('account.updated', { id: setUp.account.accountRef, object: 'account', payouts_enabled: false });
    expect(await payoutStatus(partnerId, email, getDb())).toBe('pending');
    await deliver('account.updated', {
      id: setUp.account.accountRef,
      object: 'account',
      payouts_enabled: true,
      capabilities: { transfers: 'active' },
    });
    expect(await payoutStatus(partnerId, email, getDb())).toBe('active');

    // Stripe refuses the first try; the same key tries again with the same Idempotency-Key.
    next.set('/v1/transfers', [
      { status: 400, body: { error: { type: 'invalid_request_error', message: 'Insufficient available funds' } } },
    ]);
    await expect(transferPayout(partnerId, input, getDb())).rejects.toMatchObject({ code: 'BAD_GATEWAY' });
    const transfer = await transferPayout(partnerId, input, getDb());
    const tries = received.filter(
      (r) => r.path === '/v1/transfers' && r.form['metadata[encore_transfer_id]'] === transfer.id,
    );
    expect(tries).toHaveLength(2);
    expect(new Set(tries.map((t) => t.idempotencyKey))).toEqual(new Set([`encore-transfer-${transfer.id}`]));
    expect(tries[1].form).toMatchObject({
      amount: '5400',
      currency: 'eur',
      destination: setUp.account.accountRef,
      transfer_group: payment.id,
    });
    expect(transfer).toMatchObject({ status: 'paid', providerRef: expect.stringMatching(/^tr_test_/) });
    // Asking again answers the same transfer without calling Stripe.
    expect((await transferPayout(partnerId, input, getDb())).id).toBe(transfer.id);
    expect(
      received.filter((r) => r.path === '/v1/transfers' && r.form['metadata[encore_transfer_id]'] === transfer.id),
    ).toHaveLength(2);
  });
});

describe('a show cancellation and a staff refund with Stripe', () => {
  const SELLER = 'seller@example.com';
  const BUYER = 'buyer@example.com';
  let jobs: ReturnType<typeof recordJobs>;
  beforeAll(() => {
    jobs = recordJobs();
  });
  afterAll(() => jobs.restore());

  /** A partner's T1 listed at 40.00 and held by BUYER, with the Stripe payment of the hold. */
  async function held(name: string) {
    const m = await sellerMarket({ seller: SELLER, name });
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    const intention = await createBuyIntention(m.partnerId, { items: [listing.id], user: BUYER }, getDb());
    const [payment] = await getDb().select().from(payments).where(eq(payments.reference, intention.id));
    return { ...m, listing, intention, payment };
  }
  const cancelShow = (m: { key: string; ref: string }) =>
    cancelPost(
      apiRequest(`/v1/events/${m.ref}/cancellation`, { key: m.key, method: 'POST' }),
      routeParams({ externalReferenceId: m.ref }),
    );

  it('a cancellation expires the Checkout Session of a hold it ended; a payment that still completes is refunded', async () => {
    const m = await held('Stripe cancel');
    expect(m.payment.providerRef).toMatch(/^cs_test_/);
    expect((await cancelShow(m)).status).toBe(200);
    const expired = received.filter((r) => r.path === `/v1/checkout/sessions/${m.payment.providerRef}/expire`);
    expect(expired).toHaveLength(1);
    expect(expired[0].method).toBe('POST');
    // Paid at Stripe a moment before the expiry: completed, then refused (the hold ended) and refunded.
    const sent = jobs.sent.length;
    expect((await deliver('checkout.session.completed', sessionOf(m.payment))).status).toBe(200);
    const [row] = await getDb().select().from(buyIntentions).where(eq(buyIntentions.id, m.intention.id));
    expect(row.status).toBe('CANCELLED');
    expect(jobs.sent.slice(sent).filter((j) => j.name === 'marketplace.refundPurchase')).toEqual([
      expect.objectContaining({ input: expect.objectContaining({ paymentId: m.payment.id }) }),
    ]);
  });

  it('a staff refund the provider refuses stays recorded once and is retried under the same refund id', async () => {
    const m = await held('Stripe staff refund');
    expect((await deliver('checkout.session.completed', sessionOf(m.payment))).status).toBe(200);
    next.set('/v1/refunds', [
      { status: 400, body: { error: { type: 'invalid_request_error', message: 'Charge is disputed' } } },
    ]);
    const sent = jobs.sent.length;
    const result = await refundPurchase(
      {
        partnerId: m.partnerId,
        intentionId: m.intention.id,
        reason: 'Duplicate order',
        staffEmail: 'ops@encore.test',
      },
      getDb(),
    );
    expect(result).toMatchObject({ retrying: true, refundStatus: 'failed', refundId: `rfd_${m.intention.id}_staff` });
    const [row] = await getDb().select().from(buyIntentions).where(eq(buyIntentions.id, m.intention.id));
    expect(row.refundReason).toBe('STAFF_REFUND');
    // The retry: the same refund id, tried again, succeeds; one refund in all.
    const job = jobs.sent.slice(sent).find((j) => j.name === 'marketplace.refundPurchase')!;
    expect(job.input).toMatchObject({ refundId: `rfd_${m.intention.id}_staff` });
    await refundPurchaseJob.run(refundPurchaseJob.input.parse(job.input), { provider: 'local', attempt: 1 });
    expect(await refundsOf(m.partnerId, m.payment.id, getDb())).toEqual([
      expect.objectContaining({ id: `rfd_${m.intention.id}_staff`, status: 'succeeded', amountMinor: 4000 }),
    ]);
    expect((await getPayment(m.partnerId, m.payment.id, getDb())).status).toBe('refunded');
    // A second staff refund is a 409, not a second refund.
    await expect(
      refundPurchase(
        {
          partnerId: m.partnerId,
          intentionId: m.intention.id,
          reason: 'x',
          staffEmail: 'ops@encore.test',
        },
        getDb(),
      ),
    ).rejects.toMatchObject({ status: 409 });
  });
});

describe('amounts in Stripe’s own units', () => {
  const SELLER = 'units-seller@example.com';
  const BUYER = 'units-buyer@example.com';

  /**
   * A ticket at `price` (major units) in `currency`, listed and held by BUYER under a buyer fee of
   * `feePercent`: the Checkout Session's lines as sent to Stripe, and the payment in Encore's units.
   */
  async function checkoutIn(currency: string, price: string, feePercent: number) {
    const m = await sellerMarket({
      seller: SELLER,
      name: `Units ${currency} ${feePercent}`,
      show: { ticketOptions: [{ title: 'GA', ticketId: 'GA', description: 'g', currency, price }] },
      tickets: [{ ticketId: 'T1', currency, price }],
    });
    await setMarketTerms(m.partnerId, { ...NO_FEES, buyerFeePercent: feePercent }, getDb());
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price },
      getDb(),
    );
    const intention = await createBuyIntention(m.partnerId, { items: [listing.id], user: BUYER }, getDb());
    const [payment] = await getDb().select().from(payments).where(eq(payments.reference, intention.id));
    const sent = received.filter(
      (r) => r.path === '/v1/checkout/sessions' && r.form.client_reference_id === payment.id,
    );
    expect(sent).toHaveLength(1);
    const form = sent[0].form;
    const lines: number[] = [];
    for (let i = 0; form[`line_items[${i}][quantity]`]; i++) {
      expect(form[`line_items[${i}][quantity]`]).toBe('1');
      expect(form[`line_items[${i}][price_data][currency]`]).toBe(currency.toLowerCase());
      lines.push(Number(form[`line_items[${i}][price_data][unit_amount]`]));
    }
    return { payment, lines, intention, partnerId: m.partnerId };
  }

  it('charges every currency in Stripe’s units, with and without a buyer fee (the fee rounded to what Stripe takes)', async () => {
    // currency, price, buyer fee %, the payment in Encore's minor units, the lines at Stripe (price, fee)
    const cases: [string, string, number, number, number[]][] = [
      ['EUR', '40.00', 0, 4000, [4000]],
      ['EUR', '40.00', 10, 4400, [4000, 400]],
      ['JPY', '5000', 0, 5000, [5000]],
      ['JPY', '5000', 10, 5500, [5000, 500]],
      // 10,000 ISK + 10 %: 11,000 ISK is 1100000 at Stripe (it was sent as 11000: 110 ISK).
      ['ISK', '10000', 0, 10000, [1000000]],
      ['ISK', '10000', 10, 11000, [1000000, 100000]],
      // 12,000 HUF + 10 %: 13,200 HUF is 1320000 at Stripe.
      ['HUF', '12000', 0, 12000, [1200000]],
      ['HUF', '12000', 10, 13200, [1200000, 120000]],
      ['TWD', '1000.00', 0, 100000, [100000]],
      ['TWD', '1000.00', 10, 110000, [100000, 10000]],
      // 12.500 KWD + 7 % is 13.375, which Stripe refuses: the fee is rounded so the total is 13.380.
      ['KWD', '12.500', 0, 12500, [12500]],
      ['KWD', '12.500', 7, 13380, [12500, 880]],
    ];
    for (const [currency, price, fee, amountMinor, lines] of cases) {
      const got = await checkoutIn(currency, price, fee);
      expect({ currency, fee, amountMinor: got.payment.amountMinor, lines: got.lines }).toEqual({
        currency,
        fee,
        amountMinor,
        lines,
      });
    }
  });

  it('a KWD price Stripe would refuse on its own line is charged as one line, the fee rounding the total', async () => {
    // 12.505 KWD + 7 % (0.875 rounded half up): 13.380 in all, one line (12.505 alone is no Stripe amount).
    const got = await checkoutIn('KWD', '12.505', 7);
    expect(got.payment.amountMinor).toBe(13380);
    expect(got.lines).toEqual([13380]);
  });

  it('the webhook reads the paid session’s amount in Stripe’s units: 1100000 is our 11000 ISK', async () => {
    const { payment } = await open(11000, 'ISK');
    expect(last('/v1/checkout/sessions').form['line_items[0][price_data][unit_amount]']).toBe('1100000');
    // Stripe's amount read as ours would be a hundred times too much: not paid.
    const asOurs = await deliver(
      'checkout.session.completed',
      sessionOf(payment, { amount_total: 11000, currency: 'isk' }),
    );
    expect(asOurs.body.ignored).toBe('amount mismatch');
    const ok = await deliver(
      'checkout.session.completed',
      sessionOf(payment, { amount_total: 1100000, currency: 'isk' }),
    );
    expect(ok.body).toEqual({ received: true });
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('paid');
  });

  it('refunds in Stripe’s units, and a refund Stripe would refuse is not sent', async () => {
    const isk = await paid(11000, 'ISK', 1100000);
    const part = await refundPayment(partnerId, { paymentId: isk.id, amountMinor: 1000, reason: 'The fee' }, getDb());
    expect(last('/v1/refunds').form).toMatchObject({ amount: '100000', 'metadata[encore_refund_id]': part.id });
    expect(part).toMatchObject({ status: 'succeeded', amountMinor: 1000 });
    await refundPayment(partnerId, { paymentId: isk.id, reason: 'The rest' }, getDb());
    expect(last('/v1/refunds').form.amount).toBe('1000000');
    expect(await getPayment(partnerId, isk.id, getDb())).toMatchObject({ status: 'refunded', refundedMinor: 11000 });

    const huf = await paid(13200, 'HUF', 1320000);
    await refundPayment(partnerId, { paymentId: huf.id, reason: 'Show cancelled' }, getDb());
    expect(last('/v1/refunds').form.amount).toBe('1320000');

    const kwd = await paid(13380, 'KWD', 13380);
    const before = received.length;
    await expect(
      refundPayment(partnerId, { paymentId: kwd.id, amountMinor: 5, reason: 'Five fils' }, getDb()),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('multiples of 10') });
    expect(received.slice(before).filter((r) => r.path === '/v1/refunds')).toEqual([]);
    expect((await refundsOf(partnerId, kwd.id, getDb()))[0]).toMatchObject({ status: 'failed', amountMinor: 5 });
    await refundPayment(partnerId, { paymentId: kwd.id, reason: 'Show cancelled' }, getDb());
    expect(last('/v1/refunds').form.amount).toBe('13380');
  });

  it('pays out in Stripe’s units, rounded down to what Stripe pays out, and records what was sent', async () => {
    const email = `units-payee-${Date.now()}@fans.test`;
    const setUp = await setUpPayoutAccount(
      partnerId,
      {
        sellerEmail: email,
        returnUrl: 'https://partner.test/payouts',
      },
      getDb(),
    );
    await deliver('account.updated', {
      id: setUp.account.accountRef,
      object: 'account',
      payouts_enabled: true,
      capabilities: { transfers: 'active' },
    });
    const pay = async (amountMinor: number, currency: string) => {
      const transfer = await transferPayout(
        partnerId,
        {
          sellerEmail: email,
          amountMinor,
          currency,
          idempotencyKey: `units-${currency}-${++seq}`,
        },
        getDb(),
      );
      const sent = received.filter(
        (r) => r.path === '/v1/transfers' && r.form['metadata[encore_transfer_id]'] === transfer.id,
      );
      return { transfer, sent: sent.map((r) => r.form.amount) };
    };
    // currency, owed (ours), sent (ours), sent at Stripe
    const cases: [string, number, number, string][] = [
      ['EUR', 5400, 5400, '5400'],
      ['JPY', 4500, 4500, '4500'],
      ['ISK', 9000, 9000, '900000'],
      ['HUF', 10800, 10800, '1080000'],
      // TWD payouts in whole dollars: 1,147.62 owed, 1,147.00 sent; the 0.62 stays with Encore.
      ['TWD', 114762, 114700, '114700'],
      ['KWD', 11625, 11620, '11620'],
    ];
    for (const [currency, owed, sentMinor, atStripe] of cases) {
      const { transfer, sent } = await pay(owed, currency);
      expect({
        currency,
        sent,
        transfer: { amountMinor: transfer.amountMinor, sentMinor: transfer.sentMinor },
      }).toEqual({
        currency,
        sent: [atStripe],
        transfer: { amountMinor: owed, sentMinor },
      });
      expect(transfer.status).toBe('paid');
    }
    // Less than Stripe pays out (0.62 TWD): nothing is sent, and the transfer records nothing sent.
    const { transfer, sent } = await pay(62, 'TWD');
    expect(sent).toEqual([]);
    expect(transfer).toMatchObject({ status: 'paid', amountMinor: 62, sentMinor: 0, providerRef: null });
  });
});
