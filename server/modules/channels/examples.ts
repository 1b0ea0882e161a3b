/**
 * Worked examples of the Channels API. They run in server/http/examples.test.ts against the catalogue the
 * catalogue examples create (event evt-2026-0042, show show-2027-05-01, options campo and platea-a in ARS,
 * PRICE_LIMITS 50–120 % of face value), so they must keep working as written.
 */
import { EXAMPLE_EVENT_ID, EXAMPLE_SHOW_ID } from '@/server/modules/catalog';

const stamp = '2026-11-25T14:02:11.418Z';

const pair = {
  listingId: 'RH-88123',
  eventId: EXAMPLE_EVENT_ID,
  showId: EXAMPLE_SHOW_ID,
  ticketOptionId: 'platea-a',
  priceTypeId: 'general',
  seats: [
    { section: 'Platea A', row: '7', seat: '14' },
    { section: 'Platea A', row: '7', seat: '15' },
  ],
  price: 85000,
  currency: 'ARS',
  soldWhole: true,
};

const pairView = {
  ...pair,
  id: 'chl_9Vd2kQ7mX4pL8sN1bR6t',
  status: 'ACTIVE' as const,
  quantity: 2,
  quantitySold: 0,
  createdAt: stamp,
  updatedAt: stamp,
};

const { listingId: _id, ...pairBody } = pair;

export const upsertChannelListingExample = {
  params: { listingId: pair.listingId },
  body: pairBody,
  response: pairView,
};

export const upsertChannelListingsExample = {
  body: {
    listings: [
      pair,
      {
        listingId: 'RH-88124',
        eventId: EXAMPLE_EVENT_ID,
        showId: EXAMPLE_SHOW_ID,
        ticketOptionId: 'campo',
        quantity: 4,
        price: 58000,
        currency: 'ARS',
      },
    ],
  },
  response: { stored: 2 },
};

export const getChannelListingExample = { params: { listingId: pair.listingId }, response: pairView };

export const listChannelListingsExample = {
  query: { status: 'ACTIVE', eventId: EXAMPLE_EVENT_ID },
  response: { items: [pairView], page: 1, pageSize: 50, total: 1 },
};

export const deleteChannelListingExample = {
  params: { listingId: pair.listingId },
  response: { ...pairView, status: 'CANCELLED' as const },
};

/** One ticket of RH-88124 (four in the field, sold one at a time) bought through the buying flow. */
const sale = {
  saleId: 'chs_2Fh7kQ9mW3xT5vB8nL1p',
  status: 'PENDING_FULFILMENT' as const,
  listingId: 'RH-88124',
  eventId: EXAMPLE_EVENT_ID,
  showId: EXAMPLE_SHOW_ID,
  ticketOptionId: 'campo',
  priceTypeId: null,
  quantity: 1,
  buyerEmail: 'lucia.fernandez@example.com',
  currency: 'ARS',
  price: 58000,
  amount: 58000,
  payout: 55100,
  fulfilBy: '2026-11-26T14:02:11.418Z',
  fulfilmentUrl: 'https://encore.example.com/v1/channels/sales/chs_2Fh7kQ9mW3xT5vB8nL1p/fulfilment',
  ticketIds: [] as string[],
  fulfilledAt: null,
  refundedAt: null,
  createdAt: stamp,
};

/** The sale ids are Encore's: the examples test substitutes the one its purchase made. */
export const listChannelSalesExample = {
  query: { status: 'PENDING_FULFILMENT' },
  response: { items: [sale], page: 1, pageSize: 50, total: 1 },
};

export const getChannelSaleExample = { params: { saleId: sale.saleId }, response: sale };

export const fulfilChannelSaleExample = {
  params: { saleId: sale.saleId },
  body: { ticketIds: ['T-0004'] },
  response: {
    ...sale,
    status: 'FULFILLED' as const,
    ticketIds: ['T-0004'],
    fulfilledAt: '2026-11-25T15:40:02.007Z',
  },
};
