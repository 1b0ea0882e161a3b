import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { sellingFlowUrl, sellingFlowUrlRoute } from '@/server/modules/marketplace';

export const GET = handle(sellingFlowUrlRoute, ({ partner, query }) =>
  sellingFlowUrl(partner.partnerId, query, getDb()),
);
