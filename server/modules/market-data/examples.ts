/** Worked examples of the leads API, on the catalogue's example event and show. */
import { EXAMPLE_EVENT_ID, EXAMPLE_SHOW_ID } from '@/server/modules/catalog';
import responses from './response-examples.json';

const where = { externalReferenceEventId: EXAMPLE_EVENT_ID, showId: EXAMPLE_SHOW_ID };

export const leadExample = {
  body: {
    type: 'TICKET_HOLDER',
    ...where,
    buyer: { email: 'ana.garcia@example.com', fullName: 'Ana García' },
    ticketId: 'T-0002',
    price: 85000,
    currency: 'ARS',
    ticketOptionId: 'platea-a',
    purchaseDate: '2026-11-02T18:30:00.000-03:00',
    seating: { section: 'Platea A', row: '12', seat: '8' },
    tags: ['presale'],
  },
  response: true as const,
};

export const bulkLeadsExample = {
  body: [
    { type: 'WISHLIST', ...where, buyer: { email: 'luis@example.com' }, purchaseDate: '2026-11-20T10:00:00Z' },
    {
      type: 'ABANDONED_CART',
      ...where,
      buyer: { phone: '+5491155550123', fullName: 'Marta Díaz' },
      ticketOptionId: 'platea-a',
      price: 85000,
      date: '2026-11-21T22:15:00Z',
    },
    { type: 'VIRTUAL_QUEUE', ...where, buyer: { id: 'cust-88123' }, metadata: { queuePosition: 5120 } },
  ],
  response: true as const,
};

export const putInventoryExample = {
  params: { externalReferenceId: EXAMPLE_EVENT_ID },
  query: { showId: EXAMPLE_SHOW_ID },
  body: { capacity: 12000, releasedTickets: 10500, reservedSpace: 300, soldPercentage: 92.5 },
  response: responses.putInventory,
};

export const putInventoryDetailsExample = {
  params: { externalReferenceId: EXAMPLE_EVENT_ID },
  body: [
    { showId: EXAMPLE_SHOW_ID, ticketOptionId: 'platea-a', inventory: { soldOut: true, soldPercentage: 100 } },
    {
      showId: EXAMPLE_SHOW_ID,
      ticketOptionId: 'platea-a',
      priceTypeId: 'general',
      inventory: { releasedTickets: 400 },
    },
  ],
  response: responses.putInventoryDetails,
};
