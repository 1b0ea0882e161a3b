import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { cancelEventRoute } from '@/server/modules/catalog';
import { cancelEvent } from '@/server/modules/catalog';

// Cancelling what is cancelled changes nothing and answers the event again: repeatable (Idempotency-Key).
export const POST = handle(
  cancelEventRoute,
  ({ partner, params, query }) => cancelEvent(partner.partnerId, params.externalReferenceId, query.showId, getDb()),
  { repeatable: true },
);
