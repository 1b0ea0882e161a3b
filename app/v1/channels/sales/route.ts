import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { channelOf, listChannelSales, listChannelSalesRoute } from '@/server/modules/channels';

export const GET = handle(listChannelSalesRoute, ({ partner, query }) =>
  listChannelSales(channelOf(partner), query, getDb()),
);
