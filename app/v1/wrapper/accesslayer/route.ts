import { getDb } from '@/db';
import { widgetPreflight } from '@/server/http/publishable';
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

// Reads (at most new one-time sign-in tokens in its links): repeatable after a lost answer (Idempotency-Key).
export const POST = handle(
  sellAccessLayerRoute,
  ({ partner, query, body }) => sellAccessLayer(partner.partnerId, body, query.lang, getDb()),
  { repeatable: true },
);

// The browser's preflight before the widget's GET with a publishable key (server/http/publishable.ts).
export const OPTIONS = widgetPreflight(buyAccessLayerRoute.path, ['GET', 'POST']);
