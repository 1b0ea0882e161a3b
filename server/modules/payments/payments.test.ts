import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as payouts } from '@/app/api/payments/sandbox/payouts/[accountId]/route';
import { POST as pay } from '@/app/api/payments/sandbox/[paymentId]/route';
import { getDb } from '@/db';
import { payments, transfers } from '@/db/schema/payments';
import { createPartner } from '@/server/modules/partners';
import {
  expirePaymentsJob,
  getPayment,
  getPayoutAccount,
  onPaymentSucceeded,
  type Payment,
  payoutStatus,
  payWithSandboxCard,
  refundPayment,
  sandboxCheckout,
  setUpPayoutAccount,
  startPayment,
  transferPayout,
} from '@/server/modules/payments';
import { onPaymentFailed, onPayoutAccountActivated } from './events';
import { refundsOf } from './refunds';

const PURPOSE = 'payments_test';
const succeeded: { id: string; statusInTx: string }[] = [];
const failed: string[] = [];
const activated: string[] = [];

// The listeners see the payment's new state inside the transaction that made it; a reference starting
// with "boom" makes the listener fail, which must roll the payment back.
onPaymentSucceeded('payments-test', async ({ tx }, payment) => {
  if (payment.purpose !== PURPOSE) return;
  const [row] = await tx.select({ status: payments.status }).from(payments).where(eq(payments.id, payment.id));
  succeeded.push({ id: payment.id, statusInTx: row.status });
  if (payment.reference.startsWith('boom')) throw new Error('listener refused');
});
onPaymentFailed('payments-test', async (_work, payment) => {
  if (payment.purpose === PURPOSE) failed.push(payment.id);
});
onPayoutAccountActivated('payments-test', async (_work, account) => {
  activated.push(account.id);
});

let partnerId: string;
let otherPartnerId: string;
let seq = 0;
const ref = (tag = 'bi') => `${tag}-${process.pid}-${++seq}`;

beforeAll(async () => {
  partnerId = (await createPartner({ name: 'Payments partner' }, getDb())).id;
  otherPartnerId = (await createPartner({ name: 'Other partner' }, getDb())).id;
});

async function open(extra: Partial<Parameters<typeof startPayment>[1]> = {}) {
  return startPayment(
    partnerId,
    {
      purpose: PURPOSE,
      reference: ref(),
      description: '2 × General admission · Night show',
      amountMinor: 4550,
      currency: 'EUR',
      buyerEmail: 'fan@fans.test',
      successUrl: 'https://partner.test/done',
      cancelUrl: 'https://partner.test/back',
      ...extra,
    },
    getDb(),
  );
}

const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Ada Fan' };

/** Posts the checkout form through the real route handler; answers the status and where it leads. */
async function post(paymentId: string, fields: Record<string, string>) {
  const res = await pay(
    new Request(`http://encore.test/api/payments/sandbox/${paymentId}`, {
      method: 'POST',
      body: new URLSearchParams(fields),
    }),
    { params: Promise.resolve({ paymentId }) },
  );
  return { status: res.status, location: res.headers.get('location') };
}

describe('starting a payment (sandbox)', () => {
  it('answers the hosted checkout URL; the same reference and amount answer the same payment, another amount conflicts', async () => {
    const { payment, url } = await open();
    expect(payment).toMatchObject({ status: 'pending', provider: 'sandbox', amountMinor: 4550, currency: 'EUR' });
    expect(payment.id).toMatch(/^pay_/);
    expect(url).toBe(`http://encore.test/pay/${payment.id}`);
    const again = await startPayment(
      partnerId,
      {
        purpose: PURPOSE,
        reference: payment.reference,
        description: 'x',
        amountMinor: 4550,
        currency: 'EUR',
        buyerEmail: 'fan@fans.test',
      },
      getDb(),
    );
    expect(again.payment.id).toBe(payment.id);
    await expect(
      startPayment(
        partnerId,
        {
          purpose: PURPOSE,
          reference: payment.reference,
          description: 'x',
          amountMinor: 9999,
          currency: 'EUR',
          buyerEmail: 'fan@fans.test',
        },
        getDb(),
      ),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('is scoped by partner and checks its input', async () => {
    const { payment } = await open();
    expect((await getPayment(partnerId, payment.id, getDb())).id).toBe(payment.id);
    await expect(getPayment(otherPartnerId, payment.id, getDb())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(open({ currency: 'EURO' })).rejects.toThrow(/ISO 4217/);
    await expect(open({ amountMinor: 45.5 })).rejects.toThrow(/whole minor units/);
    await expect(open({ amountMinor: 0 })).rejects.toThrow(/more than zero/);
  });

  it('without a success URL leads back to its own page, which shows it paid', async () => {
    const { payment } = await open({ successUrl: undefined, cancelUrl: undefined });
    expect(payment.successUrl).toBe(`http://encore.test/pay/${payment.id}`);
    expect(payment.cancelUrl).toBe(payment.successUrl);
  });
});

describe('the sandbox checkout form (route handler)', () => {
  it('4242 4242 4242 4242 pays: 303 to the success URL, listeners run once inside the paying transaction', async () => {
    const { payment } = await open();
    expect((await sandboxCheckout(payment.id, getDb()))?.state).toBe('payable');
    expect(await post(payment.id, { action: 'pay', ...CARD })).toEqual({
      status: 303,
      location: 'https://partner.test/done',
    });
    const paid = await getPayment(partnerId, payment.id, getDb());
    expect(paid.status).toBe('paid');
    expect(paid.paidAt).toBeInstanceOf(Date);
    expect(succeeded.filter((s) => s.id === payment.id)).toEqual([{ id: payment.id, statusInTx: 'paid' }]);
    expect(await sandboxCheckout(payment.id, getDb())).toMatchObject({
      state: 'paid',
      partnerName: 'Payments partner',
    });
    // Paying again leads to the success URL and changes nothing.
    expect((await post(payment.id, { action: 'pay', ...CARD })).location).toBe('https://partner.test/done');
    expect(succeeded.filter((s) => s.id === payment.id)).toHaveLength(1);
  });

  it('4000 0000 0000 0002 is declined: back to the checkout with the error, still payable', async () => {
    const { payment } = await open();
    expect(await post(payment.id, { action: 'pay', ...CARD, cardNumber: '4000000000000002' })).toEqual({
      status: 303,
      location: `http://encore.test/pay/${payment.id}?error=declined`,
    });
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('pending');
    expect(succeeded.some((s) => s.id === payment.id)).toBe(false);
    expect((await post(payment.id, { action: 'pay', ...CARD })).location).toBe('https://partner.test/done');
  });

  it('4000 0027 6000 3184 asks for a second step: authenticating pays, failing leaves it payable', async () => {
    const { payment } = await open();
    const card = { action: 'pay', ...CARD, cardNumber: '4000 0027 6000 3184' };
    expect(await post(payment.id, card)).toEqual({ status: 303, location: `http://encore.test/pay/${payment.id}` });
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('requires_action');
    expect((await sandboxCheckout(payment.id, getDb()))?.state).toBe('requires_action');

    expect((await post(payment.id, { action: 'fail_authentication' })).location).toBe(
      `http://encore.test/pay/${payment.id}?error=authentication_failed`,
    );
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('pending');

    await post(payment.id, card);
    expect(await post(payment.id, { action: 'authenticate' })).toEqual({
      status: 303,
      location: 'https://partner.test/done',
    });
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('paid');
    expect(succeeded.filter((s) => s.id === payment.id)).toHaveLength(1);
  });

  it('names the bad field: card number, expiry, security code, name; unknown cards are refused', async () => {
    const { payment } = await open();
    const error = async (fields: Partial<typeof CARD>) =>
      new URL((await post(payment.id, { action: 'pay', ...CARD, ...fields })).location!).searchParams.get('error');
    expect(await error({ cardNumber: '4242 4242 4242 4241' })).toBe('invalid_number');
    expect(await error({ cardNumber: '' })).toBe('invalid_number');
    expect(await error({ expiry: '01/20' })).toBe('invalid_expiry');
    expect(await error({ expiry: '13/40' })).toBe('invalid_expiry');
    expect(await error({ cvc: '12' })).toBe('invalid_cvc');
    expect(await error({ name: ' ' })).toBe('invalid_name');
    expect(await error({ cardNumber: '5555 5555 5555 4444' })).toBe('unsupported_card');
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('pending');
  });

  it('paying twice at once pays once and runs the listeners once', async () => {
    const { payment } = await open();
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(payment.id, { action: 'pay', ...CARD })));
    expect(answers.every((a) => a.status === 303 && a.location === 'https://partner.test/done')).toBe(true);
    expect(succeeded.filter((s) => s.id === payment.id)).toHaveLength(1);
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('paid');
  });

  it('a listener that fails rolls the payment back: it stays payable', async () => {
    const { payment } = await open({ reference: ref('boom') });
    await expect(payWithSandboxCard(payment.id, CARD, getDb())).rejects.toThrow('listener refused');
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('pending');
  });

  it('an expired checkout is not payable: it expires and the failed listeners run; the minute job sweeps the rest', async () => {
    const { payment } = await open();
    const late = await open();
    await getDb()
      .update(payments)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(sql`${payments.id} in (${payment.id}, ${late.payment.id})`);
    expect((await sandboxCheckout(payment.id, getDb()))?.state).toBe('expired');
    expect((await post(payment.id, { action: 'pay', ...CARD })).location).toBe(
      `http://encore.test/pay/${payment.id}?error=not_payable`,
    );
    expect((await getPayment(partnerId, payment.id, getDb())).status).toBe('expired');
    expect(failed).toContain(payment.id);

    const swept = (await expirePaymentsJob.run({}, { provider: 'local', attempt: 1 })) as { expired: number };
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    expect((await getPayment(partnerId, late.payment.id, getDb())).status).toBe('expired');
    expect(failed).toContain(late.payment.id);
    // A new payment for the same reference may be opened once the old one expired.
    const reopened = await startPayment(
      partnerId,
      {
        purpose: PURPOSE,
        reference: late.payment.reference,
        description: 'again',
        amountMinor: 100,
        currency: 'EUR',
        buyerEmail: 'fan@fans.test',
      },
      getDb(),
    );
    expect(reopened.payment.id).not.toBe(late.payment.id);
  });

  it('an unknown payment answers 404', async () => {
    expect((await post('pay_doesnotexist', { action: 'pay', ...CARD })).status).toBe(404);
    expect(await sandboxCheckout('pay_doesnotexist', getDb())).toBeNull();
  });
});

async function paidPayment(amountMinor = 4550): Promise<Payment> {
  const { payment } = await open({ amountMinor });
  const result = await payWithSandboxCard(payment.id, CARD, getDb());
  expect(result.outcome).toBe('paid');
  return getPayment(partnerId, payment.id, getDb());
}

describe('refunds', () => {
  it('refunds part, then the rest, recording the provider answer; never more than was paid', async () => {
    const payment = await paidPayment(5000);
    const part = await refundPayment(
      partnerId,
      { paymentId: payment.id, amountMinor: 2000, reason: 'One ticket' },
      getDb(),
    );
    expect(part).toMatchObject({ status: 'succeeded', amountMinor: 2000, currency: 'EUR', reason: 'One ticket' });
    expect(part.providerRef).toMatch(/^sbx_re_/);
    expect(await getPayment(partnerId, payment.id, getDb())).toMatchObject({
      status: 'partially_refunded',
      refundedMinor: 2000,
    });
    await expect(
      refundPayment(partnerId, { paymentId: payment.id, amountMinor: 3001, reason: 'Too much' }, getDb()),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    const rest = await refundPayment(partnerId, { paymentId: payment.id, reason: 'Show cancelled' }, getDb());
    expect(rest.amountMinor).toBe(3000);
    expect(await getPayment(partnerId, payment.id, getDb())).toMatchObject({ status: 'refunded', refundedMinor: 5000 });
    expect((await refundsOf(partnerId, payment.id, getDb())).map((r) => r.amountMinor)).toEqual([2000, 3000]);
    await expect(refundPayment(partnerId, { paymentId: payment.id, reason: 'Again' }, getDb())).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('refuses unpaid payments and other partners; two whole refunds at once refund once', async () => {
    const { payment: unpaid } = await open();
    await expect(refundPayment(partnerId, { paymentId: unpaid.id, reason: 'x' }, getDb())).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    const payment = await paidPayment();
    await expect(refundPayment(otherPartnerId, { paymentId: payment.id, reason: 'x' }, getDb())).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const results = await Promise.allSettled([
      refundPayment(partnerId, { paymentId: payment.id, reason: 'a' }, getDb()),
      refundPayment(partnerId, { paymentId: payment.id, reason: 'b' }, getDb()),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await getPayment(partnerId, payment.id, getDb())).toMatchObject({ status: 'refunded', refundedMinor: 4550 });
  });
});

describe('seller payout accounts and transfers (sandbox)', () => {
  it('a seller is pending payout info until onboarding is done; then transfers are paid, once per key', async () => {
    const email = `Seller-${process.pid}-${Date.now()}@fans.test`;
    expect(await payoutStatus(partnerId, email, getDb())).toBe('none');
    await expect(
      transferPayout(
        partnerId,
        { sellerEmail: email, amountMinor: 4000, currency: 'EUR', idempotencyKey: 'k0' },
        getDb(),
      ),
    ).rejects.toThrow(/pending payout info/);

    const setUp = await setUpPayoutAccount(
      partnerId,
      {
        sellerEmail: email,
        returnUrl: 'https://partner.test/payouts',
      },
      getDb(),
    );
    expect(setUp.account).toMatchObject({ status: 'pending', provider: 'sandbox', sellerEmail: email.toLowerCase() });
    expect(setUp.onboardingUrl).toBe(`http://encore.test/pay/payouts/${setUp.account.id}`);
    expect(await payoutStatus(partnerId, email, getDb())).toBe('pending');
    expect(
      (await setUpPayoutAccount(partnerId, { sellerEmail: email, returnUrl: 'https://partner.test/payouts' }, getDb()))
        .account.id,
    ).toBe(setUp.account.id);
    await expect(
      transferPayout(
        partnerId,
        { sellerEmail: email, amountMinor: 4000, currency: 'EUR', idempotencyKey: 'k0' },
        getDb(),
      ),
    ).rejects.toMatchObject({ code: 'CONFLICT' });

    const res = await payouts(new Request('http://encore.test/x', { method: 'POST' }), {
      params: Promise.resolve({ accountId: setUp.account.id }),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://partner.test/payouts');
    expect(await payoutStatus(partnerId, email, getDb())).toBe('active');
    expect(activated).toEqual([setUp.account.id]);
    expect(
      await setUpPayoutAccount(partnerId, { sellerEmail: email, returnUrl: 'https://partner.test/payouts' }, getDb()),
    ).toMatchObject({
      onboardingUrl: null,
    });
    expect(await getPayoutAccount(otherPartnerId, email, getDb())).toBeNull();

    const payment = await paidPayment();
    const key = `payout-${payment.id}`;
    const input = {
      sellerEmail: email,
      amountMinor: 4000,
      currency: 'EUR',
      idempotencyKey: key,
      paymentId: payment.id,
    };
    const [a, b] = await Promise.all([
      transferPayout(partnerId, input, getDb()),
      transferPayout(partnerId, input, getDb()),
    ]);
    expect(a.id).toBe(b.id);
    expect(a).toMatchObject({ status: 'paid', amountMinor: 4000, currency: 'EUR', paymentId: payment.id });
    expect(a.providerRef).toMatch(/^sbx_tr_/);
    expect((await transferPayout(partnerId, input, getDb())).id).toBe(a.id);
    await expect(transferPayout(partnerId, { ...input, amountMinor: 4001 }, getDb())).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    const rows = await getDb().select().from(transfers).where(eq(transfers.idempotencyKey, key));
    expect(rows).toHaveLength(1);
    // The same key is another partner's own.
    await expect(transferPayout(otherPartnerId, input, getDb())).rejects.toThrow(/pending payout info/);
  });
});
