import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { sellingFlowUrlRoute } from '@/server/modules/marketplace';
import { sellingFlowUrl } from '@/server/modules/fan-pages';

export const GET = handle(sellingFlowUrlRoute, ({ partner, query }) =>
  sellingFlowUrl(partner.partnerId, query, getDb()),
);
