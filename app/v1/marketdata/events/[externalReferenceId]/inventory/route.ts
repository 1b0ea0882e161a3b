import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { putInventory, putInventoryRoute } from '@/server/modules/market-data';

// Upserts the figures as sent: repeatable after a lost answer (Idempotency-Key).
export const PUT = handle(
  putInventoryRoute,
  ({ partner, params, query, body }) =>
    putInventory(partner.partnerId, params.externalReferenceId, query.showId, body, getDb()),
  { repeatable: true },
);
