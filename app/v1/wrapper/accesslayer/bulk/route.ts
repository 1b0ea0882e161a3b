import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { bulkAccessLayer, bulkAccessLayerRoute } from '@/server/modules/access-layer';

export const POST = handle(bulkAccessLayerRoute, ({ partner, query, body }) =>
  bulkAccessLayer(partner.partnerId, partner.partnerName, body, query.lang, getDb()),
);
