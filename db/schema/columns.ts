import { text, timestamp } from 'drizzle-orm/pg-core';
import type { Locale } from '@/server/lib/i18n/locales';
import { events, shows } from './catalog';
import { partners } from './partners';

/*
 * Columns many tables repeat, written once. Each call makes fresh column builders (a builder belongs to
 * one table). partners.ts and catalog.ts write theirs out: this file refers to their tables.
 */

/** The partner a row belongs to; its rows go with it. */
export const partnerRef = () =>
  text()
    .notNull()
    .references(() => partners.id, { onDelete: 'cascade' });

/** Where a row sits in the partner's catalogue: event, show, ticket option and (optional) price type. */
export const catalogPlace = () => ({
  eventPk: text()
    .notNull()
    .references(() => events.id, { onDelete: 'cascade' }),
  showPk: text()
    .notNull()
    .references(() => shows.id, { onDelete: 'cascade' }),
  ticketOptionId: text().notNull(),
  priceTypeId: text(),
});

/** When a row was made and last changed. */
export const timestamps = () => ({
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * The language of the fan page a row was made on (`en`, `es`): the fan's mails about it are written in
 * it. Null when no fan page made it (the partner API, which carries no language): DEFAULT_LANG then.
 */
export const fanLocale = () => text().$type<Locale>();
