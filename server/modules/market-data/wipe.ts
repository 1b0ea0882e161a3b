import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { inventories, leadNotifications, leads } from '@/db/schema/market-data';
import { deleted, type TestPartnerWipe, type WipeCounts } from '@/server/lib/wipe';

/** A test partner's leads (with their notifications) and inventory. */
export async function wipeMarketDataTestData(wipe: TestPartnerWipe, tx: DbOrTx): Promise<WipeCounts> {
  const id = wipe.partnerId;
  const ofPartner = tx.select({ id: leads.id }).from(leads).where(eq(leads.partnerId, id));
  return {
    lead_notifications: await deleted(tx.delete(leadNotifications).where(inArray(leadNotifications.leadId, ofPartner))),
    leads: await deleted(tx.delete(leads).where(eq(leads.partnerId, id))),
    inventories: await deleted(tx.delete(inventories).where(eq(inventories.partnerId, id))),
  };
}
