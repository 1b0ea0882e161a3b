import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { secureUrlRoute } from '@/server/modules/tickets';
import { secureViewUrl } from '@/server/modules/tickets';

export const GET = handle(secureUrlRoute, ({ partner, params }) =>
  secureViewUrl(partner.partnerId, params.ticketId, getDb()),
);
