import { defineRoute } from '@/server/lib/contract';
import {
  fulfilChannelSaleExample,
  getChannelSaleExample,
  listChannelSalesExample,
  deleteChannelListingExample,
  getChannelListingExample,
  listChannelListingsExample,
  upsertChannelListingExample,
  upsertChannelListingsExample,
} from './examples';
import {
  bulkResult,
  channelListingBody,
  channelListingParams,
  channelListingResponse,
  channelListingsBulkBody,
  channelListingsPage,
  channelListingsQuery,
  channelsMeRoute,
  channelSaleParams,
  channelSaleResponse,
  channelSalesPage,
  channelSalesQuery,
  fulfilmentBody,
} from './schemas';

const TAG = 'Channels';

const rulesNote =
  'A listing names the partner’s event (externalReferenceId), show, ticket option and optionally price type, ' +
  'a `quantity` or the `seats` one by one, a price per ticket in the option’s currency, and `soldWhole`. The ' +
  'same rules apply as to fans’ listings: the show is LIVE with resale enabled and ticket protection on, the ' +
  'listing window is open, the price is within the floor and cap of PRICE_LIMITS (percent of the face value: ' +
  'the option’s price, or the declared combination’s), and a listing sold whole has at most ' +
  'MAX_TICKETS_PER_LISTING tickets. A seat naming a partner ticketId must be a valid ticket not used to enter ' +
  'and, where the partner does not reissue after a resale, one whose code its holder has not been shown ' +
  '(`CODE_REVEALED`). A refused listing names the rule (`PRICE_LIMITS`-style codes such as ' +
  '`ABOVE_CAP`, `WINDOW_CLOSED`, `PROTECTION_OFF`, `CODE_REVEALED` in `details`).';

export const upsertChannelListingRoute = defineRoute({
  method: 'PUT',
  path: '/v1/channels/listings/{listingId}',
  operationId: 'upsertChannelListing',
  tag: TAG,
  summary: 'Create or replace a listing (by your id)',
  description:
    `${rulesNote} Sending it again replaces it (idempotent); a deleted listing goes on sale again. A listing a ` +
    'buyer is paying for, or sold, cannot change (409). 404 `Event not found`, `Show not found`, ' +
    '`Ticket option not found`, `Price type not found` for ids the partner never pushed.',
  auth: 'channels',
  params: channelListingParams,
  body: channelListingBody,
  response: channelListingResponse,
  errorStatuses: [404, 409],
  examples: upsertChannelListingExample,
});

export const upsertChannelListingsRoute = defineRoute({
  method: 'POST',
  path: '/v1/channels/listings/bulk',
  operationId: 'upsertChannelListings',
  tag: TAG,
  summary: 'Create or replace up to 1,000 listings',
  description:
    `Each item is a listing with its \`listingId\`, judged on its own. ${rulesNote} All stored: 200 ` +
    '`{ stored }`. Some refused: the others are stored all the same and the answer is 400 whose message counts ' +
    'both, with one `details` entry per problem naming the item by index (`[3].price`); send again only those. ' +
    'The same `listingId` twice in one request keeps the later one. The 1,001st item makes the whole request 400.',
  auth: 'channels',
  body: channelListingsBulkBody,
  response: bulkResult,
  examples: upsertChannelListingsExample,
  maxBodyBytes: 4 * 1024 * 1024,
});

export const getChannelListingRoute = defineRoute({
  method: 'GET',
  path: '/v1/channels/listings/{listingId}',
  operationId: 'getChannelListing',
  tag: TAG,
  summary: 'One of your listings',
  description: 'Only the calling channel’s listings are visible; any other id answers 404 `Listing not found`.',
  auth: 'channels',
  params: channelListingParams,
  response: channelListingResponse,
  errorStatuses: [404],
  examples: getChannelListingExample,
});

export const listChannelListingsRoute = defineRoute({
  method: 'GET',
  path: '/v1/channels/listings',
  operationId: 'listChannelListings',
  tag: TAG,
  summary: 'Your listings, newest first, a page at a time',
  description: 'Filter by `status` and by event (`eventId`, the externalReferenceId). `pageSize` up to 200.',
  auth: 'channels',
  query: channelListingsQuery,
  response: channelListingsPage,
  examples: listChannelListingsExample,
});

export const deleteChannelListingRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/channels/listings/{listingId}',
  operationId: 'deleteChannelListing',
  tag: TAG,
  summary: 'Take a listing off the market',
  description:
    'The listing becomes CANCELLED (deleting it again answers the same); a later PUT puts it on sale again. ' +
    'One a buyer is paying for, or sold, answers 409.',
  auth: 'channels',
  params: channelListingParams,
  response: channelListingResponse,
  errorStatuses: [404, 409],
  examples: deleteChannelListingExample,
});

const salesNote =
  'When a buyer buys (part of) a listing, the channel receives the signed webhook `channelListing.sold` (a ' +
  '`ChannelSale`: listing, quantity, seats, buyer e-mail, amounts, `fulfilBy`, `fulfilmentUrl`) through the ' +
  'channel’s webhook URL, with the delivery rules and log of partner webhooks. The channel then names the ' +
  'partner’s tickets it hands over; unfulfilled by `fulfilBy` (CHANNEL_FULFILMENT_HOURS, never past the ' +
  'show’s start), the buyer is refunded that part, the sale becomes REFUNDED and the channel receives ' +
  '`channelSale.refunded`.';

export const listChannelSalesRoute = defineRoute({
  method: 'GET',
  path: '/v1/channels/sales',
  operationId: 'listChannelSales',
  tag: TAG,
  summary: 'Your sales, newest first, a page at a time',
  description: `${salesNote} Filter by \`status\`; \`pageSize\` up to 200.`,
  auth: 'channels',
  query: channelSalesQuery,
  response: channelSalesPage,
  examples: listChannelSalesExample,
});

export const getChannelSaleRoute = defineRoute({
  method: 'GET',
  path: '/v1/channels/sales/{saleId}',
  operationId: 'getChannelSale',
  tag: TAG,
  summary: 'One of your sales',
  description: 'Only the calling channel’s sales are visible; any other id answers 404 `Sale not found`.',
  auth: 'channels',
  params: channelSaleParams,
  response: channelSaleResponse,
  errorStatuses: [404],
  examples: getChannelSaleExample,
});

export const fulfilChannelSaleRoute = defineRoute({
  method: 'POST',
  path: '/v1/channels/sales/{saleId}/fulfilment',
  operationId: 'fulfilChannelSale',
  tag: TAG,
  summary: 'Hand the sold tickets to the buyer',
  description:
    'Name exactly `quantity` of the partner’s tickets (its ticketIds) of the listing’s show, ticket option and ' +
    'price type, valid, not used to enter, not on sale in the market, with a code its holder has not been shown ' +
    'yet where the partner does not reissue after a resale (two people would hold one code), and the ones the listing named if it ' +
    'named them. They become the buyer’s at once (fresh secure links mailed to the buyer; the partner receives ' +
    '`ticket.updated` for each) and the sale is FULFILLED. Sending the same tickets again answers the sale; ' +
    'other tickets, or a sale already REFUNDED, answer 409; unknown tickets 404.',
  auth: 'channels',
  params: channelSaleParams,
  body: fulfilmentBody,
  response: channelSaleResponse,
  errorStatuses: [404, 409],
  examples: fulfilChannelSaleExample,
});

export const channelsRoutes = [
  channelsMeRoute,
  upsertChannelListingRoute,
  upsertChannelListingsRoute,
  getChannelListingRoute,
  listChannelListingsRoute,
  deleteChannelListingRoute,
  listChannelSalesRoute,
  getChannelSaleRoute,
  fulfilChannelSaleRoute,
];
