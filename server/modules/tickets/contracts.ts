import { z } from 'zod';
import { defineRoute } from '@/server/lib/contract';
import {
  MAX_TICKETS_PER_REQUEST,
  langParam,
  acceptedTicketsResponse,
  batchAdmissionSchema,
  batchResponse,
  syncTicketsResponse,
  ticketParams,
  ticketResponse,
  ticketsRequestSchema,
  ticketUpdateSchema,
} from './schemas';
import {
  admitTicketExample,
  admitTicketsExample,
  createTicketsExample,
  deleteTicketExample,
  getBatchExample,
  salePublicUrlExample,
  secureUrlExample,
  syncTicketsExample,
  updateTicketExample,
} from './examples';

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
  examples: createTicketsExample,
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
  examples: syncTicketsExample,
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
  examples: getBatchExample,
});

export const updateTicketRoute = defineRoute({
  method: 'PUT',
  path: '/v1/tickets/{ticketId}',
  operationId: 'updateTicket',
  tag: 'Tickets',
  summary: 'Update a ticket (access information, buyer details, other properties)',
  description:
    'Fields sent replace the stored ones; the result is validated against the catalogue like an import. ' +
    "Moving a ticket to another option or price type without a price takes that one's face value. " +
    'A deleted ticket answers 409.',
  auth: 'partner',
  params: ticketParams,
  body: ticketUpdateSchema,
  response: ticketResponse,
  errorStatuses: [404, 409],
  examples: updateTicketExample,
});

export const deleteTicketRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/tickets/{ticketId}',
  operationId: 'deleteTicket',
  tag: 'Tickets',
  summary: 'Invalidate a ticket, irreversibly',
  description:
    'The ticket becomes invalid for all purposes; a later update or admission answers 409. Repeating the call changes nothing.',
  auth: 'partner',
  params: ticketParams,
  response: ticketResponse,
  errorStatuses: [404],
  examples: deleteTicketExample,
});

export const admitTicketRoute = defineRoute({
  method: 'POST',
  path: '/v1/tickets/{ticketId}/eventAdmission',
  operationId: 'admitTicket',
  tag: 'Tickets',
  summary: "Record a ticket's admission at the venue",
  description:
    'Answers `data: true`. A ticket already admitted, deleted, or of a cancelled show answers 409 saying why.',
  auth: 'partner',
  params: ticketParams,
  response: z.literal(true),
  errorStatuses: [404, 409],
  examples: admitTicketExample,
});

export const admitTicketsRoute = defineRoute({
  method: 'POST',
  path: '/v1/tickets/batch/eventAdmission',
  operationId: 'admitTickets',
  tag: 'Tickets',
  summary: 'Record several admissions, all or nothing',
  description:
    'Items `{ ticketId, entryDate }` (ISO 8601 with a zone, e.g. `2026-05-01T21:03:00Z`). Answers `data: true` when ' +
    'every admission was recorded; otherwise nothing is recorded and a 409 names every item that failed.',
  auth: 'partner',
  body: batchAdmissionSchema,
  response: z.literal(true),
  errorStatuses: [409],
  examples: admitTicketsExample,
});

export const secureUrlRoute = defineRoute({
  method: 'GET',
  path: '/v1/tickets/{ticketId}/url',
  operationId: 'getSecureTicketUrl',
  tag: 'Tickets',
  summary: 'The secure ticket view URL (locked QR, state and actions)',
  description:
    'Answers the absolute URL as `data`. It is unguessable and stays the same while the ticket keeps its owner; ' +
    'after a resale or transfer the new owner gets a new URL (the old one then says "sold" or "transferred" and ' +
    'shows no code), so ask again after `ticket.updated`.\n\n' +
    '**When to show it.** While ticket protection is active for the show (the default; `ticketShield.updated` ' +
    'with `status: true`), show this URL instead of the ticket itself in confirmation pages, My Tickets and ' +
    'e-mails: the view keeps the access code hidden until it unlocks (your `ticketDelivery`, else a number of ' +
    'hours before the show set by Encore staff, 3 by default), and while the ticket is listed for sale. When ' +
    'protection is inactive (`status: false`) show your ticket as before; the URL still works and shows the code ' +
    'at once. Resale is offered only where protection is active.\n\n' +
    "**Reissue.** Where your account is set to reissue after a resale, send the new owner's new `ticketAccess` " +
    "with `PUT /v1/tickets/{ticketId}` after `ticket.updated`; until it arrives the new owner's view says the " +
    'ticket is being reissued and shows no code.',
  auth: 'partner',
  params: ticketParams,
  response: z.url(),
  errorStatuses: [404],
  examples: secureUrlExample,
});

export const salePublicUrlRoute = defineRoute({
  method: 'GET',
  path: '/v1/events/tickets/salePublicUrl',
  operationId: 'getSalePublicUrl',
  tag: 'Tickets',
  summary: "The public resale market URL of the ticket's event, filtered to the ticket",
  description:
    'Answers the absolute URL as `data`, in `lang`. While the ticket is listed (on sale, or held by a buyer who is ' +
    "paying) it is the listing's own page: the event, show date, venue, seats, the price with fees and a Buy " +
    "button. Otherwise it is the event's market at the ticket's show, which says this ticket is not on sale " +
    '(and leads to its listing should it be listed later). 404 `Ticket not found` for a ticket you never sent.',
  auth: 'partner',
  query: z.object({ ticketId: z.string().min(1).max(200), lang: langParam }),
  response: z.url(),
  errorStatuses: [404],
  examples: salePublicUrlExample,
});

export const ticketsRoutes = [
  createTicketsRoute,
  syncTicketsRoute,
  getBatchRoute,
  updateTicketRoute,
  deleteTicketRoute,
  admitTicketRoute,
  admitTicketsRoute,
  secureUrlRoute,
  salePublicUrlRoute,
];
