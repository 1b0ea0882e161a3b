import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { removeListingRoute, unlistTicket } from '@/server/modules/marketplace';

// Run again after a lost answer (Idempotency-Key), the listing is already off sale: no second effect, the
// answer is then the guard's 404 (the ticket is not listed).
export const DELETE = handle(
  removeListingRoute,
  ({ partner, params }) => unlistTicket(partner.partnerId, params.ticketId, getDb()),
  { repeatable: true },
);
