import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { env } from '@/server/env';
import { errorResponse, jsonResponse } from '@/server/http/envelope';
import { requestIdOf } from '@/server/http/request-id';
import { AppError, clientErrorFrom } from '@/server/lib/errors';
import { toMinorUnits } from '@/server/lib/money';
import { createListing, setMarketTerms } from '@/server/modules/marketplace';
import { createPartnerWithKeys } from '@/server/modules/partners';
import { startPayment } from '@/server/modules/payments';

/**
 * Test-only set-up calls for the Playwright suite (`POST /api/test-hooks/<action>`): what staff or a fan
 * would do through pages a test is not about (a partner with keys, market terms, a listing, a test
 * payment), done inside the server under test instead of by a `tsx` process per call (~2 CPU-seconds
 * each, 30 per run). They exist only where TEST_HOOKS_SECRET is set (the e2e server: a random secret per
 * run) and answer a caller that sends it in `X-Test-Hooks-Secret`; everywhere else, and to anyone
 * without it, a 404 as for any unknown path. The same module functions as the CLI tools run.
 */
const hooks = {
  partner: {
    input: z.object({ name: z.string().min(1) }),
    async run({ name }: { name: string }) {
      const { partner, apiKey, channelsApiKey } = await createPartnerWithKeys(name);
      return { partnerId: partner.id, apiKey, channelsApiKey };
    },
  },
  'market-terms': {
    input: z.object({
      partnerId: z.string(),
      buyerFeePercent: z.number().default(0),
      buyerFeeFixed: z.number().default(0),
    }),
    async run(i: { partnerId: string; buyerFeePercent: number; buyerFeeFixed: number }) {
      await setMarketTerms(i.partnerId, {
        buyerFeePercent: i.buyerFeePercent,
        buyerFeeFixed: i.buyerFeeFixed,
        sellerFeePercent: 0,
        sellerFeeFixed: 0,
        payoutDelayDays: 0,
      });
      return { ok: true };
    },
  },
  listing: {
    input: z.object({ partnerId: z.string(), sellerEmail: z.string(), ticketId: z.string(), price: z.string() }),
    async run(i: { partnerId: string; sellerEmail: string; ticketId: string; price: string }) {
      const listing = await createListing({
        partnerId: i.partnerId,
        sellerEmail: i.sellerEmail,
        ticketIds: [i.ticketId],
        price: i.price,
      });
      return { listingId: listing.id };
    },
  },
  payment: {
    input: z.object({
      partnerId: z.string(),
      amount: z.string().default('45.50'),
      currency: z.string().default('EUR'),
      description: z.string().default('Test payment'),
      email: z.string().default('fan@example.com'),
      successUrl: z.string().optional(),
    }),
    async run(i: {
      partnerId: string;
      amount: string;
      currency: string;
      description: string;
      email: string;
      successUrl?: string;
    }) {
      const minor = toMinorUnits(i.amount, i.currency);
      if ('error' in minor) throw new AppError('BAD_REQUEST', `amount ${minor.error}`);
      const { payment, url } = await startPayment(i.partnerId, {
        purpose: 'test',
        reference: `e2e-${Date.now()}-${Math.floor(Math.random() * 1e6)}`,
        description: i.description,
        amountMinor: minor.minor,
        currency: i.currency,
        buyerEmail: i.email,
        successUrl: i.successUrl,
      });
      return { paymentId: payment.id, url };
    },
  },
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
  const hook = Object.hasOwn(hooks, action) ? hooks[action as keyof typeof hooks] : undefined;
  if (!hook || !allowed(req)) return errorResponse(new AppError('NOT_FOUND', 'Not found'), id);
  try {
    const parsed = hook.input.safeParse(await req.json().catch(() => null));
    if (!parsed.success) throw new AppError('BAD_REQUEST', z.prettifyError(parsed.error));
    return jsonResponse(await (hook.run as (i: unknown) => Promise<unknown>)(parsed.data), 200);
  } catch (err) {
    const known = err instanceof AppError ? err : clientErrorFrom(err);
    if (known) return errorResponse(known, id);
    throw err;
  }
}
