import { count } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { PAYMENT_STATUSES, type PaymentStatus, payments } from '@/db/schema/payments';

/** How many buyer payments are in each state (every state listed, 0 when none is), for the operators' metrics. */
export async function paymentCountsByStatus(db: DbOrTx): Promise<Record<PaymentStatus, number>> {
  const rows = await db.select({ status: payments.status, n: count() }).from(payments).groupBy(payments.status);
  const counts = Object.fromEntries(PAYMENT_STATUSES.map((s) => [s, 0])) as Record<PaymentStatus, number>;
  for (const r of rows) counts[r.status] = r.n;
  return counts;
}
