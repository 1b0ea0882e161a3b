import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { deleteTicketRoute, updateTicketRoute } from '@/server/modules/tickets';
import { invalidateTicket, updateTicket } from '@/server/modules/tickets';

export const PUT = handle(updateTicketRoute, ({ partner, params, body }) =>
  updateTicket(partner.partnerId, params.ticketId, body, getDb()),
);
export const DELETE = handle(deleteTicketRoute, ({ partner, params }) =>
  invalidateTicket(partner.partnerId, params.ticketId, getDb()),
);
