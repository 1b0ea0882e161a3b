import { z } from 'zod';
import { defineRoute } from '@/server/lib/contract';
import { bulkLeadsExample, leadExample } from './examples';
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

export const marketDataRoutes = [saveLeadRoute, saveUserLeadRoute, saveLeadsRoute, saveUserLeadsRoute];
