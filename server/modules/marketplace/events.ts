import { domainEvent } from '@/server/lib/domain-event';
import type { Work } from '@/server/lib/transaction';

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
