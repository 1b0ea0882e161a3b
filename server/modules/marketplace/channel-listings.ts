import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '@/db';
import { type ChannelSeat, listingItems, listings } from '@/db/schema/marketplace';
import { newId } from '@/server/lib/ids';
import { channelSeller } from './channel-seller';
import { endOpenListings, releaseExpired } from './intentions';
import { holdIsOver, statusNowIs } from './holds';
import { listingsChangedAfterCommit } from './events';

/*
 * Channels' listings in the market. A channel's listing (server/modules/channels) is mirrored here as
 * ordinary market listings, so everything that shows, holds and sells listings (listed tickets, the
 * buying pages, the buy access layer, buy intentions and their one-statement claim) treats both kinds
 * alike and the marketplace's guarantees (one hold per listing) hold across them. A listing sold whole
 * is one market listing (PACK, or SINGLE of one ticket); a split one of N tickets is N SINGLEs, one per
 * slot. They have no listing items: the tickets stay the channel's until it fulfils a sale.
 */

export { channelSeller } from './channel-seller';

export interface ChannelMarketSpec {
  channelListingId: string;
  partnerId: string;
  channelId: string;
  eventPk: string;
  showPk: string;
  ticketOptionId: string;
  priceTypeId: string | null;
  quantity: number;
  seats: ChannelSeat[] | null;
  soldWhole: boolean;
  currency: string;
  priceMinor: number;
}

const seatOf = ({ ticketId, ...seating }: ChannelSeat) => (ticketId ? { ticketId, seating } : { seating });

/** The market listings a channel listing becomes, slot by slot. */
function slotsOf(spec: ChannelMarketSpec) {
  const whole = spec.soldWhole || spec.quantity === 1;
  const seats = spec.seats?.map(seatOf) ?? null;
  return whole
    ? [{ slot: 0, ticketCount: spec.quantity, seats }]
    : Array.from({ length: spec.quantity }, (_, i) => ({
        slot: i,
        ticketCount: 1,
        seats: seats ? [seats[i]] : null,
      }));
}

/**
 * Locks the market listings of these channel listings (a buyer's claim waits behind it, and this waits
 * behind a claim under way) and answers the channel listings that cannot change now: a part RESERVED by
 * a buyer paying for it, or SOLD.
 */
export async function lockChannelMarketListings(
  tx: Tx,
  channelListingIds: string[],
): Promise<Map<string, 'RESERVED' | 'SOLD'>> {
  const out = new Map<string, 'RESERVED' | 'SOLD'>();
  if (!channelListingIds.length) return out;
  // A hold whose time is up ends here, in this write's transaction (reads count it as free, never end
  // it); before the row locks, so the intention is locked before its listings as a buyer's claim does.
  const expired = await tx
    .select({ id: listings.id })
    .from(listings)
    .where(and(inArray(listings.channelListingId, channelListingIds), holdIsOver()));
  if (expired.length) await releaseExpired(tx, { listingIds: expired.map((r) => r.id) });
  const rows = await tx
    .select({ channelListingId: listings.channelListingId, status: listings.status })
    .from(listings)
    .where(inArray(listings.channelListingId, channelListingIds))
    .orderBy(listings.id)
    .for('update');
  for (const r of rows) {
    if (r.status === 'RESERVED') out.set(r.channelListingId!, 'RESERVED');
    else if (r.status === 'SOLD' && !out.has(r.channelListingId!)) out.set(r.channelListingId!, 'SOLD');
  }
  return out;
}

/**
 * Puts channel listings on sale as they are now (after lockChannelMarketListings said none is held or
 * sold): each slot's market listing is created or replaced in place (ACTIVE again, new price, seats and
 * scope), and slots beyond a smaller new quantity are cancelled. Two statements for any number of listings.
 */
export async function putChannelListingsOnSale(tx: Tx, specs: ChannelMarketSpec[]): Promise<void> {
  if (!specs.length) return;
  const rows = specs.flatMap((spec) =>
    slotsOf(spec).map((s) => ({
      id: newId('lst'),
      partnerId: spec.partnerId,
      eventPk: spec.eventPk,
      showPk: spec.showPk,
      ticketOptionId: spec.ticketOptionId,
      priceTypeId: spec.priceTypeId,
      sellerEmail: channelSeller(spec.channelId),
      type: s.ticketCount > 1 ? ('PACK' as const) : ('SINGLE' as const),
      status: 'ACTIVE' as const,
      currency: spec.currency,
      priceMinor: spec.priceMinor,
      ticketCount: s.ticketCount,
      channelListingId: spec.channelListingId,
      channelSlot: s.slot,
      channelSeats: s.seats,
    })),
  );
  // Parameters per statement stay well under PostgreSQL's 65,535.
  for (let i = 0; i < rows.length; i += 2000) {
    await tx
      .insert(listings)
      .values(rows.slice(i, i + 2000))
      .onConflictDoUpdate({
        target: [listings.channelListingId, listings.channelSlot],
        targetWhere: sql`${listings.channelListingId} is not null`,
        set: {
          eventPk: sql`excluded.event_pk`,
          showPk: sql`excluded.show_pk`,
          ticketOptionId: sql`excluded.ticket_option_id`,
          priceTypeId: sql`excluded.price_type_id`,
          type: sql`excluded.type`,
          status: sql`'ACTIVE'`,
          currency: sql`excluded.currency`,
          priceMinor: sql`excluded.price_minor`,
          ticketCount: sql`excluded.ticket_count`,
          channelSeats: sql`excluded.channel_seats`,
          reservedBy: null,
          updatedAt: sql`now()`,
        },
        setWhere: sql`${listings.status} not in ('RESERVED', 'SOLD')`,
      });
  }
  const slots = specs.map((s) => ({ id: s.channelListingId, slots: slotsOf(s).length }));
  await tx.execute(sql`
    update ${listings} l set status = 'CANCELLED', updated_at = now()
    from json_to_recordset(${JSON.stringify(slots)}::json) as x(id text, slots int)
    where l.channel_listing_id = x.id and l.channel_slot >= x.slots and l.status in ('ACTIVE', 'UNLISTED')`);
  listingsChangedAfterCommit(tx);
}

/**
 * Takes channel listings' open market listings off sale with the holds on them: CANCELLED (the channel
 * deleted it) or UNLISTED (the channel was disabled). Sold ones stay sold.
 */
export async function takeChannelListingsOffSale(
  tx: Tx,
  where: { channelListingIds: string[] } | { channelId: string },
  status: 'CANCELLED' | 'UNLISTED',
): Promise<number> {
  const scope =
    'channelId' in where
      ? eq(listings.sellerEmail, channelSeller(where.channelId))
      : where.channelListingIds.length
        ? inArray(listings.channelListingId, where.channelListingIds)
        : undefined;
  if (!scope) return 0;
  const open = await tx
    .select({ id: listings.id })
    .from(listings)
    .where(and(scope, inArray(listings.status, ['ACTIVE', 'RESERVED'])))
    .for('update');
  const ids = open.map((l) => l.id);
  if (!ids.length) return 0;
  await endOpenListings(tx, ids, status);
  return ids.length;
}

// The channels module's table, named in full inside the subqueries below: an unqualified "id" there would
// be the market listing's own.
const CHANNEL_LISTING = sql.raw('"channel_listings"');

/**
 * A channel listing's state as its channel sees it, from its market listings (SQL over `channel_listings`
 * rows, which must be in the query's FROM under that name): CANCELLED when the channel deleted it;
 * otherwise RESERVED while a buyer pays for a part, ACTIVE while a part is on sale, UNLISTED when the
 * market took it off sale, SOLD once sold, CANCELLED when a cascade ended it.
 */
export function channelListingState(): SQL<string> {
  return sql<string>`case when ${CHANNEL_LISTING}.status = 'CANCELLED' then 'CANCELLED' else coalesce((
    select case
      when bool_or(${statusNowIs('RESERVED', 'l')}) then 'RESERVED'
      when bool_or(${statusNowIs('ACTIVE', 'l')}) then 'ACTIVE'
      when bool_or(l.status = 'UNLISTED') then 'UNLISTED'
      when bool_or(l.status = 'SOLD') then 'SOLD'
      else 'CANCELLED' end
    from ${listings} l where l.channel_listing_id = ${CHANNEL_LISTING}.id), ${CHANNEL_LISTING}.status) end`;
}

/** How many of a channel listing's tickets are sold (SQL, as channelListingState). */
export function channelListingSoldCount(): SQL<number> {
  return sql<number>`(select coalesce(sum(l.ticket_count) filter (where l.status = 'SOLD'), 0)::int
    from ${listings} l where l.channel_listing_id = ${CHANNEL_LISTING}.id)`.mapWith(Number);
}

/** The open listing items of these tickets: read after their row locks, it is what a change of hands must see. */
export async function openItemsOf(tx: Tx, ticketPks: string[]) {
  if (!ticketPks.length) return [];
  return tx
    .select({ ticketPk: listingItems.ticketPk, ticketId: listingItems.ticketId, listingId: listingItems.listingId })
    .from(listingItems)
    .where(and(inArray(listingItems.ticketPk, ticketPks), eq(listingItems.open, true)));
}

/** Which of these tickets are in an open listing (a fan's listing on sale or held): not the channel's to hand over. */
export async function ticketsInOpenListings(tx: Tx, ticketPks: string[]): Promise<string[]> {
  return (await openItemsOf(tx, ticketPks)).map((r) => r.ticketPk);
}
