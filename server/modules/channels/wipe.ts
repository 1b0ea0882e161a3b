import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { channelListings, channelSales, channelSaleTickets } from '@/db/schema/channels';
import { deleted, type TestPartnerWipe, type WipeCounts } from '@/server/lib/wipe';

/** A test partner's channel listings and sales (the channels and their keys, settings, stay). */
export async function wipeChannelsTestData(wipe: TestPartnerWipe, tx: DbOrTx): Promise<WipeCounts> {
  const id = wipe.partnerId;
  return {
    channel_sale_tickets: await deleted(tx.delete(channelSaleTickets).where(eq(channelSaleTickets.partnerId, id))),
    channel_sales: await deleted(tx.delete(channelSales).where(eq(channelSales.partnerId, id))),
    channel_listings: await deleted(tx.delete(channelListings).where(eq(channelListings.partnerId, id))),
  };
}
