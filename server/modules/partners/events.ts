import type { Tx } from '@/db';
import { domainEvent } from '@/server/lib/domain-event';

/*
 * The partners module's domain events. The modules above it subscribe by name in server/wiring.ts
 * (their handlers are in server/modules/<module>/reactions/<event>.ts); partners, the lowest module,
 * imports none of them.
 */

type ChannelDisabledListener = (tx: Tx, channelId: string) => Promise<void>;

/**
 * Channel disabled: each time staff set a channel disabled (`setChannelDisabled`), inside that transaction. Its keys
 * answer 403 (at once on this instance) and its listings must leave the market, so it is required.
 */
const channelDisabled = domainEvent<[Tx, string]>('Channel disabled', { required: true });

export function onChannelDisabled(name: string, listener: ChannelDisabledListener): void {
  channelDisabled.subscribe(name, listener);
}

export function notifyChannelDisabled(tx: Tx, channelId: string): Promise<void> {
  return channelDisabled.publish(tx, channelId);
}
