import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { getDb } from '@/db';
import { payouts } from '@/db/schema';
import {
  createBuyIntention,
  createListing,
  payDuePayouts,
  refundPurchase,
  setMarketTerms,
} from '@/server/modules/marketplace';
import { sellerMarket } from './market';
import { activePayoutAccount, payOnSandbox } from './payments';

export const SELLER = 'seller@example.com';
/** A seller who never gives their payout details. */
export const LATE_SELLER = 'late-seller@example.com';
const BUYER = 'buyer@example.com';

/** One purchase made through the real flow: listed (one ticket or several together), held, paid on the sandbox page. */
export async function buy(partnerId: string, sellerEmail: string, ticketId: string | string[], price: number) {
  const ticketIds = typeof ticketId === 'string' ? [ticketId] : ticketId;
  const listing = await createListing({ partnerId, sellerEmail, ticketIds, price }, getDb());
  const intention = await createBuyIntention(partnerId, { items: [listing.id], user: BUYER }, getDb());
  const paid = await payOnSandbox(intention.paymentUrl);
  expect(paid.status).toBe(303);
  const [payout] = await getDb().select().from(payouts).where(eq(payouts.listingId, listing.id));
  return { listingId: listing.id, intentionId: intention.id, paymentId: paid.paymentId, payoutId: payout.id };
}

/**
 * A partner with fees on both sides and primary fees on tickets, and three purchases made through the
 * real functions: T1 (40.00, FIXED 2.00 primary fee) bought and its payout paid; T2 (50.00) bought and
 * refunded by staff; T3 (33.33, 3 % primary fee, a seller without payout details) bought, payout due.
 */
export async function moneyMarket(name: string) {
  const m = await sellerMarket({
    seller: SELLER,
    name,
    tickets: [
      { ticketId: 'T1', primarySalesFee: { type: 'FIXED', value: 2 } },
      { ticketId: 'T2' },
      { ticketId: 'T3', buyer: LATE_SELLER, primarySalesFee: { type: 'PERCENTAGE', value: 3 } },
    ],
  });
  await setMarketTerms(
    m.partnerId,
    { buyerFeePercent: 10, buyerFeeFixed: 0.5, sellerFeePercent: 5, sellerFeeFixed: 1, payoutDelayDays: 0 },
    getDb(),
  );
  const paidOut = await buy(m.partnerId, SELLER, 'T1', 40);
  const refunded = await buy(m.partnerId, SELLER, 'T2', 50);
  const due = await buy(m.partnerId, LATE_SELLER, 'T3', 33.33);
  await refundPurchase(
    {
      partnerId: m.partnerId,
      intentionId: refunded.intentionId,
      reason: '=HYPERLINK("http://evil.example")',
      staffEmail: 'ops@encore.test',
    },
    getDb(),
  );
  await activePayoutAccount(m.partnerId, SELLER);
  await getDb()
    .update(payouts)
    .set({ dueAt: sql`now() - interval '1 minute'` as unknown as Date })
    .where(eq(payouts.partnerId, m.partnerId));
  await payDuePayouts(getDb());
  return { ...m, paidOut, refunded, due };
}
