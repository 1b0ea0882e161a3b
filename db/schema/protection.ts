import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { events, shows } from './catalog';
import { partnerRef } from './columns';

/**
 * Ticket protection as staff set it. One row per scope: the partner (its defaults: the hours
 * before the show a code unlocks, whether it reissues tickets after a resale), one of its events or one
 * show (the protection switch and an unlock override). `scope` is the partner's, event's or show's own
 * id, so each scope has at most one row. A column left null inherits from the wider scope.
 */
export const protectionSettings = pgTable(
  'protection_settings',
  {
    scope: text().primaryKey(),
    partnerId: partnerRef(),
    eventPk: text().references(() => events.id, { onDelete: 'cascade' }),
    showPk: text().references(() => shows.id, { onDelete: 'cascade' }),
    /** Protection on or off (event and show scopes; null: inherit, and on by default). */
    active: boolean(),
    /** Hours before the show the code unlocks (partner scope: the default; event and show: a staff override). */
    unlockHours: integer(),
    /** Partner scope: the partner reissues a ticket (new `ticketAccess`) after a resale or transfer. */
    reissue: boolean(),
    updatedBy: text(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('protection_settings_partner_idx').on(t.partnerId)],
);
