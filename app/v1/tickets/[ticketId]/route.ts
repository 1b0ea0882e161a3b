import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { deleteTicketRoute, updateTicketRoute } from '@/server/modules/tickets';
import { invalidateTicket, updateTicket } from '@/server/modules/tickets';

// Repeatable after a lost answer (Idempotency-Key): PUT sets the fields sent (the same ones again change
// nothing), a repeated DELETE changes and records nothing.
export const PUT = handle(
  updateTicketRoute,
  ({ partner, params, body }) => updateTicket(partner.partnerId, params.ticketId, body, getDb()),
  { repeatable: true },
);
export const DELETE = handle(
  deleteTicketRoute,
  ({ partner, params }) => invalidateTicket(partner.partnerId, params.ticketId, getDb()),
  { repeatable: true },
);
