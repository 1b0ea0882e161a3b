import { eq } from 'drizzle-orm';
import { type Db, getDb } from '@/db';
import { buyIntentions, listings } from '@/db/schema/marketplace';
import { showDirectory } from '@/server/modules/catalog';
import { getBuyIntention } from './intentions';
import { getListing, listedTickets } from './listings';

/*
 * What the fan pages read by Encore's ids (opaque, from URLs Encore handed out). Nothing here names the
 * seller: pages show listings, never who sells them.
 */

/** The event's market: its shows and every listing on sale (one show's with `showPk`). */
export async function marketPage(eventPk: string, showPk?: string, db: Db = getDb()) {
  const show = showDirectory(db);
  const shows = await db
    .select({
      partnerId: show.partnerId,
      eventRef: show.eventRef,
      eventTitle: show.eventTitle,
      showPk: show.showPk,
      showId: show.showId,
      showTitle: show.showTitle,
      startsAt: show.startsAt,
      status: show.showStatus,
    })
    .from(show)
    .where(eq(show.eventPk, eventPk))
    .orderBy(show.startsAt);
  if (!shows.length) return null;
  const chosen = showPk ? shows.find((s) => s.showPk === showPk) : undefined;
  const listed = await listedTickets(shows[0].partnerId, shows[0].eventRef, chosen?.showId, db);
  return {
    partnerId: shows[0].partnerId,
    title: shows[0].eventTitle,
    shows: shows.map(({ partnerId: _p, eventRef: _r, eventTitle: _t, ...s }) => s),
    show: chosen ?? null,
    listed,
  };
}

/** One listing as a buyer sees it. */
export async function listingPage(listingId: string, db: Db = getDb()) {
  const [row] = await db.select({ partnerId: listings.partnerId }).from(listings).where(eq(listings.id, listingId));
  if (!row) return null;
  const { sellerEmail: _seller, ...listing } = await getListing(row.partnerId, listingId, db);
  return { partnerId: row.partnerId, listing };
}

/** A buy intention as its buyer sees it (its hold released first if its time is up). */
export async function intentionPage(intentionId: string, db: Db = getDb()) {
  const [row] = await db
    .select({ partnerId: buyIntentions.partnerId })
    .from(buyIntentions)
    .where(eq(buyIntentions.id, intentionId));
  if (!row) return null;
  return { partnerId: row.partnerId, intention: await getBuyIntention(row.partnerId, intentionId, db) };
}

/** The listings a checkout URL names, with what they cost in total (nothing is held until paying starts). */
export async function checkoutPage(listingIds: string[], db: Db = getDb()) {
  const found = (await Promise.all(listingIds.slice(0, 50).map((id) => listingPage(id, db)))).filter((f) => f !== null);
  return found.map((f) => f.listing);
}
