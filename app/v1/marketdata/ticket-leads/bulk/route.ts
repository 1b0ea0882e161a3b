import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { saveLeads, saveLeadsRoute } from '@/server/modules/market-data';

// Upserts each lead on (event, show, buyer): repeatable after a lost answer (Idempotency-Key).
export const POST = handle(saveLeadsRoute, ({ partner, body }) => saveLeads(partner.partnerId, body, getDb()), {
  repeatable: true,
});
