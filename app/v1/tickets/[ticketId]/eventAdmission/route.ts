import { handle } from '@/server/http/route';
import { admitTicketRoute } from '@/server/modules/tickets';
import { admitTicket } from '@/server/modules/tickets';

// A repeat would answer 409 (already admitted): the admission commits with the Idempotency-Key's stored answer.
export const POST = handle(admitTicketRoute, ({ partner, params, commit }) =>
  commit(({ tx }) => admitTicket(partner.partnerId, params.ticketId, tx)),
);
