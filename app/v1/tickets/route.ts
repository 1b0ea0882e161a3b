import { handle } from '@/server/http/route';
import { createTicketsRoute } from '@/server/modules/tickets/contracts';
import { acceptTicketBatch } from '@/server/modules/tickets/jobs';

export const POST = handle(createTicketsRoute, ({ partner, body }) => acceptTicketBatch(partner.partnerId, body));
