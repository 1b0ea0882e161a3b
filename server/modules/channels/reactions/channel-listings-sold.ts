import type { Work } from '@/server/lib/transaction';
import type { ChannelListingSold } from '@/server/modules/marketplace';
import { recordChannelSales } from '../sales';

/**
 * Channel listings sold (the marketplace's event, in the paying transaction): one channel sale per market
 * listing, PENDING_FULFILMENT, with `channelListing.sold` in the outbox (sales.ts, beside the sale's
 * fulfilment and refunds).
 */
export function recordChannelSalesOfPurchase(work: Work, sold: ChannelListingSold[]): Promise<void> {
  return recordChannelSales(work, sold);
}
