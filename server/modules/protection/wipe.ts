import { and, eq, isNotNull, or } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { protectionSettings } from '@/db/schema/protection';
import { deleted, type TestPartnerWipe, type WipeCounts } from '@/server/lib/wipe';

/** A test partner's protection settings of its events and shows (its partner defaults, settings, stay). */
export async function wipeProtectionTestData(wipe: TestPartnerWipe, tx: DbOrTx): Promise<WipeCounts> {
  const t = protectionSettings;
  const ofCatalogue = or(isNotNull(t.eventPk), isNotNull(t.showPk));
  return {
    protection_settings: await deleted(tx.delete(t).where(and(eq(t.partnerId, wipe.partnerId), ofCatalogue))),
  };
}
