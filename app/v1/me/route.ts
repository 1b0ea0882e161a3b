import { handle } from '@/server/http/route';
import { resaleEntryUrl } from '@/server/modules/fan-pages';
import { meRoute } from '@/server/modules/partners';

export const GET = handle(meRoute, async ({ partner }) => ({
  partnerId: partner.partnerId,
  name: partner.partnerName,
  keyPrefix: partner.keyPrefix,
  keyKind: partner.kind,
  mode: partner.mode,
  resaleEntryUrl: resaleEntryUrl(partner.partnerId),
}));
