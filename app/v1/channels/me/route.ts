import { handle } from '@/server/http/route';
import { channelsMeRoute } from '@/server/modules/channels';

export const GET = handle(channelsMeRoute, async ({ partner }) => ({
  partnerId: partner.partnerId,
  name: partner.partnerName,
  keyPrefix: partner.keyPrefix,
  // A publishable key is refused before any handler but the buy access layer's: only secret kinds get here.
  keyKind: partner.kind as Exclude<typeof partner.kind, 'publishable'>,
  mode: partner.mode,
  channelId: partner.channelId ?? '',
  channelName: partner.channelName ?? '',
}));
