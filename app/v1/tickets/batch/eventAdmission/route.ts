import { handle } from '@/server/http/route';
import { admitTicketsRoute } from '@/server/modules/tickets';
import { admitTickets } from '@/server/modules/tickets';

// A repeat would answer 409 (already admitted): the admissions commit with the Idempotency-Key's stored answer.
export const POST = handle(admitTicketsRoute, ({ partner, body, commit }) =>
  commit(({ tx }) => admitTickets(partner.partnerId, body, tx)),
);
