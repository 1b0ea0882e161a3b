import type { Tx } from '@/db';
import { takeChannelListingsOffSale } from '../channel-listings';

/**
 * Channel disabled (the partners module's event, in the disabling transaction): the channel's market
 * listings leave the market as UNLISTED, with any buyer's hold cancelled; the channel PUTs its listings
 * to put them back once enabled.
 */
export async function unlistListingsOfChannel(tx: Tx, channelId: string): Promise<void> {
  await takeChannelListingsOffSale(tx, { channelId }, 'UNLISTED');
}
