import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { fanSessions, oneTimeTokens } from '@/db/schema/fans';
import { deleted, type TestPartnerWipe, type WipeCounts } from '@/server/lib/wipe';

/** A test partner's fans' one-time tokens and sessions (their pages sign them out). */
export async function wipeFansTestData(wipe: TestPartnerWipe, tx: DbOrTx): Promise<WipeCounts> {
  const id = wipe.partnerId;
  return {
    one_time_tokens: await deleted(tx.delete(oneTimeTokens).where(eq(oneTimeTokens.partnerId, id))),
    fan_sessions: await deleted(tx.delete(fanSessions).where(eq(fanSessions.partnerId, id))),
  };
}
