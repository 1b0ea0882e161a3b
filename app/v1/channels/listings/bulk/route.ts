import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { upsertChannelListings, upsertChannelListingsRoute, channelOf } from '@/server/modules/channels';

export const POST = handle(upsertChannelListingsRoute, ({ partner, body }) =>
  upsertChannelListings(channelOf(partner), body.listings, getDb()),
);
