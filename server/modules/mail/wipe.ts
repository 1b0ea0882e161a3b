import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { mails } from '@/db/schema/mail';
import { deleted, type TestPartnerWipe, type WipeCounts } from '@/server/lib/wipe';

/** The mails written for a test partner's fans. */
export async function wipeMailTestData(wipe: TestPartnerWipe, tx: DbOrTx): Promise<WipeCounts> {
  return { mails: await deleted(tx.delete(mails).where(eq(mails.partnerId, wipe.partnerId))) };
}
