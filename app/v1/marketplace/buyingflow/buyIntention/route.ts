import { handle } from '@/server/http/route';
import { buyIntentionRoute, createBuyIntention } from '@/server/modules/marketplace';

// A repeat would hold the listings again: the intention commits with the Idempotency-Key's stored answer.
export const POST = handle(buyIntentionRoute, ({ partner, body, commit }) =>
  commit((work) => createBuyIntention(partner.partnerId, body, work)),
);
