import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { POST as webhook } from '@/app/api/payments/stripe/webhook/route';
import { setEnv } from './env';

const SECRET = 'whsec_test_secret_for_encore_races';

/** A request as the Stripe SDK sends it: the form it posts, and its headers (idempotency key, secret key). */
export interface StripeApiCall {
  method: string;
  path: string;
  form: Record<string, string>;
  headers: http.IncomingHttpHeaders;
}

/** A node:http server answering the Stripe SDK: each request read as a form, answered with `answer`'s JSON. */
export function stripeApiServer(
  answer: (call: StripeApiCall) => { status: number; body: object; headers?: Record<string, string> },
): http.Server {
  return http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const form = Object.fromEntries(new URLSearchParams(text));
      const { status, body, headers } = answer({ method: req.method ?? '', path, form, headers: req.headers });
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    });
  });
}

/**
 * A fake Stripe API (a node:http server in this process, reached by the SDK through STRIPE_API_BASE)
 * answering what checkout and refunds ask of it, and the webhook route fed events signed by the SDK's
 * own test-header helper, as payments/stripe.test.ts does. `start` switches the payments provider to
 * Stripe for this worker until `stop`.
 */
export class FakeStripe {
  private seq = 0;
  // Ids unique across instances: files of one worker share its database, where Stripe's ids are unique.
  private readonly run = Math.random().toString(36).slice(2, 8);
  private restoreEnv: (() => void) | null = null;
  private readonly server = stripeApiServer(({ path, form }) => {
    const id = (prefix: string) => `${prefix}_race_${this.run}_${++this.seq}`;
    const answers: Record<string, object> = {
      '/v1/checkout/sessions': {
        id: id('cs'),
        object: 'checkout.session',
        url: `https://checkout.stripe.test/c/pay/${this.seq}`,
        status: 'open',
      },
      '/v1/refunds': { id: id('re'), object: 'refund', status: 'succeeded', amount: Number(form.amount) },
    };
    const body = answers[path];
    return {
      status: body ? 200 : 404,
      body: body ?? { error: { type: 'invalid_request_error', message: `No such path ${path}` } },
    };
  });

  static async start(): Promise<FakeStripe> {
    const fake = new FakeStripe();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.restoreEnv = setEnv({
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_encore_fake',
      STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_API_BASE: `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`,
    });
    return fake;
  }

  async stop(): Promise<void> {
    this.restoreEnv?.();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** A signed event of this type about `object`, as Stripe delivers it (the same body on every retry). */
  event(type: string, object: object): string {
    return JSON.stringify({
      id: `evt_race_${this.run}_${++this.seq}`,
      object: 'event',
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      type,
      data: { object },
    });
  }

  /** Delivers an event body to the real webhook route, freshly signed: its status and answer. */
  async deliver(payload: string) {
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    const res = await webhook(
      new Request('http://encore.test/api/payments/stripe/webhook', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': header },
        body: payload,
      }),
    );
    return { status: res.status, body: (await res.json()) as { received: boolean; ignored?: string; error?: string } };
  }
}

/** The Checkout Session Stripe sends back for one of our payments, paid unless `extra` says otherwise. */
export const sessionOf = (p: { id: string; providerRef: string | null; amountMinor: number }, extra: object = {}) => ({
  id: p.providerRef,
  object: 'checkout.session',
  client_reference_id: p.id,
  metadata: { encore_payment_id: p.id },
  amount_total: p.amountMinor,
  currency: 'eur',
  payment_status: 'paid',
  payment_intent: `pi_for_${p.id}`,
  ...extra,
});
