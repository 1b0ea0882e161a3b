import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { removeListingRoute, unlistTicket } from '@/server/modules/marketplace';

export const DELETE = handle(removeListingRoute, ({ partner, params }) =>
  unlistTicket(partner.partnerId, params.ticketId, getDb()),
);
