import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { putInventoryDetails, putInventoryDetailsRoute } from '@/server/modules/market-data';

export const PUT = handle(putInventoryDetailsRoute, ({ partner, params, body }) =>
  putInventoryDetails(partner.partnerId, params.externalReferenceId, body, getDb()),
);
