/**
 * Worked request examples of the ticket operations, anchor-shaped (shared/spec/anchor-notes.md: the
 * ticketAccess, buyer, nominalTicket, primarySaleBuyerData and props.seating inner fields). They follow
 * the event of ../catalog/examples.ts; server/http/examples.test.ts sends them to the real handlers in
 * that order. Answers come from ./response-examples.json.
 */
import { EXAMPLE_EVENT_ID, EXAMPLE_SHOW_ID } from '@/server/modules/catalog';
import responses from './response-examples.json';

function ticket(ticketId: string, seat: string, orderId?: string) {
  return {
    ...(orderId ? { orderId } : {}),
    externalReferenceEventId: EXAMPLE_EVENT_ID,
    showId: EXAMPLE_SHOW_ID,
    ticketId,
    ticketOptionId: 'platea-a',
    priceTypeId: 'general',
    price: 80000,
    buyer: { email: 'ana.garcia@example.com', fullName: 'Ana García', phone: '+5491155550100' },
    ticketAccess: { type: 'URL', locator: `https://tickets.example.com/qr/${ticketId}.png`, status: 'LOCKED' },
    nominalTicket: { fullName: 'Ana García', identification: '30123456' },
    primarySaleBuyerData: {
      firstName: 'Ana',
      lastName: 'García',
      identificationType: 'DNI',
      identificationNumber: '30123456',
      phoneNumber: '+5491155550100',
    },
    props: {
      seating: {
        section: 'Platea A',
        row: '12',
        seat,
        door: '3',
        image: 'https://tickets.example.com/maps/platea-a.png',
      },
    },
    primarySalesFee: { type: 'FIXED', value: 5000 },
    tags: ['channel:box-office'],
  };
}

export const syncTicketsExample = {
  body: [ticket('T-0001', '7'), ticket('T-0002', '8', 'ORD-77001')],
  response: responses.syncTickets,
};

export const createTicketsExample = {
  body: [
    ticket('T-0003', '9', 'ORD-77001'),
    { ...ticket('T-0004', '10'), ticketOptionId: 'campo', price: 55000, buyer: 'luis@example.com' },
  ],
  response: responses.createTickets,
};

export const getBatchExample = {
  params: { batchId: responses.createTickets.batchId },
  note: 'Use the batchId your POST /v1/tickets call answered.',
  response: responses.getTicketBatch,
};

export const updateTicketExample = {
  params: { ticketId: 'T-0001' },
  body: {
    ticketAccess: { type: 'OTHER', locator: 'ENC-7F3K-92QX' },
    buyer: { email: 'maria.lopez@example.com', fullName: 'María López' },
    nominalTicket: { fullName: 'María López', identification: '28999111' },
  },
  response: responses.updateTicket,
};

export const secureUrlExample = { params: { ticketId: 'T-0001' }, response: responses.getSecureTicketUrl };

export const salePublicUrlExample = { query: { ticketId: 'T-0001', lang: 'es' }, response: responses.getSalePublicUrl };

export const admitTicketExample = { params: { ticketId: 'T-0001' }, response: true as const };

export const admitTicketsExample = {
  body: [
    { ticketId: 'T-0002', entryDate: '2027-05-01T21:03:00-03:00' },
    { ticketId: 'T-0003', entryDate: '2027-05-01T21:04:30-03:00' },
  ],
  response: true as const,
};

export const deleteTicketExample = { params: { ticketId: 'T-0004' }, response: responses.deleteTicket };
