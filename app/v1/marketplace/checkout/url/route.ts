import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { checkoutUrlRoute } from '@/server/modules/marketplace';
import { checkoutUrl } from '@/server/modules/fan-pages';

// Holds nothing (at most a new one-time sign-in token in the URL): repeatable after a lost answer (Idempotency-Key).
export const POST = handle(
  checkoutUrlRoute,
  ({ partner, body }) => checkoutUrl(partner.partnerId, body.listingIds, body.loginTrust, getDb()),
  { repeatable: true },
);
