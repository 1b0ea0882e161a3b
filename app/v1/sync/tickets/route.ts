import { handle } from '@/server/http/route';
import { syncTicketsRoute } from '@/server/modules/tickets/contracts';
import { syncTickets } from '@/server/modules/tickets/service';

export const POST = handle(syncTicketsRoute, ({ partner, body }) => syncTickets(partner.partnerId, body));
