import { getDb } from '@/db';
import { publicBaseUrl } from '@/server/env';
import { completeSandboxAuthentication, payWithSandboxCard, type SandboxResult } from '@/server/modules/payments';
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
  if (!result.payment) return new Response('Not found', { status: 404 });
  if (result.outcome === 'paid') return see(result.payment.successUrl);
  if (result.outcome === 'requires_action') return see(back);
  return see(`${back}?error=${result.error}`);
}
