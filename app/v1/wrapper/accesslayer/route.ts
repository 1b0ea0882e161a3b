import { handle } from '@/server/http/route';
import { sellAccessLayer, sellAccessLayerRoute } from '@/server/modules/access-layer';

export const POST = handle(sellAccessLayerRoute, ({ partner, query, body }) =>
  sellAccessLayer(partner.partnerId, body, query.lang),
);
