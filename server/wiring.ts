import { onResaleTurnedOff, onShowsCancelled } from '@/server/modules/catalog';
import { closeSalesOfShows, recordChannelSales } from '@/server/modules/channels';
import {
  completePurchase,
  intentionStillPayable,
  onChannelListingsSold,
  takeChannelListingsOffSale,
  terminateListingsOfShows,
  terminateListingsOfTickets,
  unlistListingsOfShows,
} from '@/server/modules/marketplace';
import { onChannelDisabled } from '@/server/modules/partners';
import { onPaymentAttempt, onPaymentSucceeded } from '@/server/modules/payments';
import { onProtectionTurnedOff } from '@/server/modules/protection';
import { invalidateTicketsOfShows, onTicketsInvalidated } from '@/server/modules/tickets';

/*
 * The one place modules are wired to each other's domain events: a lower module publishes (the
 * catalogue cancels shows), the modules above it subscribe, and the lower one never imports them, so the
 * import graph has no circle. Every entry point loads this file: the route wrapper (server/http/route.ts),
 * tRPC (server/trpc/init.ts), the job registry (server/jobs/registry.ts) and the test setup. A publisher
 * with no subscriber refuses to go on (see notifyShowsCancelled), so a missing load fails loudly.
 */
onShowsCancelled('tickets', (work, showPks) => invalidateTicketsOfShows(work.tx, showPks));
onShowsCancelled('marketplace', terminateListingsOfShows);
onShowsCancelled('channels', closeSalesOfShows);
onTicketsInvalidated('marketplace', terminateListingsOfTickets);
onPaymentSucceeded('marketplace', completePurchase);
onPaymentAttempt('marketplace', intentionStillPayable);
onProtectionTurnedOff('marketplace', unlistListingsOfShows);
onResaleTurnedOff('marketplace', unlistListingsOfShows);
onChannelListingsSold('channels', recordChannelSales);
onChannelDisabled('marketplace', async (tx, channelId) => {
  await takeChannelListingsOffSale(tx, { channelId }, 'UNLISTED');
});
