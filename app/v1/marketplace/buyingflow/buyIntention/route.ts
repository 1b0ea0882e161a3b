import { handle } from '@/server/http/route';
import { buyIntentionRoute, createBuyIntention } from '@/server/modules/marketplace';

// A repeat would hold the listings again: the intention commits with the Idempotency-Key's stored answer
// (`commit`, handed over whole: a buyer who lost to a claim under way is refused before it opens).
export const POST = handle(buyIntentionRoute, ({ partner, body, commit }) =>
  createBuyIntention(partner.partnerId, body, commit),
);
