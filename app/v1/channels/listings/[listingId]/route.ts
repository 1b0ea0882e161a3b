import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import {
  deleteChannelListing,
  deleteChannelListingRoute,
  getChannelListing,
  getChannelListingRoute,
  upsertChannelListing,
  upsertChannelListingRoute,
  channelOf,
} from '@/server/modules/channels';

// Repeatable after a lost answer (Idempotency-Key): PUT stores the listing as sent, DELETE of a deleted listing
// answers it again; a second run makes no second effect.
export const PUT = handle(
  upsertChannelListingRoute,
  ({ partner, params, body }) => upsertChannelListing(channelOf(partner), params.listingId, body, getDb()),
  { repeatable: true },
);
export const GET = handle(getChannelListingRoute, ({ partner, params }) =>
  getChannelListing(channelOf(partner), params.listingId, getDb()),
);
export const DELETE = handle(
  deleteChannelListingRoute,
  ({ partner, params }) => deleteChannelListing(channelOf(partner), params.listingId, getDb()),
  { repeatable: true },
);
