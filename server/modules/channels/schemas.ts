import { defineRoute } from '@/server/lib/contract';
import { channelsMeResponse } from '@/server/modules/partners/schemas';

/**
 * The Channels API (an external platform pushes its resale listings) is opened by `sk_ch_` keys only.
 * Its listing paths are not shown in the spec; this endpoint lets a channel check its key.
 */
export const channelsMeRoute = defineRoute({
  method: 'GET',
  path: '/v1/channels/me',
  operationId: 'getChannelsMe',
  tag: 'Channels',
  summary: 'The partner a channels key belongs to',
  auth: 'channels',
  response: channelsMeResponse,
  examples: {
    response: {
      partnerId: 'ptr_7Qm2kX9aB4cD5eF6gH7i',
      name: 'Andes Tickets',
      keyPrefix: 'sk_ch_Xy7zQw',
      keyKind: 'channels',
    },
  },
});
