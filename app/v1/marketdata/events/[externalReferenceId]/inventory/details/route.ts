import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { putInventoryDetails, putInventoryDetailsRoute } from '@/server/modules/market-data';

// Upserts the figures as sent: repeatable after a lost answer (Idempotency-Key).
export const PUT = handle(
  putInventoryDetailsRoute,
  ({ partner, params, body }) => putInventoryDetails(partner.partnerId, params.externalReferenceId, body, getDb()),
  { repeatable: true },
);
