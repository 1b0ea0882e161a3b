import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { orderSellingFlowUrl, orderSellingFlowUrlRoute } from '@/server/modules/marketplace';

export const GET = handle(orderSellingFlowUrlRoute, ({ partner, query }) =>
  orderSellingFlowUrl(partner.partnerId, query, getDb()),
);
