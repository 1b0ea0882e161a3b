import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { buyingFlowUrlRoute } from '@/server/modules/marketplace';
import { buyingFlowUrl } from '@/server/modules/fan-pages';

export const GET = handle(buyingFlowUrlRoute, ({ partner, query }) => buyingFlowUrl(partner.partnerId, query, getDb()));
