import { handle } from '@/server/http/route';
import { admitTicketsRoute } from '@/server/modules/tickets/contracts';
import { admitTickets } from '@/server/modules/tickets/lifecycle';

export const POST = handle(admitTicketsRoute, ({ partner, body }) => admitTickets(partner.partnerId, body));
