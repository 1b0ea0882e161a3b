import { handle } from '@/server/http/route';
import { buyIntentionRoute, createBuyIntention } from '@/server/modules/marketplace';

export const POST = handle(buyIntentionRoute, ({ partner, body }) => createBuyIntention(partner.partnerId, body));
