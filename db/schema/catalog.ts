import { sql } from 'drizzle-orm';
import { bigint, boolean, integer, jsonb, pgTable, pgView, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { partners } from './partners';
import type { StoredPrimarySalesFee } from './primary-sales-fee';

export type { StoredPrimarySalesFee };

/**
 * The partner's catalogue. Partner identifiers are scoped the way the spec sends them, never globally:
 * externalReferenceId per partner, showId per event, a ticket option's `ticketId` and a `priceTypeId`
 * per show; our own ids are opaque.
 * Nested objects the spec leaves free-form (location, configuration, images, producers, seating) are
 * kept as JSON exactly as validated.
 */
export const events = pgTable(
  'events',
  {
    id: text().primaryKey(), // evt_…
    partnerId: text()
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    externalReferenceId: text().notNull(),
    title: text().notNull(),
    description: text().notNull(),
    location: jsonb().notNull(),
    configuration: jsonb().notNull(),
    producers: jsonb(),
    seating: jsonb(),
    primarySalesFee: jsonb().$type<StoredPrimarySalesFee>(),
    cancelledAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('events_partner_ref_idx').on(t.partnerId, t.externalReferenceId)],
);

export const shows = pgTable(
  'shows',
  {
    id: text().primaryKey(), // shw_…
    partnerId: text()
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    eventId: text()
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    showId: text().notNull(),
    position: integer().notNull(),
    title: text().notNull(),
    /** The date as the partner sent it (offset kept), and as an instant for queries. */
    date: text().notNull(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    primarySalesUrl: text(),
    status: text({ enum: ['LIVE', 'CANCELLED'] })
      .notNull()
      .default('LIVE'),
    images: jsonb().notNull(),
    configuration: jsonb().notNull(),
    location: jsonb(),
    showRescheduled: boolean().notNull().default(false),
    resaleEnabled: boolean().notNull().default(true),
    primarySalesFee: jsonb().$type<StoredPrimarySalesFee>(),
    cancelledAt: timestamp({ withTimezone: true }),
  },
  // A showId is unique within its event (every call naming a show names its event too); the index
  // also serves every lookup of an event's shows.
  (t) => [uniqueIndex('shows_event_show_idx').on(t.eventId, t.showId)],
);

export const ticketOptions = pgTable(
  'ticket_options',
  {
    id: text().primaryKey(), // opt_…
    partnerId: text().notNull(),
    showPk: text()
      .notNull()
      .references(() => shows.id, { onDelete: 'cascade' }),
    ticketId: text().notNull(),
    position: integer().notNull(),
    title: text().notNull(),
    description: text().notNull(),
    currency: text().notNull(),
    /** Price in minor units of `currency`, excluding commissions and fees; null when not sent. */
    priceMinor: bigint({ mode: 'number' }),
    stock: integer(),
    webVisibility: boolean().notNull().default(true),
    webSoldOut: boolean(),
    area: text(),
    primarySalesFee: jsonb().$type<StoredPrimarySalesFee>(),
  },
  (t) => [uniqueIndex('ticket_options_show_ticket_idx').on(t.showPk, t.ticketId)],
);

export const priceTypes = pgTable(
  'price_types',
  {
    id: text().primaryKey(), // prt_…
    partnerId: text().notNull(),
    showPk: text()
      .notNull()
      .references(() => shows.id, { onDelete: 'cascade' }),
    priceTypeId: text().notNull(),
    position: integer().notNull(),
    legacyId: jsonb(), // the partner's optional `_id`, any shape
    title: text(),
    description: text(),
    webVisibility: boolean().notNull().default(true),
    webSoldOut: boolean(),
    stock: integer(),
    invisible: boolean().notNull().default(false),
    inventory: jsonb(),
  },
  (t) => [uniqueIndex('price_types_show_price_type_idx').on(t.showPk, t.priceTypeId)],
);

/** Price Detail: the explicitly declared ticketOption + priceType pairs that sell, with their price. */
export const combinations = pgTable(
  'combinations',
  {
    id: text().primaryKey(), // cmb_…
    partnerId: text().notNull(),
    showPk: text()
      .notNull()
      .references(() => shows.id, { onDelete: 'cascade' }),
    ticketOptionId: text().notNull(),
    priceTypeId: text().notNull(),
    currency: text().notNull(),
    priceMinor: bigint({ mode: 'number' }),
    description: text(),
  },
  (t) => [uniqueIndex('combinations_pair_idx').on(t.showPk, t.ticketOptionId, t.priceTypeId)],
);

/**
 * Resale-eligibility rules, scoped to an event, a show, or a show's ticket option and/or price type.
 * Empty scope columns are '' (not null) so one unique index covers every scope.
 */
export const resaleRules = pgTable(
  'resale_rules',
  {
    id: text().primaryKey(), // rul_…
    partnerId: text().notNull(),
    eventPk: text()
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    showId: text().notNull().default(''),
    ticketOptionId: text().notNull().default(''),
    priceTypeId: text().notNull().default(''),
    ruleType: text().notNull(),
    rules: jsonb().notNull(),
    description: text(),
    /** Who set it: the partner (POST /v1/events/rules) or staff (dashboard); at equal scope STAFF wins. */
    source: text({ enum: ['PARTNER', 'STAFF'] })
      .notNull()
      .default('PARTNER'),
    /** The staff member who last set a STAFF rule. */
    updatedBy: text(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('resale_rules_scope_idx').on(
      t.eventPk,
      t.showId,
      t.ticketOptionId,
      t.priceTypeId,
      t.ruleType,
      t.source,
    ),
  ],
);

/*
 * Views the catalog offers other modules' SQL (a table is read only through its owner): the primary sales
 * fee each level of the catalogue sets, for the ticket's fee resolution (tickets/fees.ts) in one statement.
 */

/** Each show's own primary sales fee and its event's (JSON as stored; null where a level sets none). */
export const showPrimarySalesFees = pgView('show_primary_sales_fees', {
  showPk: text().notNull(),
  showFee: jsonb().$type<StoredPrimarySalesFee>(),
  eventFee: jsonb().$type<StoredPrimarySalesFee>(),
}).as(
  sql`select s.id as show_pk, s.primary_sales_fee as show_fee, e.primary_sales_fee as event_fee from ${shows} s join ${events} e on e.id = s.event_id`,
);

/** Each ticket option's primary sales fee, by its show and the option's `ticketId`. */
export const ticketOptionPrimarySalesFees = pgView('ticket_option_primary_sales_fees', {
  showPk: text().notNull(),
  ticketId: text().notNull(),
  fee: jsonb().$type<StoredPrimarySalesFee>(),
}).as(sql`select show_pk, ticket_id, primary_sales_fee as fee from ${ticketOptions}`);
