import { z } from 'zod';
import { defineRoute } from '@/server/lib/contract';
import {
  buyingFlowUrlExample,
  buyIntentionExample,
  checkoutUrlExample,
  listedTicketsExample,
  listingByTicketExample,
  listingDetailsUrlExample,
  orderSellingFlowUrlExample,
  removeListingExample,
  sellingFlowUrlExample,
} from './examples';
import {
  buyingFlowQuery,
  buyIntentionRequest,
  buyIntentionResponse,
  checkoutUrlRequest,
  listedTicketResponse,
  listedTicketsParams,
  listedTicketsQuery,
  listingByTicketQuery,
  listingDetailsQuery,
  listingResponse,
  orderSellingFlowQuery,
  sellingFlowQuery,
  ticketParams,
} from './schemas';

const TAG = 'Marketplace';
const BUYING = 'Build your own buying flow';

export const buyingFlowUrlRoute = defineRoute({
  method: 'GET',
  path: '/v1/marketplace/buyingflow/url/entrypoint',
  operationId: 'getBuyingFlowUrl',
  tag: TAG,
  summary: "The resale market entry URL of a show (Encore's buying flow)",
  description:
    'Answers the absolute URL as `data`. `returnTo` (or its synonym `returnURL`) is where the back button and the ' +
    "end of the flow lead. Once Encore staff have set the partner's allowed return origins, a `returnTo` on " +
    'another origin is a 400 naming the field (no Encore link can lead a fan back to a site of anyone’s choosing), ' +
    'and only those origins may frame the buy, resale entry and sell pages; while none are set, any absolute ' +
    'http(s) URL is accepted and no site may frame them. With `loginTrust[withMethod]=email&loginTrust[user]=<email>` the URL carries a one-time ' +
    'token that signs that user in. 404 `Event not found` / `Show not found` for ids the partner never pushed.',
  auth: 'partner',
  query: buyingFlowQuery,
  response: z.url(),
  errorStatuses: [404],
  examples: buyingFlowUrlExample,
});

/** Sync on demand (spec: "ticket ownership is synchronised on demand, only when a user wants to sell"). */
const syncOnDemand = (what: 'ticket' | 'order', missing: string) =>
  `For a${what === 'order' ? 'n' : ''} ${what} Encore was never sent: with a verification endpoint set (integration settings), ` +
  `200 with the partner's resale entry URL carrying \`sync=1\` and the ${what}'s id. That page asks the verification ` +
  "endpoint (`GET /tickets?user=`) for the signed-in fan's tickets, stores the ones of this " +
  `${what} the partner lists for that fan (the fan as buyer; a stored ticket is never overwritten) and goes on to the ` +
  'sell form, or tells the fan the partner does not list it for them. Nothing is asked of the partner when the URL is ' +
  `made. Without a verification endpoint, 404 \`${missing}\`.`;

export const sellingFlowUrlRoute = defineRoute({
  method: 'GET',
  path: '/v1/marketplace/sellingflow/url/entrypoint',
  operationId: 'getSellingFlowUrl',
  tag: TAG,
  summary: 'The URL that starts listing a ticket (price, conditions, verification)',
  description:
    'Answers the absolute URL as `data`. ' +
    'An optional `returnTo` (or its synonym `returnURL`) is shown as a "Back to <partner>" link on every selling step ' +
    "(the sell page, the page after listing and the listing's own page); checked like the buying flow's: on another " +
    "origin than the partner's allowed return origins it is a 400 naming the field. " +
    syncOnDemand('ticket', 'Ticket not found'),
  auth: 'partner',
  query: sellingFlowQuery,
  response: z.url(),
  errorStatuses: [404],
  examples: sellingFlowUrlExample,
});

export const orderSellingFlowUrlRoute = defineRoute({
  method: 'GET',
  path: '/v1/marketplace/sellingflow/url/order/entrypoint',
  operationId: 'getOrderSellingFlowUrl',
  tag: TAG,
  summary: "The URL that starts a bulk sale of an order's tickets",
  description:
    'An order is the tickets sent with the same `orderId` (or tag `order:<id>`; in the verification answer, the tag). ' +
    "An optional `returnTo` (or `returnURL`) rides along every selling step as a back link, checked like the buying flow's (400 naming the field). " +
    syncOnDemand('order', 'Order not found'),
  auth: 'partner',
  query: orderSellingFlowQuery,
  response: z.url(),
  errorStatuses: [404],
  examples: orderSellingFlowUrlExample,
});

export const listingDetailsUrlRoute = defineRoute({
  method: 'GET',
  path: '/v1/marketplace/sellingflow/details/url',
  operationId: 'getListingDetailsUrl',
  tag: TAG,
  summary: "The URL to view or manage a ticket's listing",
  auth: 'partner',
  query: listingDetailsQuery,
  response: z.url(),
  errorStatuses: [404],
  examples: listingDetailsUrlExample,
});

export const checkoutUrlRoute = defineRoute({
  method: 'POST',
  path: '/v1/marketplace/checkout/url',
  operationId: 'getCheckoutUrl',
  tag: TAG,
  summary: 'A checkout URL for listings',
  description:
    'The listings must be on sale and of one event, one show and one ticket option (a PACK is always bought whole). ' +
    'Nothing is held by this call: the hold starts when the buyer starts paying on the page.',
  auth: 'partner',
  body: checkoutUrlRequest,
  response: z.url(),
  errorStatuses: [404, 409],
  examples: checkoutUrlExample,
});

export const removeListingRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/marketplace/items/ticket/{ticketId}',
  operationId: 'removeListing',
  tag: TAG,
  summary: "Take a ticket's listing off sale",
  description:
    'The listing becomes UNLISTED; the owner may use the ticket or list it again. A listing held by a buyer who is ' +
    'paying (an active buy intention) cannot be removed: 409 until the hold ends.',
  auth: 'partner',
  params: ticketParams,
  response: listingResponse,
  errorStatuses: [404, 409],
  examples: removeListingExample,
});

export const listingByTicketRoute = defineRoute({
  method: 'GET',
  path: '/v1/marketplace/listings/ticket/{ticketId}',
  operationId: 'getListingByTicket',
  tag: TAG,
  summary: "A ticket's listing: price, status, seller payout",
  description: "The ticket's open listing, else its latest one. 404 when the ticket was never listed.",
  auth: 'partner',
  params: ticketParams,
  query: listingByTicketQuery,
  response: listingResponse,
  errorStatuses: [404],
  examples: listingByTicketExample,
});

export const listedTicketsRoute = defineRoute({
  method: 'GET',
  path: '/v1/marketplace/items/events/{eventId}/listedTickets',
  operationId: 'getListedTickets',
  tag: BUYING,
  summary: 'Every ticket listed for an event, cheapest first',
  description:
    "`eventId` is the event's externalReferenceId. Per listing: price, the buyer's fee and total shown up front, " +
    'seats from the tickets’ `props.seating`, option and price type.',
  auth: 'partner',
  params: listedTicketsParams,
  query: listedTicketsQuery,
  response: z.array(listedTicketResponse),
  errorStatuses: [404],
  examples: listedTicketsExample,
});

export const buyIntentionRoute = defineRoute({
  method: 'POST',
  path: '/v1/marketplace/buyingflow/buyIntention',
  operationId: 'createBuyIntention',
  tag: BUYING,
  summary: 'Hold listings for a buyer and get the payment URL',
  description:
    'Holds the listings for BUY_INTENTION_MINUTES (10 by default) while the buyer pays; exactly one buyer can hold a ' +
    'listing (others get 409). Listings of one event, one show and one ticket option. 502 when the payment ' +
    'provider failed to open the payment (nothing is held then).',
  auth: 'partner',
  body: buyIntentionRequest,
  response: buyIntentionResponse,
  errorStatuses: [404, 409, 502],
  examples: buyIntentionExample,
});

export const marketplaceRoutes = [
  buyingFlowUrlRoute,
  sellingFlowUrlRoute,
  orderSellingFlowUrlRoute,
  listingDetailsUrlRoute,
  checkoutUrlRoute,
  removeListingRoute,
  listingByTicketRoute,
  listedTicketsRoute,
  buyIntentionRoute,
];
