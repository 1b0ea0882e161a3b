import { handle } from '@/server/http/route';
import { resaleEntryUrl } from '@/server/modules/fan-pages';
import { meRoute } from '@/server/modules/partners';

export const GET = handle(meRoute, async ({ partner }) => ({
  partnerId: partner.partnerId,
  name: partner.partnerName,
  keyPrefix: partner.keyPrefix,
  // A publishable key is refused before any handler but the buy access layer's: only secret kinds get here.
  keyKind: partner.kind as Exclude<typeof partner.kind, 'publishable'>,
  mode: partner.mode,
  resaleEntryUrl: resaleEntryUrl(partner.partnerId),
}));
