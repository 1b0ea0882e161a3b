import { and, eq, inArray } from 'drizzle-orm';
import { buyIntentions, listings, payouts } from '@/db/schema/marketplace';
import type { Work } from '@/server/lib/transaction';
import { stopCheckout } from '@/server/modules/payments';
import { BUY_INTENTION_PURPOSE, cancelListings, REFUND_PURCHASE_JOB } from '../intentions';
import { mailListingsCancelled } from '../mails';
import { recordPurchaseRefund } from '../refunds';

/**
 * Shows cancelled (the catalogue's event, in the cancelling transaction): the shows' open
 * listings end with the holds on them (a hosted checkout still open for one is stopped at the provider);
 * tickets already sold there are refunded to their buyers once (recordPurchaseRefund: recorded, payouts
 * cancelled, buyer, sellers and partner told; the money by a job per payment after the commit, the
 * provider being called outside the transaction).
 */
export async function terminateListingsOfShows(work: Work, showPks: string[]): Promise<void> {
  const { tx, after } = work;
  const open = await tx
    .select({
      id: listings.id,
      partnerId: listings.partnerId,
      reservedBy: listings.reservedBy,
      status: listings.status,
    })
    .from(listings)
    .where(and(inArray(listings.showPk, showPks), inArray(listings.status, ['ACTIVE', 'RESERVED'])));
  await cancelListings(
    tx,
    open.map((l) => l.id),
  );
  // The buyers holding them must not be charged: a provider's checkout still open is stopped after the
  // commit (our own checkout asks before it charges: intentionStillPayable).
  for (const l of open) {
    if (l.status === 'RESERVED' && l.reservedBy) {
      await stopCheckout(work, l.partnerId, BUY_INTENTION_PURPOSE, l.reservedBy);
    }
  }
  await mailListingsCancelled(
    work,
    open.map((l) => l.id),
    'showCancelled',
  );
  const sold = await tx
    .select({ id: listings.id, intentionId: listings.reservedBy })
    .from(listings)
    .where(and(inArray(listings.showPk, showPks), eq(listings.status, 'SOLD')));
  const intentionIds = [...new Set(sold.map((l) => l.intentionId).filter((id): id is string => !!id))];
  const paid = intentionIds.length
    ? await tx
        .select({ id: buyIntentions.id, partnerId: buyIntentions.partnerId, paymentId: buyIntentions.paymentId })
        .from(buyIntentions)
        .where(and(inArray(buyIntentions.id, intentionIds), eq(buyIntentions.status, 'COMPLETED')))
        .orderBy(buyIntentions.id)
    : [];
  for (const p of paid) {
    if (!p.paymentId) continue;
    // Once per purchase: a purchase staff refunded already (or a cancellation that came first) is left alone.
    const recorded = await recordPurchaseRefund(work, p.partnerId, p.id, {
      reason: 'SHOW_CANCELLED',
      text: 'The show was cancelled',
    });
    if (!recorded) continue;
    after.job(REFUND_PURCHASE_JOB, {
      partnerId: p.partnerId,
      paymentId: p.paymentId,
      reason: 'The show was cancelled',
      // Its own id: a job run again (after a crash between the provider's answer and our record) finds
      // this refund instead of asking for another.
      refundId: `rfd_${p.id}_cancelled`,
    });
  }
  // A sold listing whose purchase is not (or no longer) COMPLETED keeps no payout due either.
  if (sold.length) {
    await tx
      .update(payouts)
      .set({ status: 'CANCELLED' })
      .where(
        and(
          inArray(
            payouts.listingId,
            sold.map((l) => l.id),
          ),
          eq(payouts.status, 'SCHEDULED'),
        ),
      );
  }
}
