import type { DbOrTx } from '@/db';
import { domainEvent } from '@/server/lib/domain-event';
import { errorFields, log } from '@/server/lib/log';
import { afterCommit, type Work } from '@/server/lib/transaction';

/*
 * The marketplace's domain events. The modules above it (channels) subscribe by name in
 * server/wiring.ts (their handlers are in server/modules/<module>/reactions/<event>.ts); the
 * marketplace never imports them.
 */

/** One market listing of a channel bought: what the channels module needs to record the sale. */
export interface ChannelListingSold {
  listingId: string;
  channelListingId: string;
  intentionId: string;
  paymentId: string;
  buyerEmail: string;
  quantity: number;
  currency: string;
  priceMinor: number;
  /** What the buyer paid for this listing: its price and the buyer fee, every ticket. */
  paidMinor: number;
  payoutMinor: number;
  showStartsAt: Date;
  /** The seats the channel gave this market listing, if any. */
  seats: { ticketId?: string; seating: Record<string, unknown> }[] | null;
}

/**
 * Channel listings sold: a completed purchase (`completePurchase`) included market listings of a
 * channel, in the paying transaction, after their payouts are scheduled; not fired for a purchase of
 * fans' listings only. Required: a channel's sale must never go unrecorded.
 */
const channelListingsSold = domainEvent<[Work, ChannelListingSold[]]>('Channel listings sold', { required: true });

export function onChannelListingsSold(
  name: string,
  listener: (work: Work, sold: ChannelListingSold[]) => Promise<void>,
) {
  channelListingsSold.subscribe(name, listener);
}

export function notifyChannelListingsSold(work: Work, sold: ChannelListingSold[]): Promise<void> {
  return sold.length ? channelListingsSold.publish(work, sold) : Promise.resolve();
}

/**
 * Listings changed: put on sale, held, a hold released, sold, repriced, ended, or the fees shown with them.
 * Published after the commit of the write (`afterCommit`), never inside its transaction, so a reader that
 * caches listings (the fan pages' offers) forgets them once the change is visible, and a rollback tells
 * nobody. Optional: with no subscriber there is nothing to forget.
 */
const listingsChanged = domainEvent<[]>('Listings changed', { required: false });

export function onListingsChanged(name: string, listener: () => Promise<void>) {
  listingsChanged.subscribe(name, listener);
}

/** Announces a listing change once what `executor` wrote is committed (at once outside a transaction). */
export function listingsChangedAfterCommit(executor: DbOrTx | Work): void {
  afterCommit(executor, () => {
    void listingsChanged
      .publish()
      .catch((err: unknown) => log.warn('a listings-changed listener failed', errorFields(err)));
  });
}
