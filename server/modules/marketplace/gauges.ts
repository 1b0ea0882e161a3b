import { and, count, eq, gt, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { buyIntentions, payouts } from '@/db/schema/marketplace';

/** The buy intentions holding listings now (PENDING, not expired), and how many listings they hold. */
export async function activeHolds(db: DbOrTx): Promise<{ intentions: number; listings: number }> {
  const [row] = await db
    .select({
      intentions: count(),
      listings: sql<number>`coalesce(sum(cardinality(${buyIntentions.listingIds})), 0)::int`,
    })
    .from(buyIntentions)
    .where(and(eq(buyIntentions.status, 'PENDING'), gt(buyIntentions.expiresAt, sql`now()`)));
  return { intentions: row.intentions, listings: row.listings };
}

/** Seller payouts due and not paid yet (SCHEDULED, due time passed), per currency: how many and how much. */
export async function duePayoutTotals(db: DbOrTx): Promise<{ currency: string; count: number; amountMinor: number }[]> {
  return db
    .select({
      currency: payouts.currency,
      count: count(),
      amountMinor: sql<number>`coalesce(sum(${payouts.amountMinor}), 0)::float8`,
    })
    .from(payouts)
    .where(and(eq(payouts.status, 'SCHEDULED'), lte(payouts.dueAt, sql`now()`)))
    .groupBy(payouts.currency)
    .orderBy(payouts.currency);
}
