import { handle } from '@/server/http/route';
import { createTicketsRoute } from '@/server/modules/tickets';
import { acceptTicketBatch } from '@/server/modules/tickets';

// A repeat would store (and import) a second batch: the batch commits with the Idempotency-Key's stored answer.
export const POST = handle(createTicketsRoute, ({ partner, body, commit }) =>
  commit((work) => acceptTicketBatch(partner.partnerId, body, work)),
);
