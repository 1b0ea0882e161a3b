import { handle } from '@/server/http/route';
import { syncTicketsRoute } from '@/server/modules/tickets';
import { syncTickets } from '@/server/modules/tickets';

export const POST = handle(syncTicketsRoute, ({ partner, body }) => syncTickets(partner.partnerId, body));
