import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { checkoutUrl, checkoutUrlRoute } from '@/server/modules/marketplace';

export const POST = handle(checkoutUrlRoute, ({ partner, body }) =>
  checkoutUrl(partner.partnerId, body.listingIds, body.loginTrust, getDb()),
);
