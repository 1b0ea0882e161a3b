import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { channelOf, fulfilChannelSale, fulfilChannelSaleRoute } from '@/server/modules/channels';

// Naming the same tickets again answers the fulfilled sale (its guard, in its transaction): repeatable after a
// lost answer (Idempotency-Key).
export const POST = handle(
  fulfilChannelSaleRoute,
  ({ partner, params, body }) => fulfilChannelSale(channelOf(partner), params.saleId, body, getDb()),
  { repeatable: true },
);
