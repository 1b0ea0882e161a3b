import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { upsertChannelListings, upsertChannelListingsRoute, channelOf } from '@/server/modules/channels';

// Upserts by the channel's listing ids: repeatable after a lost answer (Idempotency-Key).
export const POST = handle(
  upsertChannelListingsRoute,
  ({ partner, body }) => upsertChannelListings(channelOf(partner), body.listings, getDb()),
  { repeatable: true },
);
