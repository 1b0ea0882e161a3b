import { handle } from '@/server/http/route';
import { salePublicUrlRoute } from '@/server/modules/tickets/contracts';
import { salePublicUrl } from '@/server/modules/tickets/urls';

export const GET = handle(salePublicUrlRoute, ({ partner, query }) =>
  salePublicUrl(partner.partnerId, query.ticketId, query.lang),
);
