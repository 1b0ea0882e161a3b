import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { events } from './catalog';
import { fanLocale, partnerRef, timestamps } from './columns';

export const leadType = pgEnum('lead_type', ['TICKET_HOLDER', 'ABANDONED_CART', 'VIRTUAL_QUEUE', 'WISHLIST']);

/**
 * Market data: people interested in a show (the spec's Lead object). One row per buyer identifier, event
 * and show (the spec's upsert key): `buyer_key` is the first of e-mail (lower-cased), id and phone the lead
 * names, and a repeated send updates the row.
 */
export const leads = pgTable(
  'leads',
  {
    id: text().primaryKey(), // lead_…
    partnerId: partnerRef(),
    type: leadType().notNull(),
    externalReferenceEventId: text().notNull(),
    showId: text().notNull(),
    buyerKey: text().notNull(),
    buyerEmail: text(),
    buyerPhone: text(),
    buyerId: text(),
    buyerFullName: text(),
    ticketId: text(),
    /** Minor units of `currency`. */
    price: bigint({ mode: 'number' }),
    currency: text(),
    ticketOptionId: text(),
    priceTypeId: text(),
    purchaseDate: timestamp({ withTimezone: true }),
    seating: jsonb().$type<{ section?: string; row?: string; seat?: string }>(),
    metadata: jsonb().$type<Record<string, unknown>>(),
    tags: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    attributes: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The fan asked (through a mail's link) to hear no more about this show. */
    unsubscribedAt: timestamp({ withTimezone: true }),
    /** The fan's language (the page that made the lead, e.g. "notify me"): its wishlist mails are in it. */
    locale: fanLocale(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('leads_buyer_show_idx').on(t.partnerId, t.externalReferenceEventId, t.showId, t.buyerKey),
    index('leads_partner_type_idx').on(t.partnerId, t.type),
  ],
);

/**
 * Primary-market inventory the partner reports (spec "Market data: inventory"): one row per scope —
 * the event (show_pk ''), a show (ids ''), or a show's ticket option, price type or pair. Only what the
 * partner sent is set; a later send changes only the fields it carries.
 */
export const inventories = pgTable(
  'inventories',
  {
    partnerId: partnerRef(),
    eventPk: text()
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    showPk: text().notNull().default(''),
    ticketOptionId: text().notNull().default(''),
    priceTypeId: text().notNull().default(''),
    capacity: integer(),
    releasedTickets: integer(),
    reservedSpace: integer(),
    soldOut: boolean(),
    soldPercentage: real(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('inventories_scope_idx').on(t.eventPk, t.showPk, t.ticketOptionId, t.priceTypeId)],
);

/**
 * Each mail telling a WISHLIST lead that a listing appeared for its show: one per lead and listing
 * (the unique index makes a repeat a no-op). The id is unguessable and is the mail's unsubscribe link.
 */
export const leadNotifications = pgTable(
  'lead_notifications',
  {
    id: text().primaryKey(), // lnt_…
    leadId: text()
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    listingId: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('lead_notifications_lead_listing_idx').on(t.leadId, t.listingId)],
);
