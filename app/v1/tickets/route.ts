import { handle } from '@/server/http/route';
import { createTicketsRoute } from '@/server/modules/tickets';
import { acceptTicketBatch } from '@/server/modules/tickets';

export const POST = handle(createTicketsRoute, ({ partner, body }) => acceptTicketBatch(partner.partnerId, body));
