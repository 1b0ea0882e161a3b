import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { catalogPlace, partnerRef, timestamps } from './columns';

/**
 * Tickets the partner pushed. The partner's `ticketId` is unique per partner; `id` (tkt_…) is ours.
 * Ownership stays with the partner's platform (verified on demand); this is what resale needs to
 * show and check a ticket.
 */
export const tickets = pgTable(
  'tickets',
  {
    id: text().primaryKey(),
    partnerId: partnerRef(),
    ticketId: text().notNull(),
    ...catalogPlace(),
    currency: text().notNull(),
    priceMinor: bigint({ mode: 'number' }),
    buyer: jsonb().notNull(),
    /** Lower-cased buyer e-mail when the buyer has one (search, ownership checks). */
    buyerEmail: text(),
    /** The primary-sale order (ticket `orderId`, or its `order:<id>` tag): order sales, orders mode. */
    orderId: text(),
    data: jsonb().notNull(), // ticketAccess, nominalTicket, props, primarySalesFee, primarySaleBuyerData, tags, buyerEmailExternal
    status: text({ enum: ['VALID', 'INVALIDATED'] })
      .notNull()
      .default('VALID'),
    invalidatedAt: timestamp({ withTimezone: true }),
    admittedAt: timestamp({ withTimezone: true }),
    /** The secure view's URL token: random (≈244 bits), stable for the ticket's life. */
    secureToken: text()
      .notNull()
      .default(sql`replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')`),
    /** Protection: the ticket changed hands and its partner reissues; cleared by a new `ticketAccess`. */
    reissueRequestedAt: timestamp({ withTimezone: true }),
    /** When the partner's new `ticketAccess` arrived after the last reissue request. */
    reissuedAt: timestamp({ withTimezone: true }),
    /**
     * When the current holder was first shown the ticket's code (secure view unlocked, or the code
     * returned by an API). Cleared when the ticket changes hands and when a reissued code arrives: a
     * code its holder has seen is not resold unless the partner reissues.
     */
    codeShownAt: timestamp({ withTimezone: true }),
    ...timestamps(),
  },
  (t) => [
    index('tickets_reissue_idx')
      .on(t.partnerId, t.reissueRequestedAt)
      .where(sql`${t.reissueRequestedAt} is not null and ${t.reissuedAt} is null`),
    // The staff overview's "reissued in the range", index-only.
    index('tickets_reissued_idx')
      .on(t.reissuedAt, t.partnerId, t.eventPk, t.reissueRequestedAt)
      .where(sql`${t.reissuedAt} is not null`),
    uniqueIndex('tickets_partner_ticket_idx').on(t.partnerId, t.ticketId),
    uniqueIndex('tickets_secure_token_idx').on(t.secureToken),
    // Serves a show's tickets and the dashboard's keyset pages by ticketId.
    index('tickets_show_ticket_idx').on(t.showPk, t.ticketId),
    index('tickets_buyer_email_idx').on(t.partnerId, t.buyerEmail),
    index('tickets_order_idx')
      .on(t.partnerId, t.orderId)
      .where(sql`${t.orderId} is not null`),
  ],
);

/**
 * A `POST /v1/tickets` request, stored whole (one row, the validated tickets as one JSON document)
 * before the 200 answer, and imported by a job in chunks. `processed` is the import's cursor: tickets
 * before it are imported or failed, moved forward in the same transaction as the tickets it covers, so
 * a run stopped anywhere resumes exactly where it stopped. The payload is cleared once completed.
 */
export const ticketBatches = pgTable(
  'ticket_batches',
  {
    id: text().primaryKey(), // tbt_…
    partnerId: partnerRef(),
    status: text({ enum: ['queued', 'processing', 'completed'] })
      .notNull()
      .default('queued'),
    total: integer().notNull(),
    imported: integer().notNull().default(0),
    failed: integer().notNull().default(0),
    processed: integer().notNull().default(0),
    /** The request's tickets (TicketCreate[]); null once the batch is completed. */
    payload: json(),
    /** Encore's id answered for each ticket, by position. */
    serviceIds: json().$type<string[]>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('ticket_batches_partner_idx').on(t.partnerId, t.createdAt)],
);

/** The tickets of a batch that failed to import, with why (`[{ path, message }]`). */
export const ticketBatchErrors = pgTable(
  'ticket_batch_errors',
  {
    batchId: text()
      .notNull()
      .references(() => ticketBatches.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    ticketId: text().notNull(),
    errors: jsonb().notNull(),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.position] })],
);

/**
 * A ticket's history for support: imported, updated, admitted, invalidated, with when. Written by the
 * tickets module in the same statement or transaction as the change. `batchId` names the batch that
 * imported or updated it (null for the synchronous import and the single-ticket endpoints). Tickets
 * imported before this table existed have no rows; the dashboard falls back to their created/updated times.
 */
export const ticketEvents = pgTable(
  'ticket_events',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    ticketPk: text()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    kind: text({
      enum: ['imported', 'updated', 'admitted', 'invalidated', 'transferred', 'reissue_requested', 'reissued'],
    }).notNull(),
    batchId: text(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ticket_events_ticket_idx').on(t.ticketPk, t.at)],
);

/**
 * Secure-view links a ticket had before it changed hands: the old holder's link keeps answering, with
 * the reason (sold on resale, or transferred) and never the code.
 */
export const ticketPreviousLinks = pgTable(
  'ticket_previous_links',
  {
    token: text().primaryKey(),
    ticketPk: text()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    reason: text({ enum: ['SOLD', 'TRANSFERRED'] }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ticket_previous_links_ticket_idx').on(t.ticketPk)],
);
