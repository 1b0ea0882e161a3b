import type { Db } from '@/db';
import { BUY_PAGE_OFFERS_MS } from '@/server/lib/freshness';
import { shortCache } from '@/server/lib/short-cache';
import { buyAccessLayer } from './buy';
import type { BuyAccessLayerResponse } from './schemas';

/**
 * The buy access layer as the widget reads it (a publishable key's GET), shared by every fan's
 * browser asking for one show of one partner in one language in this process for BUY_PAGE_OFFERS_MS, one
 * read in flight at a time: in a sold-out show's rush every fan on the partner's event page asks for the same
 * answer twice a minute, and each is then a memory read, not five queries.
 *
 * Why it is correct: the answer is the same for every caller of the partner (no fan, no token in it), and it
 * is at most BUY_PAGE_OFFERS_MS (plus the read's own time) older than a live read, as the buy page's offers
 * are; in this process a listing write (the marketplace's listings-changed event) forgets it at once. The widget itself shows it up to 30 s (its refresh), and Buy leads to the buy page,
 * which reads afresh. A secret key's call reads live: a partner's server may read what it has just written.
 */
const widgetLayers = shortCache<BuyAccessLayerResponse>(
  'widget-buy-layers',
  BUY_PAGE_OFFERS_MS,
  // An answer's size: its JSON, about two bytes a character (the map's SVG is most of a big one).
  { sizeOf: (answer) => JSON.stringify(answer).length * 2, maxBytes: 32 * 1024 * 1024 },
);

export function sharedBuyAccessLayer(
  partnerId: string,
  partnerName: string,
  q: { eventId: string; showId: string; lang?: string },
  db: Db,
): Promise<BuyAccessLayerResponse> {
  const key = JSON.stringify([partnerId, partnerName, q.eventId, q.showId, q.lang ?? null]);
  return widgetLayers.get(key, () => buyAccessLayer(partnerId, partnerName, q, db));
}

/** Anything the answers could show changed in this process: the next widget read is live. */
export function forgetWidgetLayers(): void {
  widgetLayers.forget();
}
