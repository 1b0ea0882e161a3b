import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { listingItems, listings } from '@/db/schema/marketplace';
import { sectionKey } from '@/server/lib/svg';
import { buyerFeeMinor, isBuyableNow, marketTerms } from '@/server/modules/marketplace';
import { showTicketSections } from '@/server/modules/tickets';

/** A section of a show's venue as the seat map shows it. */
export interface SectionFigures {
  /** As the first ticket naming it writes it. */
  name: string;
  /** `sectionKey(name)`: how the map's elements match it. */
  key: string;
  /** Tickets on sale now in the section. */
  available: number;
  /** The cheapest of them per ticket, with the buyer's fee (minor units); null when none is on sale. */
  minPerTicketMinor: number | null;
  currency: string | null;
}

/**
 * Every section the show's tickets name, with what is on sale in each now (three statements): a listing's
 * tickets count in their own sections, a channel's seats in theirs. Sections with nothing on sale are
 * listed with 0. In the order of their names.
 */
export async function showSections(partnerId: string, showPk: string, db: DbOrTx): Promise<SectionFigures[]> {
  const section = sql<string>`s.section`;
  const [onSale, named, terms] = await Promise.all([
    db
      .select({
        section,
        tickets: sql<number>`count(*)::int`,
        lowest: sql<number>`min(${listings.priceMinor})::int`,
        currency: listings.currency,
      })
      .from(listings)
      .innerJoin(
        sql`lateral (
          select i.seating ->> 'section' as section from ${listingItems} i where i.listing_id = ${listings.id}
          union all
          select c -> 'seating' ->> 'section' from jsonb_array_elements(coalesce(${listings.channelSeats}, '[]'::jsonb)) c
          where not exists (select 1 from ${listingItems} j where j.listing_id = ${listings.id})
        ) s`,
        sql`true`,
      )
      .where(
        and(
          eq(listings.partnerId, partnerId),
          eq(listings.showPk, showPk),
          inArray(listings.status, ['ACTIVE', 'RESERVED']),
          isBuyableNow(),
          sql`s.section is not null`,
        ),
      )
      .groupBy(section, listings.currency),
    showTicketSections(partnerId, showPk, db),
    marketTerms(partnerId, db),
  ]);
  const out = new Map<string, SectionFigures>();
  const entry = (name: string) => {
    const key = sectionKey(name);
    if (!key) return null;
    let figures = out.get(key);
    if (!figures)
      out.set(key, (figures = { name: name.trim(), key, available: 0, minPerTicketMinor: null, currency: null }));
    return figures;
  };
  for (const name of named) entry(name);
  for (const row of onSale) {
    const figures = entry(row.section);
    if (!figures) continue;
    figures.available += row.tickets;
    const perTicket = row.lowest + buyerFeeMinor(terms, row.lowest, row.currency);
    // A show sells in one currency; were there two, the first seen speaks for the section.
    if (
      figures.currency === null ||
      (figures.currency === row.currency && perTicket < (figures.minPerTicketMinor ?? Infinity))
    ) {
      figures.minPerTicketMinor = perTicket;
      figures.currency = row.currency;
    }
  }
  return [...out.values()].sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
}
