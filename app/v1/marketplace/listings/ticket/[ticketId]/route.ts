import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { listingByTicketRoute, listingOfTicket } from '@/server/modules/marketplace';

export const GET = handle(listingByTicketRoute, ({ partner, params, query }) =>
  listingOfTicket(partner.partnerId, params.ticketId, query.sellerEmail, getDb()),
);
