import { getDb } from '@/db';
import { handleStripeWebhook } from '@/server/modules/payments';
// Marking a payment paid runs the modules' payment listeners (server/wiring.ts): load the subscriptions.
import '@/server/wiring';

export const dynamic = 'force-dynamic';

/**
 * Stripe's webhook endpoint (configure it at Stripe with the events checkout.session.completed,
 * checkout.session.async_payment_succeeded / _failed, checkout.session.expired, account.updated,
 * refund.updated and refund.failed). The body is read raw: the signature covers its exact bytes.
 */
export async function POST(req: Request) {
  const raw = Buffer.from(await req.arrayBuffer());
  const { status, body } = await handleStripeWebhook(raw, req.headers.get('stripe-signature'), getDb());
  return Response.json(body, { status });
}
