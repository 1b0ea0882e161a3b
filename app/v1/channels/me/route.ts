import { handle } from '@/server/http/route';
import { channelsMeRoute } from '@/server/modules/channels';

export const GET = handle(channelsMeRoute, async ({ partner }) => ({
  partnerId: partner.partnerId,
  name: partner.partnerName,
  keyPrefix: partner.keyPrefix,
  keyKind: partner.kind,
  mode: partner.mode,
  channelId: partner.channelId ?? '',
  channelName: partner.channelName ?? '',
}));
