import { z } from 'zod';
import { defineRoute } from '@/server/http/contract';
import {
  MAX_TICKETS_PER_REQUEST,
  acceptedTicketsResponse,
  batchResponse,
  syncTicketsResponse,
  ticketsRequestSchema,
} from './schemas';

export const createTicketsRoute = defineRoute({
  method: 'POST',
  path: '/v1/tickets',
  operationId: 'createTickets',
  tag: 'Tickets',
  summary: 'Push tickets (queued, for high volume)',
  description:
    `Up to ${MAX_TICKETS_PER_REQUEST} tickets. Each is validated in shape (400 naming \`[i].field\`), the whole ` +
    "request is stored durably, and the answer comes at once with a batch id and Encore's id for every ticketId. " +
    'A background job then checks each ticket against the catalogue and imports it; follow it with ' +
    'GET /v1/tickets/batches/{batchId}. Re-sending a ticketId updates the ticket, never duplicates it.',
  auth: 'partner',
  body: ticketsRequestSchema,
  response: acceptedTicketsResponse,
  maxBodyBytes: 64 * 1024 * 1024,
});

export const syncTicketsRoute = defineRoute({
  method: 'POST',
  path: '/v1/sync/tickets',
  operationId: 'syncTickets',
  tag: 'Tickets',
  summary: 'Push tickets and wait for the result (not for high volume)',
  description:
    'The same import as POST /v1/tickets, done before answering, with a result per ticket (imported, or failed ' +
    'with errors naming the field). Limited to 60 requests per minute per partner.',
  auth: 'partner',
  body: ticketsRequestSchema,
  response: syncTicketsResponse,
  rateLimit: { name: 'sync-tickets', limit: 60, windowSeconds: 60 },
});

export const getBatchRoute = defineRoute({
  method: 'GET',
  path: '/v1/tickets/batches/{batchId}',
  operationId: 'getTicketBatch',
  tag: 'Tickets',
  summary: 'Progress and per-ticket errors of a POST /v1/tickets batch',
  auth: 'partner',
  params: z.object({ batchId: z.string().min(1).max(100) }),
  response: batchResponse,
  errorStatuses: [404],
});
