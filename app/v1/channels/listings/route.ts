import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { listChannelListings, listChannelListingsRoute, channelOf } from '@/server/modules/channels';

export const GET = handle(listChannelListingsRoute, ({ partner, query }) =>
  listChannelListings(channelOf(partner), query, getDb()),
);
