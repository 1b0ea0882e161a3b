import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { orderSellingFlowUrlRoute } from '@/server/modules/marketplace';
import { orderSellingFlowUrl } from '@/server/modules/fan-pages';

export const GET = handle(orderSellingFlowUrlRoute, ({ partner, query }) =>
  orderSellingFlowUrl(partner.partnerId, query, getDb()),
);
