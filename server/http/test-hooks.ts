import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { getDb } from '@/db';
import { env } from '@/server/env';
import { errorResponse, jsonResponse } from '@/server/http/envelope';
import { requestIdOf } from '@/server/http/request-id';
import { errorOutput } from '@/server/lib/error-capture';
import { AppError, clientErrorFrom } from '@/server/lib/errors';
import { toMinorUnits } from '@/server/lib/money';
import { createListing, setMarketTerms } from '@/server/modules/marketplace';
import { createPartnerCredentials, setPartnerSupport } from '@/server/modules/partners';
import { startPayment } from '@/server/modules/payments';
import { sendTestMessage, upsertEndpoint } from '@/server/modules/webhooks';

/**
 * Test-only set-up calls for the Playwright suite (`POST /api/test-hooks/<action>`): what staff or a fan
 * would do through pages a test is not about (a partner with keys, market terms, a listing, a test
 * payment), done inside the server under test instead of by a `tsx` process per call (~2 CPU-seconds
 * each, 30 per run). They exist only where TEST_HOOKS_SECRET is set (the e2e server: a random secret per
 * run) and answer a caller that sends it in `X-Test-Hooks-Secret`; everywhere else, and to anyone
 * without it, a 404 as for any unknown path. The same module functions as the CLI tools run.
 */
interface Hook {
  run(body: unknown): Promise<unknown>;
}

/** A set-up call: its body checked by `input` (a 400 naming the field otherwise), then `run` on it. */
function hook<S extends z.ZodType>(input: S, run: (body: z.output<S>) => Promise<unknown>): Hook {
  return {
    async run(body) {
      const parsed = input.safeParse(body);
      if (!parsed.success) throw new AppError('BAD_REQUEST', z.prettifyError(parsed.error));
      return run(parsed.data);
    },
  };
}

const hooks: Record<string, Hook> = {
  // What the server has written to stderr so far (server/lib/error-capture.ts).
  'error-output': hook(z.object({}), async () => errorOutput()),
  partner: hook(z.object({ name: z.string().min(1) }), async ({ name }) => createPartnerCredentials(name, getDb())),
  // The partner's support page (its own site, for the fan pages' back link when it set no return origins).
  'partner-site': hook(
    z.object({ partnerId: z.string(), supportUrl: z.string() }),
    async ({ partnerId, supportUrl }) => {
      await setPartnerSupport({ partnerId, supportUrl, supportEmail: null }, getDb());
      return {};
    },
  ),
  'market-terms': hook(
    z.object({ partnerId: z.string(), buyerFeePercent: z.number().default(0), buyerFeeFixed: z.number().default(0) }),
    async ({ partnerId, buyerFeePercent, buyerFeeFixed }) => {
      await setMarketTerms(
        partnerId,
        {
          buyerFeePercent,
          buyerFeeFixed,
          sellerFeePercent: 0,
          sellerFeeFixed: 0,
          payoutDelayDays: 0,
        },
        getDb(),
      );
      return { ok: true };
    },
  ),
  listing: hook(
    z.object({ partnerId: z.string(), sellerEmail: z.string(), ticketId: z.string(), price: z.string() }),
    async ({ partnerId, sellerEmail, ticketId, price }) => {
      const listing = await createListing({ partnerId, sellerEmail, ticketIds: [ticketId], price }, getDb());
      return { listingId: listing.id };
    },
  ),
  // The partner's webhook receiver (what staff set on the partner's page) and its signing secret, shown once.
  'webhook-endpoint': hook(z.object({ partnerId: z.string(), url: z.string() }), async ({ partnerId, url }) => {
    const { signingSecret } = await upsertEndpoint({ partnerId, url }, getDb());
    return { signingSecret };
  }),
  // A `test.ping` to that receiver, signed and delivered by the dispatcher (staff's "Send test message").
  'webhook-test-message': hook(z.object({ partnerId: z.string() }), async ({ partnerId }) => ({
    messageId: await sendTestMessage(partnerId, getDb()),
  })),
  payment: hook(
    z.object({
      partnerId: z.string(),
      amount: z.string().default('45.50'),
      currency: z.string().default('EUR'),
      description: z.string().default('Test payment'),
      email: z.string().default('fan@example.com'),
      successUrl: z.string().optional(),
    }),
    async (i) => {
      const minor = toMinorUnits(i.amount, i.currency);
      if ('error' in minor) throw new AppError('BAD_REQUEST', `amount ${minor.error}`);
      const { payment, url } = await startPayment(
        i.partnerId,
        {
          purpose: 'test',
          reference: `e2e-${Date.now()}-${Math.floor(Math.random() * 1e6)}`,
          description: i.description,
          amountMinor: minor.minor,
          currency: i.currency,
          buyerEmail: i.email,
          successUrl: i.successUrl,
        },
        getDb(),
      );
      return { paymentId: payment.id, url };
    },
  ),
};

function allowed(req: Request): boolean {
  const secret = env().TEST_HOOKS_SECRET;
  const sent = req.headers.get('x-test-hooks-secret');
  if (!secret || !sent) return false;
  const a = Buffer.from(secret);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function runTestHook(action: string, req: Request): Promise<Response> {
  const id = requestIdOf(req);
  const called = Object.hasOwn(hooks, action) ? hooks[action] : undefined;
  if (!called || !allowed(req)) return errorResponse(new AppError('NOT_FOUND', 'Not found'), id);
  try {
    return jsonResponse(await called.run(await req.json().catch(() => null)), 200);
  } catch (err) {
    const known = err instanceof AppError ? err : clientErrorFrom(err);
    if (known) return errorResponse(known, id);
    throw err;
  }
}
