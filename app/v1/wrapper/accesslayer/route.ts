import { getDb } from '@/db';
import { widgetPreflight } from '@/server/http/publishable';
import { handle } from '@/server/http/route';
import {
  buyAccessLayer,
  buyAccessLayerRoute,
  sellAccessLayer,
  sharedBuyAccessLayer,
  sellAccessLayerRoute,
} from '@/server/modules/access-layer';

// A publishable key's call (the widget, from every fan's browser) is answered from the answer shared in this
// process for a second (server/modules/access-layer/widget-layer.ts); a secret key's reads live.
export const GET = handle(buyAccessLayerRoute, ({ partner, query }) => {
  const q = { eventId: query.eventId!, showId: query.showId!, lang: query.lang };
  return partner.kind === 'publishable'
    ? sharedBuyAccessLayer(partner.partnerId, partner.partnerName, q, getDb())
    : buyAccessLayer(partner.partnerId, partner.partnerName, q, getDb());
});

// Reads (at most new one-time sign-in tokens in its links): repeatable after a lost answer (Idempotency-Key).
export const POST = handle(
  sellAccessLayerRoute,
  ({ partner, query, body }) => sellAccessLayer(partner.partnerId, body, query.lang, getDb()),
  { repeatable: true },
);

// The browser's preflight before the widget's GET with a publishable key (server/http/publishable.ts).
export const OPTIONS = widgetPreflight(buyAccessLayerRoute.path, ['GET', 'POST']);
