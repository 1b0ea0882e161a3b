import { handle } from '@/server/http/route';
import { cancelEventRoute } from '@/server/modules/catalog/contracts';
import { cancelEvent } from '@/server/modules/catalog/service';

export const POST = handle(cancelEventRoute, ({ partner, params, query }) =>
  cancelEvent(partner.partnerId, params.externalReferenceId, query.showId),
);
