import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { listedTickets, listedTicketsRoute } from '@/server/modules/marketplace';

export const GET = handle(listedTicketsRoute, ({ partner, params, query }) =>
  listedTickets(partner.partnerId, params.eventId, query.showId, getDb()),
);
