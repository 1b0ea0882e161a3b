import { z } from 'zod';
import { defineRoute } from '@/server/lib/contract';
import { rulesRequestSchema, rulesResponse } from './rules-schemas';
import { eventCreateSchema, eventResponse, eventUpdateSchema } from './schemas';
import { applyRulesExample, cancelEventExample, createEventExample, updateEventExample } from './examples';

export const createEventRoute = defineRoute({
  method: 'POST',
  path: '/v1/events',
  operationId: 'createEvent',
  tag: 'Events',
  summary: 'Create an event with its shows, ticket options and price types',
  description:
    'Answers the stored event with the response-side defaults filled. An event whose externalReferenceId ' +
    'exists answers 409 (use PUT to update). A showId is scoped to its event: two events may both have a show "1". ' +
    'Pricing: Standard (ticket options only) or Price Detail (options, price types and explicit combinations ' +
    'declared with POST /v1/events/rules; never generated).',
  auth: 'partner',
  body: eventCreateSchema,
  response: eventResponse,
  errorStatuses: [409],
  examples: createEventExample,
});

export const updateEventRoute = defineRoute({
  method: 'PUT',
  path: '/v1/events',
  operationId: 'updateEvent',
  tag: 'Events',
  summary: 'Update an event (fields present replace, omitted fields keep)',
  description:
    'Shows are matched by showId, ticket options by ticketId, price types by priceTypeId; ones not sent are ' +
    'kept (an update never deletes them). A new show must be complete. A changed show date sets ' +
    'showRescheduled. resaleEnabled stays off only while false is sent; sending true re-enables resale. ' +
    'A show sent with status CANCELLED is cancelled (irreversibly). Unknown event: 404.',
  auth: 'partner',
  body: eventUpdateSchema,
  response: eventResponse,
  errorStatuses: [404, 409],
  examples: updateEventExample,
});

export const cancelEventRoute = defineRoute({
  method: 'POST',
  path: '/v1/events/{externalReferenceId}/cancellation',
  operationId: 'cancelEvent',
  tag: 'Events',
  summary: 'Cancel an event, or one of its shows',
  description:
    'All shows of the event (or only `showId`) become CANCELLED: unavailable for sales and transfers, ' +
    'their tickets invalid. Repeating the call changes nothing. Unknown event or show: 404.',
  auth: 'partner',
  params: z.object({ externalReferenceId: z.string().min(1).max(200) }),
  query: z.object({ showId: z.string().min(1).optional().meta({ description: "The show's id in your system" }) }),
  response: eventResponse,
  errorStatuses: [404],
  examples: cancelEventExample,
});

export const applyRulesRoute = defineRoute({
  method: 'POST',
  path: '/v1/events/rules',
  operationId: 'applyRules',
  tag: 'Events',
  summary: 'Apply rules: combinations and resale eligibility',
  description:
    'An array of rules, applied all or none. `COMBINATION` declares a ticketOption + priceType pair of a show ' +
    "(`ticketOptionId` = the option's ticketId) with its `price`, which wins over the option price; " +
    'combinations are never generated. Resale rules (`rules` object by type): RESALE_ENABLED `{ enabled }`, ' +
    'LISTING_WINDOW `{ opensHoursBeforeShow?, closesHoursBeforeShow? }`, PRICE_LIMITS `{ minPercentOfFace?, ' +
    'maxPercentOfFace? }`, MAX_TICKETS_PER_LISTING `{ max }`, P2P_TRANSFER `{ allowed }`; scoped to the event, ' +
    "a show, or a show's ticket option and/or price type; the most specific rule of a type wins (option + " +
    'price type, option, price type, show, event). Re-sending a rule for the same scope replaces it. ' +
    'Unknown ruleType: 400. Unknown event: 404. Ids that do not belong to the event: 400 naming them.',
  auth: 'partner',
  body: rulesRequestSchema,
  response: rulesResponse,
  errorStatuses: [404],
  examples: applyRulesExample,
});
