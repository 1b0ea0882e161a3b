import type { Work } from '@/server/lib/transaction';
import type { Payment, PaymentRefusal } from '@/server/modules/payments';
import { intentionStillPayable } from '../purchase';

/**
 * Payment attempt (the payments module's check before our own checkout charges a card, in its
 * transaction): a buy intention's payment is refused when its hold ended or its show was cancelled
 * (purchase.ts, which locks the shows and the intention as the purchase does).
 */
export function refuseUnpayableIntention(work: Work, payment: Payment): Promise<PaymentRefusal | null> {
  return intentionStillPayable(work, payment);
}
