import { handle } from '@/server/http/route';
import { cancelEventRoute } from '@/server/modules/catalog';
import { cancelEvent } from '@/server/modules/catalog';

export const POST = handle(cancelEventRoute, ({ partner, params, query }) =>
  cancelEvent(partner.partnerId, params.externalReferenceId, query.showId),
);
