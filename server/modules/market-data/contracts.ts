import { z } from 'zod';
import { defineRoute } from '@/server/lib/contract';
import { bulkLeadsExample, leadExample, putInventoryDetailsExample, putInventoryExample } from './examples';
import {
  eventWithInventory,
  inventoryBody,
  inventoryDetailsBody,
  inventoryParams,
  inventoryQuery,
} from './inventory-schemas';
import { bulkLeadsSchema, leadSchema } from './lead-schemas';

const TAG = 'Market data';

const singleDescription =
  'Saves one lead. A lead with the same buyer identifier (e-mail, else id, else phone), event and show updates ' +
  'the stored one (its type and the fields sent replace the stored ones; fields left out are kept), so a repeat ' +
  'creates no duplicate. `TICKET_HOLDER` needs `ticketId` and `price`. 400 `buyer.email or buyer.phone or buyer.id ' +
  'is required` when the buyer has none of them; 404 `Event not found` / `Show not found` for ids never pushed.';

const bulkDescription =
  'Up to 1,000 leads of mixed types, each validated on its own (the 1,001st makes the whole request 400). ' +
  'All valid: 200 `data: true`. Some refused: the valid ones are stored all the same and the answer is 400 whose ' +
  'message says how many were refused and stored, with one `details` entry per problem naming the lead by its ' +
  'index (`[3].buyer`, `[7].externalReferenceEventId`); send again only those. Upsert as for one lead; the same ' +
  'buyer twice in one request keeps the later one.';

const leadRoute = (path: string, operationId: string, alias: boolean) =>
  defineRoute({
    method: 'POST',
    path,
    operationId,
    tag: TAG,
    summary: alias ? 'Save a lead (alias of /v1/marketdata/ticket-leads)' : 'Save a lead (market data)',
    description: singleDescription,
    auth: 'partner',
    body: leadSchema,
    response: z.literal(true),
    errorStatuses: [404],
    examples: leadExample,
  });

const bulkRoute = (path: string, operationId: string, alias: boolean) =>
  defineRoute({
    method: 'POST',
    path,
    operationId,
    tag: TAG,
    summary: alias ? 'Save up to 1,000 leads (alias of …/ticket-leads/bulk)' : 'Save up to 1,000 leads',
    description: bulkDescription,
    auth: 'partner',
    body: bulkLeadsSchema,
    response: z.literal(true),
    examples: bulkLeadsExample,
  });

export const saveLeadRoute = leadRoute('/v1/marketdata/ticket-leads', 'saveLead', false);
export const saveUserLeadRoute = leadRoute('/v1/marketdata/users', 'saveUserLead', true);
export const saveLeadsRoute = bulkRoute('/v1/marketdata/ticket-leads/bulk', 'saveLeads', false);
export const saveUserLeadsRoute = bulkRoute('/v1/marketdata/users/bulk', 'saveUserLeads', true);

export const putInventoryRoute = defineRoute({
  method: 'PUT',
  path: '/v1/marketdata/events/{externalReferenceId}/inventory',
  operationId: 'putInventory',
  tag: TAG,
  summary: "Report the event's (and a show's) primary-market inventory",
  description:
    'Send only what changes: a field left out keeps its stored value. `capacity` is event-level; the other fields ' +
    'apply to the show `showId`, which is required when the event has more than one show (400 otherwise; with one ' +
    'show it may be left out). `soldPercentage` is 0–100, counts are ≥ 0, unknown fields are refused. A show ' +
    'reported `soldOut` (or 100 % sold) is "sold out on primary" for the buy access layer and the buying pages. ' +
    'Answers the event with all its data and its `inventory`. 404 `Event not found` / `Show not found`.',
  auth: 'partner',
  params: inventoryParams,
  query: inventoryQuery,
  body: inventoryBody,
  response: eventWithInventory,
  errorStatuses: [404],
  examples: putInventoryExample,
});

export const putInventoryDetailsRoute = defineRoute({
  method: 'PUT',
  path: '/v1/marketdata/events/{externalReferenceId}/inventory/details',
  operationId: 'putInventoryDetails',
  tag: TAG,
  summary: 'Report inventory per ticket option, price type or pair',
  description:
    'The body is an array of items (or `{ "items": [...] }`, as the reference lists it). Each item names its `showId` ' +
    'and a `ticketOptionId`, a `priceTypeId` or both (an item with neither → 400 naming it), and its `inventory` ' +
    '(the Inventory object without `capacity`, which is event-level only). All items apply or none: an id that ' +
    'does not belong to its show → 404 naming the item. Answers the event with its `inventory`.',
  auth: 'partner',
  params: inventoryParams,
  body: inventoryDetailsBody,
  response: eventWithInventory,
  errorStatuses: [404],
  examples: putInventoryDetailsExample,
});

export const marketDataRoutes = [
  saveLeadRoute,
  saveUserLeadRoute,
  saveLeadsRoute,
  saveUserLeadsRoute,
  putInventoryRoute,
  putInventoryDetailsRoute,
];
