import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { events, shows } from './catalog';
import { channels, partners } from './partners';

export const CHANNEL_LISTING_STATUSES = ['ACTIVE', 'RESERVED', 'SOLD', 'CANCELLED'] as const;
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
    partnerId: text()
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    channelId: text()
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    externalId: text().notNull(),
    eventPk: text()
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    showPk: text()
      .notNull()
      .references(() => shows.id, { onDelete: 'cascade' }),
    ticketOptionId: text().notNull(),
    priceTypeId: text(),
    quantity: integer().notNull(),
    seats: jsonb().$type<ChannelSeat[]>(),
    soldWhole: boolean().notNull(),
    currency: text().notNull(),
    /** Price per ticket, minor units. */
    priceMinor: bigint({ mode: 'number' }).notNull(),
    status: text({ enum: CHANNEL_LISTING_STATUSES }).notNull().default('ACTIVE'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('channel_listings_external_idx').on(t.channelId, t.externalId),
    index('channel_listings_channel_idx').on(t.channelId, t.status, t.createdAt),
    index('channel_listings_show_idx')
      .on(t.showPk)
      .where(sql`${t.status} in ('ACTIVE', 'RESERVED')`),
  ],
);
