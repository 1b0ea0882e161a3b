/**
 * Every partner-API operation in the spec's integration order (events → rules → tickets → the market), so
 * each worked example finds what the earlier ones made. server/http/examples.test.ts sends the examples
 * in this order to the route handlers, e2e/openapi-conformance.spec.ts through Prism to the built server;
 * both check it names every operation.
 */
export const EXAMPLE_ORDER = [
  'getMe',
  'getChannelsMe',
  'getOpenApiDocument',
  'createEvent',
  'updateEvent',
  'applyRules',
  'syncTickets',
  'createTickets',
  'getTicketBatch',
  'updateTicket',
  'getSecureTicketUrl',
  'getSalePublicUrl',
  // The fan lists T-0002 and T-0003 through the selling flow here (the tests do it themselves).
  'getBuyingFlowUrl',
  'getSellingFlowUrl',
  'getOrderSellingFlowUrl',
  'getListingDetailsUrl',
  'getListingByTicket',
  'getListedTickets',
  'upsertChannelListing',
  'upsertChannelListings',
  'getChannelListing',
  'listChannelListings',
  'deleteChannelListing',
  'sellAccessLayer',
  // Ana's tickets as <encore-sell> shows them, from a token minted for her here (the tests do it themselves).
  'getResaleEntry',
  'saveLead',
  'saveUserLead',
  'saveLeads',
  'saveUserLeads',
  'putInventory',
  'putInventoryDetails',
  'buyAccessLayer',
  'bulkAccessLayer',
  'getCheckoutUrl',
  'createBuyIntention',
  // A fan buys one ticket of the channel's RH-88124 here (the tests do it themselves).
  'listChannelSales',
  'getChannelSale',
  'fulfilChannelSale',
  'removeListing',
  'admitTicket',
  'admitTickets',
  'deleteTicket',
  'cancelEvent',
  'getOneTimeToken',
] as const;

export type ExampleOperation = (typeof EXAMPLE_ORDER)[number];
