/**
 * Worked examples of the marketplace operations. They follow the event and tickets of the catalogue's
 * and tickets' examples (T-0002 and T-0003, bought by Ana, are listed by her through the selling flow);
 * server/http/examples.test.ts sends them to the real handlers in integration order. Listing ids are
 * Encore's: the test puts the ids its listings got in place of these. Answers: ./response-examples.json.
 */
import { EXAMPLE_EVENT_ID, EXAMPLE_SHOW_ID } from '@/server/modules/catalog';
import responses from './response-examples.json';

export const EXAMPLE_SELLER = 'ana.garcia@example.com';
const EXAMPLE_ORDER_ID = 'ORD-77001';
const listingNote = 'Listing ids are Encore’s (`lst_…`): take them from the listed-tickets endpoint.';

export const buyingFlowUrlExample = {
  query: {
    externalReferenceEventId: EXAMPLE_EVENT_ID,
    showId: EXAMPLE_SHOW_ID,
    returnTo: 'https://tickets.example.com/my-tickets',
    lang: 'es',
  },
  response: responses.getBuyingFlowUrl,
};

export const sellingFlowUrlExample = {
  query: { ticketId: 'T-0002', lang: 'es', returnTo: 'https://tickets.example.com/my-tickets' },
  response: responses.getSellingFlowUrl,
};

export const orderSellingFlowUrlExample = {
  query: { orderId: EXAMPLE_ORDER_ID, lang: 'es', returnTo: 'https://tickets.example.com/my-tickets' },
  response: responses.getOrderSellingFlowUrl,
};

export const listingDetailsUrlExample = {
  query: { ticketId: 'T-0002', sellerEmail: EXAMPLE_SELLER },
  response: responses.getListingDetailsUrl,
};

export const listingByTicketExample = {
  params: { ticketId: 'T-0002' },
  query: { sellerEmail: EXAMPLE_SELLER },
  response: responses.getListingByTicket,
};

export const listedTicketsExample = {
  params: { eventId: EXAMPLE_EVENT_ID },
  query: { showId: EXAMPLE_SHOW_ID },
  response: responses.getListedTickets,
};

export const checkoutUrlExample = {
  body: { listingIds: [responses.getListedTickets[0].listingId] },
  note: listingNote,
  response: responses.getCheckoutUrl,
};

export const buyIntentionExample = {
  body: { items: [responses.getListedTickets[0].listingId], user: 'martin.lopez@example.com' },
  note: listingNote,
  response: responses.createBuyIntention,
};

export const removeListingExample = { params: { ticketId: 'T-0003' }, response: responses.removeListing };
