import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { events } from '@/db/schema/catalog';
import { tickets } from '@/db/schema/tickets';
import { shortCache } from '@/server/lib/short-cache';

/*
 * The country of the event a fan page is about (the event's `location.country`, as its partner sent it), for
 * the page's language when nothing of the fan's chose one (server/lib/i18n/locales.ts resolveLocale): the
 * buy page (/market/<eventPk>) and the sell page (/sell/<ticketPk>). The proxy asks it before a page renders
 * (a page cannot choose its own request's locale), so it is remembered a minute per page: a partner
 * changing an event's country reaches its pages within that.
 */

const EVENT_PAGE = /^\/(market|sell)\/([A-Za-z0-9_]{1,64})\/?$/;
const COUNTRY_TTL_MS = 60_000;

const countries = () => shortCache<string | null>('page-event-country', COUNTRY_TTL_MS, { maxEntries: 20_000 });

const country = sql<string | null>`${events.location}->>'country'`;

async function countryOf(kind: string, id: string, db: DbOrTx): Promise<string | null> {
  const [row] =
    kind === 'market'
      ? await db.select({ country }).from(events).where(eq(events.id, id))
      : await db
          .select({ country })
          .from(tickets)
          .innerJoin(events, eq(events.id, tickets.eventPk))
          .where(eq(tickets.id, id));
  return row?.country ?? null;
}

/** The country of the event the page at `pathname` is about, or null (another page, an unknown id, none sent). */
export async function eventCountryOfPage(pathname: string, db: DbOrTx): Promise<string | null> {
  const match = EVENT_PAGE.exec(pathname);
  if (!match) return null;
  return countries().get(`${match[1]} ${match[2]}`, () => countryOf(match[1], match[2], db));
}
