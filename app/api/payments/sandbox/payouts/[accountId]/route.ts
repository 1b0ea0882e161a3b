import { getDb } from '@/db';
import { publicBaseUrl } from '@/server/env';
import { completeSandboxOnboarding } from '@/server/modules/payments';
// Activating an account runs the modules' listeners (server/wiring.ts): load the subscriptions.
import '@/server/wiring';

export const dynamic = 'force-dynamic';

/** The sandbox onboarding form posts here: the account becomes active and the seller goes back. */
export async function POST(_req: Request, { params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  const account = await completeSandboxOnboarding(accountId, getDb());
  if (!account) return new Response('Not found', { status: 404 });
  const location = account.returnUrl ?? `${publicBaseUrl()}/pay/payouts/${encodeURIComponent(accountId)}`;
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}
