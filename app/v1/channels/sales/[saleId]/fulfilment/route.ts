import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { channelOf, fulfilChannelSale, fulfilChannelSaleRoute } from '@/server/modules/channels';

export const POST = handle(fulfilChannelSaleRoute, ({ partner, params, body }) =>
  fulfilChannelSale(channelOf(partner), params.saleId, body, getDb()),
);
