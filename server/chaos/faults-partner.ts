import { getDb } from '@/db';
import { updateIntegration } from '@/server/modules/partners';
import { FakePartner, fakeTicket, type Misbehaviour } from '@/server/testing/fake-partner';
import type { Chaos, FaultResult } from './context';
import { describeErrors, logSummary, secs, serverErrors } from './report';
import { SELLER, v1 } from './setup';

const PAYING_CARD = {
  cardNumber: '4242 4242 4242 4242',
  expiry: '12 / 34',
  cvc: '123',
  name: 'Chaos Buyer',
  action: 'pay',
};

/**
 * `partner-down`: the partner's verification endpoint (the fake partner of the tests) answers 500, then
 * hangs, while a fan pays on the sandbox checkout (the form's POST). Each time the fan must be sent back to
 * /pay/<id> with `error=partner_unavailable` within the partner call's time limit (5 s), and nothing may be
 * captured; once the partner answers again, the same payment goes through.
 */
export async function partnerDown(c: Chaos): Promise<FaultResult> {
  const from = Date.now();
  const p = c.payMarket;
  const fake = await FakePartner.start();
  try {
    fake.setTickets(SELLER, [
      fakeTicket({
        ticketId: 'L-0000',
        externalReferenceEventId: p.ref,
        showId: '1',
        ticketOptionId: 'GA',
        price: '40.00',
        currency: 'EUR',
      }),
    ]);
    const intention = await v1<{ paymentUrl: string }>(
      c.apps[0].base,
      p.key,
      'POST',
      '/v1/marketplace/buyingflow/buyIntention',
      {
        items: [p.listings[0]],
        user: 'payer@chaos.test',
      },
    );
    const paymentId = new URL(intention.paymentUrl).pathname.split('/').pop() ?? '';
    await updateIntegration({ partnerId: p.partnerId, verificationUrl: `${fake.origin}/api` }, getDb());
    const tries: { kind: string; ms: number; back: boolean; captured: boolean }[] = [];
    const cases: [string, Misbehaviour][] = [
      ['500', { kind: 'status', status: 500 }],
      ['hang', { kind: 'hang' }],
    ];
    for (const [i, [kind, misbehaviour]] of cases.entries()) {
      fake.misbehaviour = misbehaviour;
      const paid = await pay(c, i % c.apps.length, paymentId);
      const back = paid.status === 303 && (paid.location ?? '').includes(`/pay/${paymentId}?error=partner_unavailable`);
      if (!back)
        c.failures.push(
          `partner-down (${kind}): the fan was not sent back to /pay/${paymentId} with the error (${paid.status} → ${paid.location})`,
        );
      const captured = (await paymentStatus(c, paymentId)) !== 'pending';
      if (captured) c.failures.push(`partner-down (${kind}): payment ${paymentId} was captured`);
      tries.push({ kind, ms: paid.ms, back, captured });
    }
    fake.misbehaviour = null;
    const recovered = await pay(c, 0, paymentId);
    const status = await paymentStatus(c, paymentId);
    if (status !== 'paid')
      c.failures.push(`partner-down: once the partner was back, payment ${paymentId} is ${status}, not paid`);
    c.failures.push(...describeErrors('partner-down', serverErrors(c.traffic.between(from)), c.logs));
    return {
      name: 'partner-down',
      line:
        tries
          .map(
            (t) =>
              `${t.kind}: ${t.back ? `back on /pay/<id>?error=partner_unavailable in ${secs(t.ms)}` : 'NOT sent back'}`,
          )
          .join(' · ') +
        ` · ${tries.filter((t) => t.captured).length}/${tries.length} captured · paid in ${secs(recovered.ms)} once the partner answered (${status})`,
      details: [`logs: ${logSummary(c.logs, from, Date.now())}`],
    };
  } finally {
    await updateIntegration({ partnerId: p.partnerId, verificationUrl: null }, getDb()).catch(() => undefined);
    await fake.close();
  }
}

/** The checkout form's POST with the card that pays, as the fan's browser sends it; the answer and its time. */
async function pay(c: Chaos, instance: number, paymentId: string) {
  const app = c.apps[instance];
  const t0 = Date.now();
  const res = await fetch(`${app.base}/api/payments/sandbox/${paymentId}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: app.base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(PAYING_CARD).toString(),
    signal: AbortSignal.timeout(30_000),
  });
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get('location'), ms: Date.now() - t0 };
}

async function paymentStatus(c: Chaos, paymentId: string): Promise<string> {
  const [row] = await c.db.sql()<{ status: string }[]>`select status from payments where id = ${paymentId}`;
  return row?.status ?? 'missing';
}
