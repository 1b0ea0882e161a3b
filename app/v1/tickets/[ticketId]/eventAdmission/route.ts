import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { admitTicketRoute } from '@/server/modules/tickets';
import { admitTicket } from '@/server/modules/tickets';

export const POST = handle(admitTicketRoute, ({ partner, params }) =>
  admitTicket(partner.partnerId, params.ticketId, getDb()),
);
