import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { listingDetailsUrl, listingDetailsUrlRoute } from '@/server/modules/marketplace';

export const GET = handle(listingDetailsUrlRoute, ({ partner, query }) =>
  listingDetailsUrl(partner.partnerId, query.ticketId, query.sellerEmail, getDb()),
);
