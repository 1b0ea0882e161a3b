import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { buyIntentions, listingItems, listings, payouts } from '@/db/schema/marketplace';
import { deleted, type TestPartnerWipe, type WipeCounts } from '@/server/lib/wipe';

/** A test partner's payouts, listings and buy intentions (its market terms, a setting, stay). */
export async function wipeMarketplaceTestData(wipe: TestPartnerWipe, tx: DbOrTx): Promise<WipeCounts> {
  const id = wipe.partnerId;
  return {
    payouts: await deleted(tx.delete(payouts).where(eq(payouts.partnerId, id))),
    buy_intentions: await deleted(tx.delete(buyIntentions).where(eq(buyIntentions.partnerId, id))),
    listing_items: await deleted(tx.delete(listingItems).where(eq(listingItems.partnerId, id))),
    listings: await deleted(tx.delete(listings).where(eq(listings.partnerId, id))),
  };
}
