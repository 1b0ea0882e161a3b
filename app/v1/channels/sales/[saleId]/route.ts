import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { channelOf, getChannelSale, getChannelSaleRoute } from '@/server/modules/channels';

export const GET = handle(getChannelSaleRoute, ({ partner, params }) =>
  getChannelSale(channelOf(partner), params.saleId, getDb()),
);
