import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { bulkAccessLayer, bulkAccessLayerRoute } from '@/server/modules/access-layer';

// Reads (at most new one-time sign-in tokens in its links): repeatable after a lost answer (Idempotency-Key).
export const POST = handle(
  bulkAccessLayerRoute,
  ({ partner, query, body }) => bulkAccessLayer(partner.partnerId, partner.partnerName, body, query.lang, getDb()),
  { repeatable: true },
);
