import type { PaymentProviderName } from '@/db/schema/payments';
import type { DbOrTx } from '@/db';
import { env } from '@/server/env';
import { modeOfPartner } from '@/server/modules/partners';
import type { PaymentProvider } from './provider';
import { sandboxProvider } from './sandbox';
import { stripeProvider } from './stripe';

/* Which provider serves a partner or a row: the interface is provider.ts, the two providers beside it. */

/**
 * The provider a partner's new payments and payout accounts use: PAYMENTS_PROVIDER, except for a test
 * partner (a live partner's test twin), whose money always stays in the sandbox.
 */
export async function providerNameFor(partnerId: string, db: DbOrTx): Promise<PaymentProviderName> {
  return (await modeOfPartner(partnerId, db)) === 'test' ? 'sandbox' : env().PAYMENTS_PROVIDER;
}

/** The provider a row was made with: a payment made in the sandbox is refunded in the sandbox. */
export function providerFor(name: PaymentProviderName): PaymentProvider {
  return name === 'stripe' ? stripeProvider() : sandboxProvider;
}
