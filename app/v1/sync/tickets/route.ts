import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { syncTicketsRoute } from '@/server/modules/tickets';
import { syncTickets } from '@/server/modules/tickets';

// Imports by the partner's ticket ids (an upsert): repeatable after a lost answer (Idempotency-Key).
export const POST = handle(syncTicketsRoute, ({ partner, body }) => syncTickets(partner.partnerId, body, getDb()), {
  repeatable: true,
});
