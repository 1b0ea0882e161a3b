import { publicBaseUrl } from '@/server/env';
import { newId } from '@/server/lib/ids';
import type { PaymentProvider } from './provider';

/**
 * The embedded provider: the buyer pays on Encore's own hosted test checkout (`/pay/<payment id>`,
 * test cards only) and the seller "onboards" on `/pay/payouts/<account id>`. No money moves anywhere:
 * refunds and transfers succeed at once with sandbox references, recorded in our tables like Stripe's.
 */
export const sandboxProvider: PaymentProvider = {
  name: 'sandbox',
  localCheckoutUrl(paymentId) {
    return `${publicBaseUrl()}/pay/${paymentId}`;
  },
  async startCheckout(p) {
    return { url: `${publicBaseUrl()}/pay/${p.paymentId}`, providerRef: null, expiresAt: p.expiresAt };
  },
  async refund() {
    return { providerRef: newId('sbx_re'), status: 'succeeded' };
  },
  async createSellerAccount() {
    return { accountRef: newId('sbx_acct') };
  },
  async onboardingUrl(p) {
    return `${publicBaseUrl()}/pay/payouts/${p.sellerAccountId}`;
  },
  async transfer(p) {
    // Encore's units as they are: the sandbox pays out any amount.
    return { providerRef: newId('sbx_tr'), sentMinor: p.amountMinor };
  },
};
