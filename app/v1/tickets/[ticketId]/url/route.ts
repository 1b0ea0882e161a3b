import { handle } from '@/server/http/route';
import { secureUrlRoute } from '@/server/modules/tickets/contracts';
import { secureViewUrl } from '@/server/modules/tickets/urls';

export const GET = handle(secureUrlRoute, ({ partner, params }) => secureViewUrl(partner.partnerId, params.ticketId));
