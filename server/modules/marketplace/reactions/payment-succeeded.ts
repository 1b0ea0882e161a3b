import type { Work } from '@/server/lib/transaction';
import type { Payment } from '@/server/modules/payments';
import { completePurchase } from '../purchase';

/**
 * Payment succeeded (the payments module's event, in the paying transaction): a buy intention's purchase
 * completes, or is refused and refunded. The purchase lives in purchase.ts beside the channel deliveries
 * and refunds that share its steps; payments of other purposes are left alone there.
 */
export function completePurchaseOfPayment(work: Work, payment: Payment): Promise<void> {
  return completePurchase(work, payment);
}
