import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { saveLead, saveUserLeadRoute } from '@/server/modules/market-data';

// Upserts each lead on (event, show, buyer): repeatable after a lost answer (Idempotency-Key).
export const POST = handle(saveUserLeadRoute, ({ partner, body }) => saveLead(partner.partnerId, body, getDb()), {
  repeatable: true,
});
