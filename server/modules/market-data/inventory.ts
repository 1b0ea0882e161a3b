import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/db';
import { inventories } from '@/db/schema/market-data';
import { AppError, badRequest, type ErrorDetail, notFound } from '@/server/lib/errors';
import { getEvent, priceTypesOfShows, showDirectory, showOptionCurrencies } from '@/server/modules/catalog';
import type { EventInventory, InventoryBody, InventoryDetailItem } from './inventory-schemas';

/*
 * Primary-market inventory the partner reports (PUT /v1/marketdata/events/{id}/inventory and
 * …/inventory/details): capacity at event level; released, reserved, sold out and sold percentage per
 * show and per option / price type / pair. Only the fields sent change. The buy access layer and the
 * buying pages read it (`showInventories`): a show the partner reports sold out is "sold out on primary".
 */

type Scope = { showPk: string; ticketOptionId: string; priceTypeId: string };
type Fields = Partial<Record<'capacity' | 'releasedTickets' | 'reservedSpace' | 'soldPercentage', number>> & {
  soldOut?: boolean;
};

async function eventShows(partnerId: string, ref: string, db: DbOrTx) {
  const d = showDirectory(db);
  const rows = await db
    .select({ eventPk: d.eventPk, showPk: d.showPk, showId: d.showId })
    .from(d)
    .where(and(eq(d.partnerId, partnerId), eq(d.eventRef, ref)));
  if (!rows.length) throw notFound('Event not found');
  return rows;
}

/** One upsert for many scopes: a field not sent keeps its stored value. */
async function upsert(partnerId: string, eventPk: string, rows: (Scope & Fields)[], db: DbOrTx) {
  if (!rows.length) return;
  const keep = (c: string) => sql.raw(`coalesce(excluded.${c}, inventories.${c})`);
  await db
    .insert(inventories)
    .values(
      rows.map((r) => ({
        partnerId,
        eventPk,
        showPk: r.showPk,
        ticketOptionId: r.ticketOptionId,
        priceTypeId: r.priceTypeId,
        capacity: r.capacity ?? null,
        releasedTickets: r.releasedTickets ?? null,
        reservedSpace: r.reservedSpace ?? null,
        soldOut: r.soldOut ?? null,
        soldPercentage: r.soldPercentage ?? null,
      })),
    )
    .onConflictDoUpdate({
      target: [inventories.eventPk, inventories.showPk, inventories.ticketOptionId, inventories.priceTypeId],
      set: {
        capacity: keep('capacity'),
        releasedTickets: keep('released_tickets'),
        reservedSpace: keep('reserved_space'),
        soldOut: keep('sold_out'),
        soldPercentage: keep('sold_percentage'),
        updatedAt: sql`now()`,
      },
    });
}

/** The inventory reported for an event, shows in the event's order, with their details. */
async function eventInventory(
  eventPk: string,
  shows: { showPk: string; showId: string }[],
  db: DbOrTx,
): Promise<EventInventory> {
  const rows = await db.select().from(inventories).where(eq(inventories.eventPk, eventPk));
  const fields = (r: (typeof rows)[number] | undefined) => ({
    releasedTickets: r?.releasedTickets ?? null,
    reservedSpace: r?.reservedSpace ?? null,
    soldOut: r?.soldOut ?? null,
    soldPercentage: r?.soldPercentage ?? null,
  });
  return {
    capacity: rows.find((r) => r.showPk === '')?.capacity ?? null,
    shows: shows.map((s) => ({
      showId: s.showId,
      ...fields(rows.find((r) => r.showPk === s.showPk && !r.ticketOptionId && !r.priceTypeId)),
      details: rows
        .filter((r) => r.showPk === s.showPk && (r.ticketOptionId || r.priceTypeId))
        .sort((a, b) => `${a.ticketOptionId}|${a.priceTypeId}`.localeCompare(`${b.ticketOptionId}|${b.priceTypeId}`))
        .map((r) => ({ ticketOptionId: r.ticketOptionId || null, priceTypeId: r.priceTypeId || null, ...fields(r) })),
    })),
  };
}

async function eventAnswer(partnerId: string, ref: string, db: DbOrTx) {
  const [event, shows] = await Promise.all([getEvent(partnerId, ref, db), eventShows(partnerId, ref, db)]);
  const order = new Map(event.shows.map((s, i) => [s.showId, i]));
  shows.sort((a, b) => (order.get(a.showId) ?? 0) - (order.get(b.showId) ?? 0));
  return { ...event, inventory: await eventInventory(shows[0].eventPk, shows, db) };
}

/**
 * PUT /v1/marketdata/events/{externalReferenceId}/inventory: `capacity` goes to the event, the other
 * fields to the show (`showId`, required when the event has more than one show). Answers the event.
 */
export async function putInventory(
  partnerId: string,
  ref: string,
  showId: string | undefined,
  body: InventoryBody,
  db: DbOrTx,
) {
  const shows = await eventShows(partnerId, ref, db);
  let show = shows[0];
  if (showId) {
    const found = shows.find((s) => s.showId === showId);
    if (!found)
      throw new AppError('NOT_FOUND', 'Show not found', {
        details: [{ path: 'showId', message: 'does not match a show of the event', in: 'query' }],
      });
    show = found;
  } else if (shows.length > 1) {
    throw badRequest('showId is required when the event has more than one show', [
      { path: 'showId', message: 'is required when the event has more than one show', in: 'query' },
    ]);
  }
  const { capacity, ...showLevel } = body;
  const rows: (Scope & Fields)[] = [];
  if (capacity !== undefined) rows.push({ showPk: '', ticketOptionId: '', priceTypeId: '', capacity });
  if (Object.keys(showLevel).length)
    rows.push({ showPk: show.showPk, ticketOptionId: '', priceTypeId: '', ...showLevel });
  await upsert(partnerId, show.eventPk, rows, db);
  return eventAnswer(partnerId, ref, db);
}

/**
 * PUT …/inventory/details: per ticket option, price type or pair of a show; all items or none (each
 * id checked against its show: 404 naming the item).
 */
export async function putInventoryDetails(partnerId: string, ref: string, items: InventoryDetailItem[], db: DbOrTx) {
  const shows = await eventShows(partnerId, ref, db);
  const byId = new Map(shows.map((s) => [s.showId, s]));
  const options = await showOptionCurrencies(
    shows.map((s) => s.showPk),
    db,
  );
  const priceTypes = await priceTypesOfShows(
    shows.map((s) => s.showPk),
    db,
  );
  const problems: ErrorDetail[] = [];
  const rows = new Map<string, Scope & Fields>();
  items.forEach((item, i) => {
    const show = byId.get(item.showId);
    if (!show) {
      problems.push({ path: `[${i}].showId`, message: 'does not match a show of the event', in: 'body' });
      return;
    }
    if (item.ticketOptionId && !options.get(show.showPk)?.has(item.ticketOptionId))
      problems.push({
        path: `[${i}].ticketOptionId`,
        message: 'does not match a ticket option of the show',
        in: 'body',
      });
    if (item.priceTypeId && !priceTypes.get(show.showPk)?.has(item.priceTypeId))
      problems.push({ path: `[${i}].priceTypeId`, message: 'does not match a price type of the show', in: 'body' });
    const scope = {
      showPk: show.showPk,
      ticketOptionId: item.ticketOptionId ?? '',
      priceTypeId: item.priceTypeId ?? '',
    };
    const k = `${scope.showPk}|${scope.ticketOptionId}|${scope.priceTypeId}`;
    // The same scope twice: its fields merge, the later item winning.
    rows.set(k, { ...rows.get(k), ...scope, ...item.inventory });
  });
  if (problems.length) {
    throw new AppError(
      'NOT_FOUND',
      `${problems[0].path.includes('showId') ? 'Show' : 'Ticket option or price type'} not found`,
      {
        details: problems,
      },
    );
  }
  await upsert(partnerId, shows[0].eventPk, [...rows.values()], db);
  return eventAnswer(partnerId, ref, db);
}

export interface ShowInventory {
  releasedTickets: number | null;
  reservedSpace: number | null;
  soldOut: boolean | null;
  soldPercentage: number | null;
  /** The partner reports no ticket left on primary: `soldOut`, or 100 % sold. */
  primarySoldOut: boolean;
}

/** The show-level inventory of these shows (shows without one are absent). */
export async function showInventories(showPks: string[], db: DbOrTx): Promise<Map<string, ShowInventory>> {
  const out = new Map<string, ShowInventory>();
  if (!showPks.length) return out;
  const rows = await db
    .select()
    .from(inventories)
    .where(
      and(inArray(inventories.showPk, showPks), eq(inventories.ticketOptionId, ''), eq(inventories.priceTypeId, '')),
    );
  for (const r of rows) {
    out.set(r.showPk, {
      releasedTickets: r.releasedTickets,
      reservedSpace: r.reservedSpace,
      soldOut: r.soldOut,
      soldPercentage: r.soldPercentage,
      primarySoldOut: r.soldOut === true || (r.soldPercentage !== null && r.soldPercentage >= 100),
    });
  }
  return out;
}

export const staffEventInventoryInput = z.object({
  partnerId: z.string().min(1).max(100),
  /** Our event id (evt_…). */
  eventId: z.string().min(1).max(100),
});

/**
 * Staff: every inventory row the partner pushed for one of its events (another partner's event answers
 * none), per show and option / price type, as stored with its time. The event-level capacity has no show.
 */
export async function staffEventInventory(input: z.input<typeof staffEventInventoryInput>, db: DbOrTx) {
  const { partnerId, eventId } = staffEventInventoryInput.parse(input);
  const d = showDirectory(db);
  const [rows, shows] = await Promise.all([
    db
      .select()
      .from(inventories)
      .where(and(eq(inventories.partnerId, partnerId), eq(inventories.eventPk, eventId)))
      .orderBy(asc(inventories.showPk), asc(inventories.ticketOptionId), asc(inventories.priceTypeId)),
    db
      .select({ showPk: d.showPk, showId: d.showId, showTitle: d.showTitle })
      .from(d)
      .where(and(eq(d.partnerId, partnerId), eq(d.eventPk, eventId))),
  ]);
  const showOf = new Map(shows.map((s) => [s.showPk, s]));
  return rows.map((r) => ({
    showId: r.showPk ? (showOf.get(r.showPk)?.showId ?? null) : null,
    showTitle: r.showPk ? (showOf.get(r.showPk)?.showTitle ?? null) : null,
    ticketOptionId: r.ticketOptionId || null,
    priceTypeId: r.priceTypeId || null,
    capacity: r.capacity,
    releasedTickets: r.releasedTickets,
    reservedSpace: r.reservedSpace,
    soldOut: r.soldOut,
    soldPercentage: r.soldPercentage,
    updatedAt: r.updatedAt,
  }));
}
