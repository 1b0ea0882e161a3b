import { and, eq, isNotNull, or } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { banners } from '@/db/schema/access-layer';
import { deleted, type TestPartnerWipe, type WipeCounts } from '@/server/lib/wipe';

/** A test partner's banners of its events and shows (its partner-wide banners, settings, stay). */
export async function wipeAccessLayerTestData(wipe: TestPartnerWipe, tx: DbOrTx): Promise<WipeCounts> {
  const ofCatalogue = or(isNotNull(banners.eventPk), isNotNull(banners.showPk));
  return {
    banners: await deleted(tx.delete(banners).where(and(eq(banners.partnerId, wipe.partnerId), ofCatalogue))),
  };
}
