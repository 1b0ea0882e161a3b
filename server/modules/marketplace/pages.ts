import { eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { listings } from '@/db/schema/marketplace';
import { getListing } from './listings';

/*
 * What the fan pages read by Encore's ids (opaque, from URLs Encore handed out). Nothing here names the
 * seller: pages show listings, never who sells them. The buyer's pages read through buyer-pages.ts, the
 * seller's through sell.ts.
 */

/** One listing as anyone but its seller sees it. */
export async function listingPage(listingId: string, db: Db) {
  const [row] = await db.select({ partnerId: listings.partnerId }).from(listings).where(eq(listings.id, listingId));
  if (!row) return null;
  const { sellerEmail: _seller, ...listing } = await getListing(row.partnerId, listingId, db);
  return { partnerId: row.partnerId, listing };
}
