import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { listingDetailsUrlRoute } from '@/server/modules/marketplace';
import { listingDetailsUrl } from '@/server/modules/fan-pages';

export const GET = handle(listingDetailsUrlRoute, ({ partner, query }) =>
  listingDetailsUrl(partner.partnerId, query.ticketId, query.sellerEmail, getDb()),
);
