import type { Work } from '@/server/lib/transaction';
import { closeSalesOfShows } from '../sales';

/**
 * Shows cancelled (the catalogue's event, in the cancelling transaction; wired after the marketplace,
 * which refunds every paid purchase of those shows in full): the channels' sales of them close as
 * REFUNDED and each channel receives `channelSale.refunded` (sales.ts, beside the other sale changes).
 */
export function refundChannelSalesOfShows(work: Work, showPks: string[]): Promise<void> {
  return closeSalesOfShows(work, showPks);
}
