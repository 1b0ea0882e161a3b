import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { webhookAttempts, webhookDue, webhookMessages } from '@/db/schema/webhooks';
import { deleted, type TestPartnerWipe, type WipeCounts } from '@/server/lib/wipe';

/** A test partner's webhook messages, their queue rows and attempts (its endpoint, a setting, stays). */
export async function wipeWebhooksTestData(wipe: TestPartnerWipe, tx: DbOrTx): Promise<WipeCounts> {
  const id = wipe.partnerId;
  return {
    webhook_attempts: await deleted(tx.delete(webhookAttempts).where(eq(webhookAttempts.partnerId, id))),
    webhook_due: await deleted(tx.delete(webhookDue).where(eq(webhookDue.partnerId, id))),
    webhook_messages: await deleted(tx.delete(webhookMessages).where(eq(webhookMessages.partnerId, id))),
  };
}
