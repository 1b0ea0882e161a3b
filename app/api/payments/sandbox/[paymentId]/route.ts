import { getDb } from '@/db';
import { publicBaseUrl } from '@/server/env';
import { requestIdOf } from '@/server/http/request-id';
import { isConnectionFault } from '@/server/lib/db-faults';
import { noteDatabaseFault } from '@/server/lib/db-health';
import { AppError } from '@/server/lib/errors';
import { errorFields, log } from '@/server/lib/log';
import {
  completeSandboxAuthentication,
  sandboxCheckout,
  payWithSandboxCard,
  type SandboxResult,
} from '@/server/modules/payments';
import { BUY_INTENTION_PURPOSE } from '@/server/modules/marketplace';
import { orderCookieHeaders } from '@/components/market/order-access';
// Paying runs the modules' payment listeners (server/wiring.ts): load the subscriptions.
import '@/server/wiring';

export const dynamic = 'force-dynamic';

const see = (location: string) =>
  new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });

/**
 * The sandbox checkout's form (app/(market)/pay/[paymentId]) posts here: `action` = `pay` (with the
 * card fields), `authenticate` or `fail_authentication` (the test card's second step). Answers a 303:
 * to the payment's success URL once paid, else back to the checkout (with `?error=` naming the problem).
 */
export async function POST(req: Request, { params }: { params: Promise<{ paymentId: string }> }) {
  const { paymentId } = await params;
  const back = `${publicBaseUrl()}/pay/${encodeURIComponent(paymentId)}`;
  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    return see(`${back}?error=invalid_number`);
  }
  const field = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : '';
  };
  const action = field('action') || 'pay';
  let result: SandboxResult;
  try {
    if (action === 'authenticate' || action === 'fail_authentication') {
      result = await completeSandboxAuthentication(paymentId, action === 'authenticate', getDb());
    } else {
      result = await payWithSandboxCard(
        paymentId,
        {
          cardNumber: field('cardNumber'),
          expiry: field('expiry'),
          cvc: field('cvc'),
          name: field('name'),
        },
        getDb(),
      );
    }
  } catch (err) {
    // The payment is taken in one transaction with the modules' checks: a failure rolled it back, so
    // nothing was charged. The fan is back on the checkout, told why, and may pay again.
    return see(`${back}?error=${await failedPayment(req, paymentId, err)}`);
  }
  if (!result.payment) return new Response('Not found', { status: 404 });
  if (result.outcome === 'paid') {
    // The browser that paid is the buyer's: the order's pages show it the e-mail and the tickets.
    const paid = see(result.payment.successUrl);
    if (result.payment.purpose === BUY_INTENTION_PURPOSE) {
      for (const cookie of await orderCookieHeaders(req.headers.get('cookie'), result.payment.reference)) {
        paid.headers.append('set-cookie', cookie);
      }
    }
    return paid;
  }
  if (result.outcome === 'requires_action') return see(back);
  return see(`${back}?error=${result.error}`);
}

/**
 * Why a payment failed before it was charged, for the checkout to say: the partner's verification endpoint
 * failing or hanging (its own time limit), or the database unreachable; anything else is a failure of ours.
 * One JSON log line with the request id, the payment and its partner.
 */
async function failedPayment(
  req: Request,
  paymentId: string,
  err: unknown,
): Promise<'partner_unavailable' | 'unavailable'> {
  const partnerId = await sandboxCheckout(paymentId, getDb()).then(
    (view) => view?.payment.partnerId,
    () => undefined,
  );
  const where = { requestId: requestIdOf(req), paymentId, partnerId, ...errorFields(err) };
  if (err instanceof AppError && err.code === 'BAD_GATEWAY') {
    log.warn('payment not taken: the partner could not confirm the tickets', where);
    return 'partner_unavailable';
  }
  if (isConnectionFault(err)) {
    log.warn('payment not taken: database unavailable', where);
    noteDatabaseFault(err);
  } else log.error('payment not taken: unexpected error', where);
  return 'unavailable';
}
