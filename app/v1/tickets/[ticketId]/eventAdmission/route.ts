import { handle } from '@/server/http/route';
import { admitTicketRoute } from '@/server/modules/tickets/contracts';
import { admitTicket } from '@/server/modules/tickets/lifecycle';

export const POST = handle(admitTicketRoute, ({ partner, params }) => admitTicket(partner.partnerId, params.ticketId));
