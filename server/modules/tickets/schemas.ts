import { z } from 'zod';
import { atLeastOneOf, documentAs } from '@/server/lib/json-schema';
import { priceSchema } from '@/server/modules/catalog/schemas';
import { primarySalesFeeSchema } from '@/server/modules/partners/schemas';

/**
 * Ticket payloads. Inner shapes follow what partners of the reference product already send (see
 * shared/spec/anchor-notes.md); unknown extra keys inside the free-form objects are kept.
 */
// 254 characters at most (RFC 5321); the buyer's e-mail is an index key.
const email = z.email('must be an e-mail address').max(254, 'must be an e-mail address of at most 254 characters');

const buyerObject = z.looseObject({
  email: z.string().optional(),
  phone: z.string().min(1).optional(),
  id: z.string().min(1).optional(),
  fullName: z.string().optional(),
  name: z.string().optional(),
});

/**
 * The original purchaser: an e-mail string, or an object with at least one of email, phone, id. Checked
 * in one refinement so the error carries the spec's message instead of a generic union failure.
 */
const BUYER_DESCRIPTION =
  'An e-mail string, or `{ email?, phone?, id?, fullName?, name? }` with at least one of email, phone, id';
const buyerSchema = z
  // Readable messages instead of the union's own "Invalid input": missing, or neither shape.
  .union([z.string(), buyerObject], {
    error: (issue) =>
      issue.input === undefined ? 'is required' : 'must be an e-mail string or an object with email, phone or id',
  })
  .superRefine((b, ctx) => {
    const mail = typeof b === 'string' ? b : b.email;
    if (mail !== undefined && !email.safeParse(mail).success) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be an e-mail address',
        path: typeof b === 'string' ? [] : ['email'],
      });
    }
    if (typeof b !== 'string' && !b.email && !b.phone && !b.id) {
      ctx.addIssue({ code: 'custom', message: 'buyer.email or buyer.phone or buyer.id is required' });
    }
  })
  .meta({ description: BUYER_DESCRIPTION });
/** The refinement's rules as the document says them: an e-mail, or an object naming the buyer. */
documentAs(
  buyerSchema,
  z
    .union([email, buyerObject.extend({ email: email.optional() }).meta(atLeastOneOf('email', 'phone', 'id'))])
    .meta({ description: BUYER_DESCRIPTION }),
);

const ticketAccessSchema = z
  .looseObject({
    type: z.enum(['URL', 'API', 'OTHER']),
    locator: z.string().min(1),
    status: z.string().optional(),
  })
  .meta({ description: 'URL: locator is the QR/ticket URL; OTHER: locator is the access code itself' });

/** The catalogue's fee schema, one for every level; re-exported so ticket code keeps importing it from here. */
const tag = z.string().regex(/^[^:\s][^:]*:.+$/, 'must be a key:value string');

export const ticketCreateSchema = z
  .object({
    externalReferenceEventId: z.string().min(1).max(200),
    showId: z.string().min(1).max(200).nullable().optional(),
    buyer: buyerSchema,
    ticketId: z.string().min(1).max(200),
    ticketAccess: ticketAccessSchema,
    ticketOptionId: z.string().min(1).max(200),
    priceTypeId: z.string().min(1).max(200).optional(),
    price: priceSchema.optional(),
    buyerEmailExternal: z.string().optional(),
    primarySaleBuyerData: z.looseObject({}).optional(),
    nominalTicket: z.looseObject({}).optional(),
    props: z.looseObject({}).optional(),
    primarySalesFee: primarySalesFeeSchema.optional(),
    tags: z.array(tag).optional(),
    orderId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({
        description:
          'The primary-sale order this ticket belongs to (Encore extension: the spec has no order field). ' +
          "Tickets of one order can be sold together (order sale URL) and are grouped by the access layer's " +
          'orders mode. A tag `order:<id>` is read the same way when orderId is absent.',
      }),
  })
  .meta({ id: 'TicketCreate' });
export type TicketCreate = z.output<typeof ticketCreateSchema>;

export const MAX_TICKETS_PER_REQUEST = 10_000;

export const ticketsRequestSchema = z
  .array(ticketCreateSchema)
  .min(1, 'at least one ticket is required')
  .max(MAX_TICKETS_PER_REQUEST, `at most ${MAX_TICKETS_PER_REQUEST} tickets per request`)
  .superRefine(
    (list, ctx) => {
      const seen = new Map<string, number>();
      list.forEach((t, i) => {
        const ticketId: unknown = t?.ticketId;
        if (typeof ticketId !== 'string' || !ticketId) return;
        const first = seen.get(ticketId);
        if (first !== undefined) {
          ctx.addIssue({ code: 'custom', path: [i, 'ticketId'], message: `repeats [${first}].ticketId "${ticketId}"` });
        } else seen.set(ticketId, i);
      });
    },
    // Also when some ticket has other problems, so one answer names every problem of the request.
    { when: (payload) => Array.isArray(payload.value) },
  );

const ticketErrorSchema = z.object({ path: z.string(), message: z.string() });

const ticketResultSchema = z
  .object({
    ticketId: z.string(),
    id: z.string().meta({ description: "Encore's id for the ticket" }),
    status: z.enum(['imported', 'failed']),
    errors: z.array(ticketErrorSchema).optional(),
  })
  .meta({ id: 'TicketImportResult' });

export const syncTicketsResponse = z
  .object({ imported: z.number().int(), failed: z.number().int(), tickets: z.array(ticketResultSchema) })
  .meta({ id: 'SyncTicketsResult' });

export const acceptedTicketsResponse = z
  .object({
    batchId: z.string(),
    status: z.enum(['queued', 'processing', 'completed']),
    total: z.number().int(),
    tickets: z.array(z.object({ ticketId: z.string(), id: z.string() })),
  })
  .meta({ id: 'TicketBatchAccepted' });

export const batchResponse = z
  .object({
    batchId: z.string(),
    status: z.enum(['queued', 'processing', 'completed']),
    total: z.number().int(),
    imported: z.number().int(),
    failed: z.number().int(),
    pending: z.number().int(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
    errors: z.array(z.object({ ticketId: z.string(), errors: z.array(ticketErrorSchema) })),
  })
  .meta({ id: 'TicketBatch' });

/** PUT /v1/tickets/{ticketId}: every field optional; the ticketId is the path's. */
export const ticketUpdateSchema = ticketCreateSchema.omit({ ticketId: true }).partial().meta({ id: 'TicketUpdate' });
export type TicketUpdate = z.output<typeof ticketUpdateSchema>;

export const ticketParams = z.object({ ticketId: z.string().min(1).max(200) });

export const ticketResponse = z
  .object({
    id: z.string(),
    ticketId: z.string(),
    externalReferenceEventId: z.string(),
    showId: z.string(),
    ticketOptionId: z.string(),
    priceTypeId: z.string().nullable(),
    price: z.number().nullable(),
    currency: z.string(),
    status: z.enum(['VALID', 'INVALIDATED']),
    admittedAt: z.string().nullable(),
  })
  .meta({ id: 'Ticket' });

export const batchAdmissionSchema = z
  .array(
    z.object({
      ticketId: z.string().min(1),
      // The format message only for a value sent: a missing entryDate keeps saying "is required".
      entryDate: z.iso.datetime({
        offset: true,
        error: (issue) =>
          issue.input === undefined ? undefined : 'must be an ISO 8601 date-time, e.g. 2026-05-01T21:03:00Z',
      }),
    }),
  )
  .min(1, 'at least one admission is required')
  .max(1000, 'at most 1000 admissions per request');

/** The language of a page Encore hands out (`lang` on URL endpoints). */
export const langParam = z
  .string()
  .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'must be a language code such as es or pt-BR')
  .meta({ description: 'Language of the page, e.g. `es`, `en`, `pt-BR`' });
