import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { createEventRoute, updateEventRoute } from '@/server/modules/catalog';
import { createEvent, updateEvent } from '@/server/modules/catalog';

// A repeat would answer 409 (it exists): the event commits with the Idempotency-Key's stored answer.
export const POST = handle(createEventRoute, ({ partner, body, commit }) =>
  commit(({ tx }) => createEvent(partner.partnerId, body, tx)),
);
// Fields replace stored values: sending it again changes nothing more.
export const PUT = handle(updateEventRoute, ({ partner, body }) => updateEvent(partner.partnerId, body, getDb()), {
  repeatable: true,
});
