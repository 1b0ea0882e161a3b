import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { channelListings } from './channels';
import { partners } from './partners';
import { tickets } from './tickets';
import { catalogPlace, fanLocale, partnerRef, timestamps } from './columns';

/** A seat as a channel gives it, which the market listings of a channel's listing mirror (channel_listings.seats). */
export type { ChannelSeat } from './channels';

/**
 * A partner's market terms, set by staff: the buyer's service fee and the seller's fee (a percentage
 * of the price and/or a fixed amount in major units of the listing's currency) and how long after the
 * show a seller is paid. No row: no fees, paid on the show's day.
 */
export const marketSettings = pgTable('market_settings', {
  partnerId: text()
    .primaryKey()
    .references(() => partners.id, { onDelete: 'cascade' }),
  buyerFeePercent: numeric({ precision: 7, scale: 4 }).notNull().default('0'),
  buyerFeeFixed: numeric({ precision: 14, scale: 4 }).notNull().default('0'),
  sellerFeePercent: numeric({ precision: 7, scale: 4 }).notNull().default('0'),
  sellerFeeFixed: numeric({ precision: 14, scale: 4 }).notNull().default('0'),
  payoutDelayDays: integer().notNull().default(0),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const LISTING_STATUSES = ['ACTIVE', 'RESERVED', 'SOLD', 'UNLISTED', 'CANCELLED'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

/**
 * A fan's offer to sell one ticket (SINGLE) or several of one order sold whole (PACK), at a price per
 * ticket. ACTIVE: buyable · RESERVED: held by one buy intention (`reservedBy`) · SOLD · UNLISTED: taken
 * off sale by its seller or the partner (can be listed again) · CANCELLED: ended for good (show
 * cancelled, ticket deleted).
 */
export const listings = pgTable(
  'listings',
  {
    id: text().primaryKey(),
    partnerId: partnerRef(),
    ...catalogPlace(),
    sellerEmail: text().notNull(),
    type: text({ enum: ['SINGLE', 'PACK'] }).notNull(),
    status: text({ enum: LISTING_STATUSES }).notNull().default('ACTIVE'),
    currency: text().notNull(),
    /** Asking price per ticket, minor units. */
    priceMinor: bigint({ mode: 'number' }).notNull(),
    ticketCount: integer().notNull(),
    orderId: text(),
    reservedBy: text(),
    soldAt: timestamp({ withTimezone: true }),
    /**
     * A channel's listing in the market (no listing items: the channel holds the tickets until a sale is
     * fulfilled). One market listing per `channelSlot`: a listing sold whole is one, a split one of N
     * tickets is N singles. `sellerEmail` is then the channel's marker address (marketplace channelSeller), never mailed.
     */
    channelListingId: text().references(() => channelListings.id, { onDelete: 'cascade' }),
    channelSlot: integer(),
    /** The channel's seats, in the shape listed tickets answer: `[{ ticketId?, seating }]`. */
    channelSeats: jsonb().$type<{ ticketId?: string; seating: Record<string, unknown> }[]>(),
    /** The seller's language (the page they listed on): their mails about this listing are in it. */
    locale: fanLocale(),
    ...timestamps(),
  },
  (t) => [
    index('listings_show_status_idx').on(t.showPk, t.status),
    index('listings_partner_status_idx').on(t.partnerId, t.status, t.createdAt),
    // The staff overview's range scans, index-only: the range's column first, then what the figures read.
    index('listings_sold_idx')
      .on(t.soldAt, t.id, t.partnerId, t.eventPk, t.currency, t.priceMinor, t.ticketCount, t.createdAt)
      .where(sql`${t.soldAt} is not null`),
    index('listings_created_idx').on(t.createdAt, t.partnerId, t.eventPk, t.soldAt),
    uniqueIndex('listings_channel_slot_idx')
      .on(t.channelListingId, t.channelSlot)
      .where(sql`${t.channelListingId} is not null`),
  ],
);

/**
 * The tickets of a listing. `open` while the listing is ACTIVE or RESERVED: a ticket is in at most one
 * open listing (the partial unique index), so two sellers (or two tabs) can never list it twice.
 */
export const listingItems = pgTable(
  'listing_items',
  {
    listingId: text()
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    ticketPk: text()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    partnerId: text().notNull(),
    /** The partner's ticketId and `props.seating`, copied when listed: what buyers see, read without the tickets table. */
    ticketId: text().notNull(),
    seating: jsonb(),
    open: boolean().notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.listingId, t.ticketPk] }),
    uniqueIndex('listing_items_open_ticket_idx')
      .on(t.ticketPk)
      .where(sql`${t.open}`),
    index('listing_items_ticket_idx').on(t.ticketPk),
  ],
);

export const INTENTION_STATUSES = ['PENDING', 'COMPLETED', 'EXPIRED', 'CANCELLED'] as const;

/**
 * A buyer's hold on listings of one event, show and ticket option while they pay. PENDING until paid
 * (COMPLETED), until `expiresAt` passes (EXPIRED: the listings are ACTIVE again) or until a cascade
 * ends it (CANCELLED). Amounts are fixed when it is made: what the buyer was shown is what is charged.
 */
export const buyIntentions = pgTable(
  'buy_intentions',
  {
    id: text().primaryKey(),
    partnerId: partnerRef(),
    buyerEmail: text().notNull(),
    status: text({ enum: INTENTION_STATUSES }).notNull().default('PENDING'),
    listingIds: text().array().notNull(),
    currency: text().notNull(),
    subtotalMinor: bigint({ mode: 'number' }).notNull(),
    buyerFeeMinor: bigint({ mode: 'number' }).notNull(),
    totalMinor: bigint({ mode: 'number' }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    paymentId: text(),
    /** Why a paid purchase was refused (shown to the buyer). */
    endReason: text(),
    /** A completed purchase whose payment was refunded afterwards (show cancelled, staff): when and why. */
    refundedAt: timestamp({ withTimezone: true }),
    refundReason: text({ enum: ['SHOW_CANCELLED', 'STAFF_REFUND'] }),
    /** The buyer's language (the page they paid from): their purchase and refund mails are in it. */
    locale: fanLocale(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('buy_intentions_pending_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'PENDING'`),
  ],
);

/**
 * The payout ledger: what each seller is owed for each sale. SCHEDULED at the sale, due `payoutDelayDays`
 * after the show; PAID once transferred; CANCELLED when the sale is refunded (show cancelled, refund).
 */
export const payouts = pgTable(
  'payouts',
  {
    id: text().primaryKey(),
    partnerId: partnerRef(),
    sellerEmail: text().notNull(),
    listingId: text()
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    intentionId: text().notNull(),
    currency: text().notNull(),
    amountMinor: bigint({ mode: 'number' }).notNull(),
    status: text({ enum: ['SCHEDULED', 'PAID', 'CANCELLED'] })
      .notNull()
      .default('SCHEDULED'),
    /*
     * The sale's split, fixed in the purchase's transaction (migration 0036): the ticket prices of the
     * listing (`grossMinor` = payout + sellerFee + partnerFee), the buyer fee paid on them, Encore's seller
     * fee and the partner's primary sales fee actually taken. Sales before 0036: seller and partner fee
     * null ("not recorded"); gross and buyer fee backfilled.
     */
    grossMinor: bigint({ mode: 'number' }),
    buyerFeeMinor: bigint({ mode: 'number' }),
    sellerFeeMinor: bigint({ mode: 'number' }),
    partnerFeeMinor: bigint({ mode: 'number' }),
    /*
     * The face value of the sale's tickets (migration 0038): the sum of each ticket's price as the partner
     * sent it, else its ticket option's, fixed at the sale. Null when not known for every ticket of the
     * sale in the listing's currency (a price missing, another currency, a channel's tickets not yet handed
     * over, sales before 0038 that could not be backfilled): the overview reads those sales' tickets instead.
     */
    faceMinor: bigint({ mode: 'number' }),
    dueAt: timestamp({ withTimezone: true }).notNull(),
    paidAt: timestamp({ withTimezone: true }),
    /** The sale's moment: inserted in the purchase's transaction, so equal to its listing's `soldAt`. */
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payouts_listing_idx').on(t.listingId),
    index('payouts_seller_idx').on(t.partnerId, t.sellerEmail, t.status),
    index('payouts_created_idx').on(t.createdAt),
    index('payouts_face_unknown_idx')
      .on(t.createdAt)
      .where(sql`${t.faceMinor} is null`),
  ],
);
