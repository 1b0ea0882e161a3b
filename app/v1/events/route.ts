import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { createEventRoute, updateEventRoute } from '@/server/modules/catalog';
import { createEvent, updateEvent } from '@/server/modules/catalog';

export const POST = handle(createEventRoute, ({ partner, body }) => createEvent(partner.partnerId, body, getDb()));
export const PUT = handle(updateEventRoute, ({ partner, body }) => updateEvent(partner.partnerId, body));
