import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { payments, refunds, sellerAccounts, transfers } from '@/db/schema/payments';
import { deleted, type TestPartnerWipe, type WipeCounts } from '@/server/lib/wipe';

/** A test partner's (sandbox) payments, refunds, transfers and sellers' payout accounts. */
export async function wipePaymentsTestData(wipe: TestPartnerWipe, tx: DbOrTx): Promise<WipeCounts> {
  const id = wipe.partnerId;
  return {
    refunds: await deleted(tx.delete(refunds).where(eq(refunds.partnerId, id))),
    transfers: await deleted(tx.delete(transfers).where(eq(transfers.partnerId, id))),
    payments: await deleted(tx.delete(payments).where(eq(payments.partnerId, id))),
    seller_accounts: await deleted(tx.delete(sellerAccounts).where(eq(sellerAccounts.partnerId, id))),
  };
}
