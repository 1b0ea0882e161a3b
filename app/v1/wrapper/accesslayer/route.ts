import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import {
  buyAccessLayer,
  buyAccessLayerRoute,
  sellAccessLayer,
  sellAccessLayerRoute,
} from '@/server/modules/access-layer';

export const GET = handle(buyAccessLayerRoute, ({ partner, query }) =>
  buyAccessLayer(
    partner.partnerId,
    partner.partnerName,
    {
      eventId: query.eventId!,
      showId: query.showId!,
      lang: query.lang,
    },
    getDb(),
  ),
);

export const POST = handle(sellAccessLayerRoute, ({ partner, query, body }) =>
  sellAccessLayer(partner.partnerId, body, query.lang, getDb()),
);
