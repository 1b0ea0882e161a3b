import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { saveLeads, saveUserLeadsRoute } from '@/server/modules/market-data';

// Upserts each lead on (event, show, buyer): repeatable after a lost answer (Idempotency-Key).
export const POST = handle(saveUserLeadsRoute, ({ partner, body }) => saveLeads(partner.partnerId, body, getDb()), {
  repeatable: true,
});
