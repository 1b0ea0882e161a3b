import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { events, shows } from './catalog';
import { partnerRef, timestamps } from './columns';

/**
 * Sell banners staff configure for a partner, one of its events or one show (spec "Access-layer
 * objects": `sellBanner`), with the rules that decide when the access layer shows them.
 */
export const banners = pgTable(
  'banners',
  {
    id: text().primaryKey(), // bnr_…
    partnerId: partnerRef(),
    eventPk: text().references(() => events.id, { onDelete: 'cascade' }),
    showPk: text().references(() => shows.id, { onDelete: 'cascade' }),
    /** Where it appears: the sell access layer, the buy access layer, or both. */
    placement: text({ enum: ['SELL', 'BUY', 'BOTH'] }).notNull(),
    title: text().notNull(),
    description: text().notNull().default(''),
    imageUrl: text(),
    backgroundColor: text(),
    textColor: text(),
    ctaText: text().notNull(),
    /** Where the button leads; null: Encore's page for the placement (resale entry, or the show's market). */
    ctaUrl: text(),
    ctaEnabled: boolean().notNull().default(true),
    ctaBackgroundColor: text(),
    ctaTextColor: text(),
    /** Visibility rules: all that are set must hold. */
    onlyWhenPrimarySoldOut: boolean().notNull().default(false),
    hoursBeforeShow: integer(),
    onlyForSellersWithSellable: boolean().notNull().default(false),
    active: boolean().notNull().default(true),
    ...timestamps(),
  },
  (t) => [index('banners_partner_idx').on(t.partnerId, t.createdAt)],
);
