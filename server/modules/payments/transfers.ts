import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { transfers } from '@/db/schema/payments';
import { AppError, conflict } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { errorFields, log } from '@/server/lib/log';
import { providerFor } from './providers';
import { transferInput, type TransferInput } from './schemas';
import { getPayment } from './payments';
import { getPayoutAccount } from './payout-accounts';

export type Transfer = typeof transfers.$inferSelect;

/**
 * Pays a seller out, idempotently by the caller's key: the same key answers the same transfer (a paid
 * one at once; a pending or failed one is tried again, the provider deduping on our transfer id), the
 * same key with another amount, currency or seller is a conflict. A seller without an active payout
 * account is "pending payout info": nothing is recorded and a conflict is thrown. The provider may send
 * less than the amount (Stripe rounds down to what it pays out): what it sent is recorded as `sentMinor`.
 */
export async function transferPayout(
  partnerId: string,
  input: TransferInput,
  // The handle, not a transaction: the record commits before the provider is called, its outcome after.
  db: Db,
): Promise<Transfer> {
  const data = transferInput.parse(input);
  const account = await getPayoutAccount(partnerId, data.sellerEmail, db);
  if (!account || account.status !== 'active') {
    throw new AppError('CONFLICT', 'The seller is pending payout info: their payout account is not set up yet');
  }
  if (data.paymentId) await getPayment(partnerId, data.paymentId, db);
  await db
    .insert(transfers)
    .values({
      id: newId('trf'),
      partnerId,
      sellerAccountId: account.id,
      amountMinor: data.amountMinor,
      currency: data.currency,
      idempotencyKey: data.idempotencyKey,
      paymentId: data.paymentId ?? null,
    })
    .onConflictDoNothing();
  const [transfer] = await db
    .select()
    .from(transfers)
    .where(and(eq(transfers.partnerId, partnerId), eq(transfers.idempotencyKey, data.idempotencyKey)));
  if (
    transfer.sellerAccountId !== account.id ||
    transfer.amountMinor !== data.amountMinor ||
    transfer.currency !== data.currency
  ) {
    throw conflict('This idempotency key was used for another transfer (seller, amount or currency differ)');
  }
  if (transfer.status === 'paid') return transfer;
  let sent: { providerRef: string | null; sentMinor: number };
  try {
    sent = await providerFor(account.provider).transfer({
      transferId: transfer.id,
      accountRef: account.accountRef,
      amountMinor: transfer.amountMinor,
      currency: transfer.currency,
      idempotencyKey: `encore-transfer-${transfer.id}`,
      transferGroup: transfer.paymentId,
    });
  } catch (err) {
    log.warn('a payout transfer failed', { transferId: transfer.id, ...errorFields(err) });
    await db
      .update(transfers)
      .set({ status: 'failed', failureReason: (err as Error).message, updatedAt: sql`now()` })
      .where(and(eq(transfers.id, transfer.id), ne(transfers.status, 'paid')));
    throw err;
  }
  const [paid] = await db
    .update(transfers)
    .set({
      status: 'paid',
      providerRef: sent.providerRef,
      sentMinor: sent.sentMinor,
      failureReason: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(transfers.id, transfer.id), ne(transfers.status, 'paid')))
    .returning();
  if (paid) return paid;
  // A concurrent call with the same key recorded it first: answer its record.
  const [row] = await db.select().from(transfers).where(eq(transfers.id, transfer.id));
  return row;
}
