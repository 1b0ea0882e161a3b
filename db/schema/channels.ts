import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { channels } from './partners';
import { tickets } from './tickets';
import { catalogPlace, partnerRef, timestamps } from './columns';

/**
 * As the channel sees its listing: ACTIVE (on sale, maybe partly sold), RESERVED (a buyer holds a part),
 * SOLD (every ticket), UNLISTED (the market took it off sale: resale or protection turned off, channel
 * disabled; a PUT lists it again), CANCELLED (deleted by the channel, or the show ended). Stored: only
 * ACTIVE or CANCELLED (the channel's wish); the rest is read from its market listings.
 */
export const CHANNEL_LISTING_STATUSES = ['ACTIVE', 'RESERVED', 'SOLD', 'UNLISTED', 'CANCELLED'] as const;
export type ChannelListingStatus = (typeof CHANNEL_LISTING_STATUSES)[number];

/** A seat as a channel describes it (the same keys as a ticket's `props.seating`). */
export interface ChannelSeat {
  ticketId?: string;
  section?: string;
  row?: string;
  seat?: string;
  door?: string;
}

/**
 * A channel's resale listing as it pushed it, keyed by the channel's own id (`externalId`): tickets of one
 * show, ticket option (and price type) of the partner's catalogue, a quantity or explicit seats, a price
 * per ticket. ACTIVE: on sale · RESERVED: held by a buyer · SOLD · CANCELLED: deleted by the channel or
 * ended by a cascade. `problems` keeps why the market refuses it now, if anything.
 */
export const channelListings = pgTable(
  'channel_listings',
  {
    id: text().primaryKey(), // chl_…
    partnerId: partnerRef(),
    channelId: text()
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    externalId: text().notNull(),
    ...catalogPlace(),
    quantity: integer().notNull(),
    seats: jsonb().$type<ChannelSeat[]>(),
    soldWhole: boolean().notNull(),
    currency: text().notNull(),
    /** Price per ticket, minor units. */
    priceMinor: bigint({ mode: 'number' }).notNull(),
    status: text({ enum: CHANNEL_LISTING_STATUSES }).notNull().default('ACTIVE'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('channel_listings_external_idx').on(t.channelId, t.externalId),
    index('channel_listings_channel_idx').on(t.channelId, t.status, t.createdAt),
    index('channel_listings_show_idx')
      .on(t.showPk)
      .where(sql`${t.status} in ('ACTIVE', 'RESERVED')`),
  ],
);

export const CHANNEL_SALE_STATUSES = ['PENDING_FULFILMENT', 'FULFILLED', 'REFUNDED'] as const;
export type ChannelSaleStatus = (typeof CHANNEL_SALE_STATUSES)[number];

/**
 * A sale of a channel's listing (one market listing bought): the channel is told (`channelListing.sold`)
 * and must name the partner's tickets it hands to the buyer before `fulfilBy`; otherwise the buyer is
 * refunded this part and the sale is REFUNDED. `listingId` is the market listing (no foreign key: the
 * marketplace's schema already refers to this one).
 */
export const channelSales = pgTable(
  'channel_sales',
  {
    id: text().primaryKey(), // chs_…
    partnerId: partnerRef(),
    channelId: text()
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    channelListingId: text()
      .notNull()
      .references(() => channelListings.id, { onDelete: 'cascade' }),
    listingId: text().notNull(),
    intentionId: text().notNull(),
    paymentId: text().notNull(),
    buyerEmail: text().notNull(),
    quantity: integer().notNull(),
    currency: text().notNull(),
    /** Per ticket, minor units. */
    priceMinor: bigint({ mode: 'number' }).notNull(),
    /** What the buyer paid for this part (price and buyer fee, all tickets): what a refund gives back. */
    paidMinor: bigint({ mode: 'number' }).notNull(),
    payoutMinor: bigint({ mode: 'number' }).notNull(),
    status: text({ enum: CHANNEL_SALE_STATUSES }).notNull().default('PENDING_FULFILMENT'),
    fulfilBy: timestamp({ withTimezone: true }).notNull(),
    /** The partner's ticketIds handed to the buyer. */
    ticketIds: text().array(),
    fulfilledAt: timestamp({ withTimezone: true }),
    refundedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('channel_sales_listing_idx').on(t.listingId),
    index('channel_sales_channel_idx').on(t.channelId, t.status, t.createdAt),
    index('channel_sales_due_idx')
      .on(t.fulfilBy)
      .where(sql`${t.status} = 'PENDING_FULFILMENT'`),
  ],
);

/**
 * The partner tickets a fulfilled channel sale handed over: one row per ticket, keyed by the ticket, so a
 * ticket goes to at most one channel sale however many fulfilments name it at once (the constraint is the
 * guard; the checks before it only explain a refusal).
 */
export const channelSaleTickets = pgTable(
  'channel_sale_tickets',
  {
    ticketPk: text()
      .primaryKey()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    saleId: text()
      .notNull()
      .references(() => channelSales.id, { onDelete: 'cascade' }),
    partnerId: partnerRef(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('channel_sale_tickets_sale_idx').on(t.saleId)],
);
