import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { salePublicUrl } from '@/server/modules/fan-pages';
import { salePublicUrlRoute } from '@/server/modules/tickets';

export const GET = handle(salePublicUrlRoute, ({ partner, query }) =>
  salePublicUrl(partner.partnerId, query.ticketId, query.lang, getDb()),
);
