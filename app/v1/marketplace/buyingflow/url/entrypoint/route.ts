import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { buyingFlowUrl, buyingFlowUrlRoute } from '@/server/modules/marketplace';

export const GET = handle(buyingFlowUrlRoute, ({ partner, query }) => buyingFlowUrl(partner.partnerId, query, getDb()));
