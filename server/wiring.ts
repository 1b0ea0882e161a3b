import { onResaleTurnedOff, onShowsCancelled } from '@/server/modules/catalog';
import { recordChannelSalesOfPurchase, refundChannelSalesOfShows } from '@/server/modules/channels';
import { forgetWidgetLayersOfChangedListings } from '@/server/modules/access-layer';
import { forgetOffersOfChangedListings } from '@/server/modules/fan-pages';
import {
  completePurchaseOfPayment,
  endListingsOfTicketsThatChangedHands,
  onChannelListingsSold,
  onListingsChanged,
  refuseUnpayableIntention,
  terminateListingsOfShows,
  terminateListingsOfTickets,
  unlistListingsOfChannel,
  unlistListingsOfShowsWithoutResale,
  unlistListingsOfUnprotectedShows,
} from '@/server/modules/marketplace';
import { onChannelDisabled } from '@/server/modules/partners';
import { onPaymentAttempt, onPaymentSucceeded } from '@/server/modules/payments';
import { onProtectionTurnedOff } from '@/server/modules/protection';
import { invalidateTicketsOfShows, onTicketsChangedHands, onTicketsInvalidated } from '@/server/modules/tickets';

/*
 * The one place modules are wired to each other's domain events: a lower module publishes (its
 * events.ts: the catalogue cancels shows), the modules above it react (their reactions/<event>.ts), and
 * the lower one never imports them, so the import graph has no circle. One line per event, subscribing
 * module and reaction, grouped by event; within an event the reactions run in the order listed, in the
 * publisher's transaction. Every entry point loads this file: the route wrapper (server/http/route.ts),
 * tRPC (server/trpc/router.ts), the job registry (server/jobs/registry.ts), the payment providers'
 * routes (app/api/payments/…) and the test setup. A publisher with no subscriber refuses to go on (see
 * server/lib/domain-event.ts), so a missing load fails loudly. server/wiring.test.ts checks that this
 * list and the reactions/ files name each other.
 */
onShowsCancelled('tickets', invalidateTicketsOfShows);
onShowsCancelled('marketplace', terminateListingsOfShows);
onShowsCancelled('channels', refundChannelSalesOfShows);
onResaleTurnedOff('marketplace', unlistListingsOfShowsWithoutResale);
onTicketsInvalidated('marketplace', terminateListingsOfTickets);
onTicketsChangedHands('marketplace', endListingsOfTicketsThatChangedHands);
onPaymentSucceeded('marketplace', completePurchaseOfPayment);
onPaymentAttempt('marketplace', refuseUnpayableIntention);
onProtectionTurnedOff('marketplace', unlistListingsOfUnprotectedShows);
onChannelDisabled('marketplace', unlistListingsOfChannel);
onChannelListingsSold('channels', recordChannelSalesOfPurchase);
onListingsChanged('fan-pages', forgetOffersOfChangedListings);
onListingsChanged('access-layer', forgetWidgetLayersOfChangedListings);
