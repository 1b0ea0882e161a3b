import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { admitTicketsRoute } from '@/server/modules/tickets';
import { admitTickets } from '@/server/modules/tickets';

export const POST = handle(admitTicketsRoute, ({ partner, body }) => admitTickets(partner.partnerId, body, getDb()));
