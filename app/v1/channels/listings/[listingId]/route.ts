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

export const PUT = handle(upsertChannelListingRoute, ({ partner, params, body }) =>
  upsertChannelListing(channelOf(partner), params.listingId, body, getDb()),
);
export const GET = handle(getChannelListingRoute, ({ partner, params }) =>
  getChannelListing(channelOf(partner), params.listingId, getDb()),
);
export const DELETE = handle(deleteChannelListingRoute, ({ partner, params }) =>
  deleteChannelListing(channelOf(partner), params.listingId, getDb()),
);
