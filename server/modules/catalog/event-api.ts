import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '@/db';
import { events, priceTypes, shows, type StoredPrimarySalesFee, ticketOptions } from '@/db/schema/catalog';
import { AppError, badRequest, conflict, type ErrorDetail, notFound, pgErrorOf } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { transaction, type Work } from '@/server/lib/transaction';
import { fromMinorUnits, toMinorUnits } from '@/server/lib/money';
import {
  type EventCreateInput,
  type EventUpdateInput,
  type PriceTypeInput,
  type PrimarySalesFeeInput,
  type ShowInput,
  type TicketOptionInput,
  eventResponse,
  isCompleteShow,
} from './schemas';
import { notifyResaleTurnedOff, notifyShowsCancelled } from './events';

type ShowRow = typeof shows.$inferSelect;
type OptionRow = typeof ticketOptions.$inferSelect;
type PriceTypeRow = typeof priceTypes.$inferSelect;

function priceMinorOf(option: Pick<TicketOptionInput, 'price' | 'currency'>, path: string): number | null {
  if (option.price === null || option.price === undefined) return null;
  const r = toMinorUnits(option.price, option.currency);
  if ('error' in r)
    throw badRequest(`Invalid request body: ${path} ${r.error}`, [{ path, message: r.error, in: 'body' }]);
  return r.minor;
}

/**
 * A fee as stored: only `{ type, value }` (the schema lets unknown keys through for tickets), FIXED as
 * sent in major units. `null` (sent to clear it) and absent both store null; updates tell the two apart
 * before calling this (absent keeps the stored fee).
 */
function feeOf(fee: PrimarySalesFeeInput | null | undefined): StoredPrimarySalesFee | null {
  return fee ? { type: fee.type, value: fee.value } : null;
}

/** Maps a unique-index violation on a partner id to a 409 that names it. */
function rethrowUnique(err: unknown, what: Record<string, string>): never {
  const e = pgErrorOf(err);
  const name = e?.constraint_name ?? '';
  if (e?.code === '23505' && what[name]) throw conflict(what[name]);
  throw err;
}

async function insertOptions(
  tx: Tx,
  partnerId: string,
  showPk: string,
  options: TicketOptionInput[],
  path: string,
  from = 0,
) {
  if (!options.length) return;
  await tx.insert(ticketOptions).values(
    options.map((o, i) => ({
      id: newId('opt'),
      partnerId,
      showPk,
      ticketId: o.ticketId,
      position: from + i,
      title: o.title,
      description: o.description,
      currency: o.currency,
      priceMinor: priceMinorOf(o, `${path}[${i}].price`),
      stock: o.stock ?? null,
      webVisibility: o.webVisibility ?? true,
      webSoldOut: o.webSoldOut ?? null,
      area: o.area ?? null,
      primarySalesFee: feeOf(o.primarySalesFee),
    })),
  );
}

async function insertPriceTypes(tx: Tx, partnerId: string, showPk: string, list: PriceTypeInput[], from = 0) {
  if (!list.length) return;
  await tx.insert(priceTypes).values(
    list.map((p, i) => ({
      id: newId('prt'),
      partnerId,
      showPk,
      priceTypeId: p.priceTypeId,
      position: from + i,
      legacyId: p._id ?? null,
      title: p.title ?? null,
      description: p.description ?? null,
      webVisibility: p.webVisibility ?? true,
      webSoldOut: p.webSoldOut ?? null,
      stock: p.stock ?? null,
      invisible: p.invisible ?? false,
      inventory: p.inventory ?? null,
    })),
  );
}

async function insertShow(tx: Tx, partnerId: string, eventId: string, show: ShowInput, position: number, path: string) {
  const showPk = newId('shw');
  await tx.insert(shows).values({
    id: showPk,
    partnerId,
    eventId,
    showId: show.showId,
    position,
    title: show.title,
    date: show.date,
    startsAt: new Date(show.date),
    primarySalesUrl: show.primarySalesUrl ?? null,
    status: show.status ?? 'LIVE',
    images: show.images,
    configuration: show.configuration,
    location: show.location ?? null,
    showRescheduled: show.showRescheduled ?? false,
    resaleEnabled: show.resaleEnabled ?? true,
    primarySalesFee: feeOf(show.primarySalesFee),
    cancelledAt: show.status === 'CANCELLED' ? new Date() : null,
  });
  await insertOptions(tx, partnerId, showPk, show.ticketOptions, `${path}.ticketOptions`);
  await insertPriceTypes(tx, partnerId, showPk, show.priceTypes ?? []);
}

const UNIQUE_MESSAGES = (ids: string[]) => ({
  events_partner_ref_idx: 'Event already exists: use PUT /v1/events to update it',
  // Only a concurrent request adding the same show to the same event can hit this (a request's own
  // showIds are checked to be distinct).
  shows_event_show_idx: `A show with this showId was added to the event by a concurrent request (${ids.join(', ')}); retry`,
});

/** POST /v1/events: a new event with its shows, options and price types. 409 when it exists. */
export async function createEvent(partnerId: string, input: EventCreateInput, db: DbOrTx) {
  try {
    return await db.transaction(async (tx) => {
      const eventId = newId('evt');
      const [row] = await tx
        .insert(events)
        .values({
          id: eventId,
          partnerId,
          externalReferenceId: input.externalReferenceId,
          title: input.title,
          description: input.description,
          location: input.location,
          configuration: input.configuration,
          producers: input.producers ?? null,
          seating: input.seating ?? null,
          primarySalesFee: feeOf(input.primarySalesFee),
        })
        .onConflictDoNothing()
        .returning({ id: events.id });
      if (!row) throw conflict('Event already exists: use PUT /v1/events to update it');
      for (const [i, show] of input.shows.entries()) await insertShow(tx, partnerId, eventId, show, i, `shows[${i}]`);
      return getEvent(partnerId, input.externalReferenceId, tx);
    });
  } catch (err) {
    rethrowUnique(err, UNIQUE_MESSAGES(input.shows.map((s) => s.showId)));
  }
}

/**
 * PUT /v1/events: fields present replace stored values, omitted ones are kept. Shows, options and
 * price types are matched by their partner ids; ones not sent stay (never deleted by an update). A
 * changed show date marks the show rescheduled; a show sent as CANCELLED is cancelled.
 */
export async function updateEvent(partnerId: string, input: EventUpdateInput, within: Work | Db) {
  try {
    return await transaction(async (work) => {
      const { tx } = work;
      const [event] = await tx
        .select()
        .from(events)
        .where(and(eq(events.partnerId, partnerId), eq(events.externalReferenceId, input.externalReferenceId)))
        .for('update');
      if (!event) throw notFound('Event not found');

      const patch: Partial<typeof events.$inferInsert> = {};
      if (input.title !== undefined) patch.title = input.title;
      if (input.description !== undefined) patch.description = input.description;
      if (input.location !== undefined) patch.location = input.location;
      if (input.configuration !== undefined) patch.configuration = input.configuration;
      if (input.producers !== undefined) patch.producers = input.producers;
      if (input.seating !== undefined) patch.seating = input.seating;
      // Like a ticket option's price: present replaces, null clears, absent keeps.
      if (input.primarySalesFee !== undefined) patch.primarySalesFee = feeOf(input.primarySalesFee);
      await tx
        .update(events)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(eq(events.id, event.id));

      const existing = await tx.select().from(shows).where(eq(shows.eventId, event.id));
      const byShowId = new Map(existing.map((s) => [s.showId, s]));
      let nextPosition = existing.length;
      const problems: ErrorDetail[] = [];
      const cancelled: string[] = [];
      const resaleOff: string[] = [];
      for (const [i, show] of (input.shows ?? []).entries()) {
        const path = `shows[${i}]`;
        const current = byShowId.get(show.showId);
        if (!current) {
          if (!isCompleteShow(show)) {
            problems.push({ path, message: 'is a new show and must carry every required Show field', in: 'body' });
            continue;
          }
          await insertShow(tx, partnerId, event.id, show, nextPosition++, path);
          continue;
        }
        await mergeShow(tx, partnerId, current, show, path);
        if (show.status === 'CANCELLED' && current.status !== 'CANCELLED') cancelled.push(current.id);
        else if (show.resaleEnabled === false && current.resaleEnabled) resaleOff.push(current.id);
      }
      if (problems.length) {
        throw new AppError('VALIDATION_FAILED', `Invalid request body: ${problems[0].path} ${problems[0].message}`, {
          details: problems,
        });
      }
      if (cancelled.length) await cancelShows(work, cancelled);
      if (resaleOff.length) await notifyResaleTurnedOff(work, resaleOff);
      return getEvent(partnerId, input.externalReferenceId, tx);
    }, within);
  } catch (err) {
    rethrowUnique(err, UNIQUE_MESSAGES((input.shows ?? []).map((s) => s.showId)));
  }
}

async function mergeShow(tx: Tx, partnerId: string, current: ShowRow, show: Partial<ShowInput>, path: string) {
  const patch: Partial<typeof shows.$inferInsert> = {};
  if (show.title !== undefined) patch.title = show.title;
  if (show.date !== undefined && new Date(show.date).getTime() !== current.startsAt.getTime()) {
    patch.date = show.date;
    patch.startsAt = new Date(show.date);
    patch.showRescheduled = true;
  } else if (show.date !== undefined) {
    patch.date = show.date;
  }
  if (show.showRescheduled !== undefined && patch.showRescheduled === undefined)
    patch.showRescheduled = show.showRescheduled;
  if (show.primarySalesUrl !== undefined) patch.primarySalesUrl = show.primarySalesUrl;
  if (show.images !== undefined) patch.images = show.images;
  if (show.configuration !== undefined) patch.configuration = show.configuration;
  if (show.location !== undefined) patch.location = show.location;
  // Resale stays off only while false is sent: a present value always wins, true re-enables.
  if (show.resaleEnabled !== undefined) patch.resaleEnabled = show.resaleEnabled;
  if (show.primarySalesFee !== undefined) patch.primarySalesFee = feeOf(show.primarySalesFee);
  if (show.status === 'LIVE' && current.status === 'CANCELLED') {
    throw badRequest(`Invalid request body: ${path}.status a cancelled show cannot be made LIVE again`, [
      { path: `${path}.status`, message: 'a cancelled show cannot be made LIVE again', in: 'body' },
    ]);
  }
  if (Object.keys(patch).length) await tx.update(shows).set(patch).where(eq(shows.id, current.id));

  if (show.ticketOptions) await mergeTicketOptions(tx, partnerId, current.id, show.ticketOptions, path);
  if (show.priceTypes) await mergePriceTypes(tx, partnerId, current.id, show.priceTypes);
}

/** Updates the show's ticket options the partner sent again (what it leaves out is kept) and adds the new ones. */
async function mergeTicketOptions(
  tx: Tx,
  partnerId: string,
  showPk: string,
  options: TicketOptionInput[],
  path: string,
) {
  const rows = await tx.select().from(ticketOptions).where(eq(ticketOptions.showPk, showPk));
  const byId = new Map(rows.map((r) => [r.ticketId, r]));
  const fresh: TicketOptionInput[] = [];
  for (const [j, o] of options.entries()) {
    const row = byId.get(o.ticketId);
    if (!row) {
      fresh.push(o);
      continue;
    }
    const currency = o.currency ?? row.currency;
    await tx
      .update(ticketOptions)
      .set({
        title: o.title ?? row.title,
        description: o.description ?? row.description,
        currency,
        priceMinor:
          o.price !== undefined
            ? priceMinorOf({ price: o.price, currency }, `${path}.ticketOptions[${j}].price`)
            : row.priceMinor,
        stock: o.stock ?? row.stock,
        webVisibility: o.webVisibility ?? row.webVisibility,
        webSoldOut: o.webSoldOut ?? row.webSoldOut,
        area: o.area ?? row.area,
        primarySalesFee: o.primarySalesFee !== undefined ? feeOf(o.primarySalesFee) : row.primarySalesFee,
      })
      .where(eq(ticketOptions.id, row.id));
  }
  await insertOptions(tx, partnerId, showPk, fresh, `${path}.ticketOptions`, rows.length);
}

/** Updates the show's price types the partner sent again (what it leaves out is kept) and adds the new ones. */
async function mergePriceTypes(tx: Tx, partnerId: string, showPk: string, types: PriceTypeInput[]) {
  const rows = await tx.select().from(priceTypes).where(eq(priceTypes.showPk, showPk));
  const byId = new Map(rows.map((r) => [r.priceTypeId, r]));
  const fresh: PriceTypeInput[] = [];
  for (const p of types) {
    const row = byId.get(p.priceTypeId);
    if (!row) {
      fresh.push(p);
      continue;
    }
    await tx
      .update(priceTypes)
      .set({
        legacyId: p._id !== undefined ? p._id : row.legacyId,
        title: p.title ?? row.title,
        description: p.description ?? row.description,
        webVisibility: p.webVisibility ?? row.webVisibility,
        webSoldOut: p.webSoldOut ?? row.webSoldOut,
        stock: p.stock ?? row.stock,
        invisible: p.invisible ?? row.invisible,
        inventory: p.inventory !== undefined ? p.inventory : row.inventory,
      })
      .where(eq(priceTypes.id, row.id));
  }
  await insertPriceTypes(tx, partnerId, showPk, fresh, rows.length);
}

/**
 * Cancels shows: status CANCELLED, unavailable for sales and transfers. The rest of a cancellation is other
 * modules' reactions to the Show cancellation event (events.ts), wired in server/wiring.ts and run in this
 * transaction: tickets invalidates the shows' tickets; the marketplace ends their listings and refunds what
 * was sold (payouts cancelled); channels closes their channel sales as refunded. A new consequence is a new
 * reaction, not a change here. The shows are updated first: a ticket import holds a share lock on the shows it
 * checks, so it either commits before this (and its tickets are invalidated with the others) or sees the show
 * cancelled.
 */
async function cancelShows(work: Work, showPks: string[]): Promise<void> {
  if (!showPks.length) return;
  const { tx } = work;
  // The guard: a show is cancelled once. Only the shows this statement moves to CANCELLED go on to the
  // reactions (refunds, mails, webhooks); a repeated or concurrent cancellation waits for the row lock,
  // finds the show cancelled and changes nothing, mails no one.
  const changed = await tx
    .update(shows)
    .set({ status: 'CANCELLED', cancelledAt: sql`coalesce(${shows.cancelledAt}, now())` })
    .where(and(inArray(shows.id, showPks), ne(shows.status, 'CANCELLED')))
    .returning({ id: shows.id });
  if (!changed.length) return;
  // The reactions (tickets, marketplace, channels) run in this transaction, on the shows that changed only.
  await notifyShowsCancelled(
    work,
    changed.map((c) => c.id),
  );
}

/** POST /v1/events/{externalReferenceId}/cancellation, optionally for one show. */
export async function cancelEvent(
  partnerId: string,
  externalReferenceId: string,
  showId: string | undefined,
  within: Work | Db,
) {
  return transaction(async (work) => {
    const { tx } = work;
    const [event] = await tx
      .select()
      .from(events)
      .where(and(eq(events.partnerId, partnerId), eq(events.externalReferenceId, externalReferenceId)))
      .for('update');
    if (!event) throw notFound('Event not found');
    const targets = await tx
      .select({ id: shows.id })
      .from(shows)
      .where(and(eq(shows.eventId, event.id), showId ? eq(shows.showId, showId) : undefined));
    if (showId && targets.length === 0) throw notFound('Show not found');
    await cancelShows(
      work,
      targets.map((t) => t.id),
    );
    if (!showId) {
      await tx
        .update(events)
        .set({ cancelledAt: sql`coalesce(${events.cancelledAt}, now())`, updatedAt: sql`now()` })
        .where(and(eq(events.id, event.id), isNull(events.cancelledAt)));
    }
    return getEvent(partnerId, externalReferenceId, tx);
  }, within);
}

function optionOut(o: OptionRow) {
  return {
    title: o.title,
    ticketId: o.ticketId,
    description: o.description,
    currency: o.currency,
    price: fromMinorUnits(o.priceMinor, o.currency),
    ...(o.stock !== null ? { stock: o.stock } : {}),
    webVisibility: o.webVisibility,
    ...(o.webSoldOut !== null ? { webSoldOut: o.webSoldOut } : {}),
    ...(o.area !== null ? { area: o.area } : {}),
    ...(o.primarySalesFee !== null ? { primarySalesFee: o.primarySalesFee } : {}),
  };
}

function priceTypeOut(p: PriceTypeRow) {
  return {
    priceTypeId: p.priceTypeId,
    ...(p.legacyId !== null ? { _id: p.legacyId } : {}),
    ...(p.title !== null ? { title: p.title } : {}),
    ...(p.description !== null ? { description: p.description } : {}),
    webVisibility: p.webVisibility,
    ...(p.webSoldOut !== null ? { webSoldOut: p.webSoldOut } : {}),
    ...(p.stock !== null ? { stock: p.stock } : {}),
    invisible: p.invisible,
    ...(p.inventory !== null ? { inventory: p.inventory } : {}),
  };
}

/** The event as the API answers it, with the response-side defaults filled. 404 for another partner's. */
export async function getEvent(partnerId: string, externalReferenceId: string, db: DbOrTx) {
  const [event] = await db
    .select()
    .from(events)
    .where(and(eq(events.partnerId, partnerId), eq(events.externalReferenceId, externalReferenceId)));
  if (!event) throw notFound('Event not found');
  const showRows = await db.select().from(shows).where(eq(shows.eventId, event.id)).orderBy(asc(shows.position));
  const pks = showRows.map((s) => s.id);
  const [options, types] = pks.length
    ? await Promise.all([
        db.select().from(ticketOptions).where(inArray(ticketOptions.showPk, pks)).orderBy(asc(ticketOptions.position)),
        db.select().from(priceTypes).where(inArray(priceTypes.showPk, pks)).orderBy(asc(priceTypes.position)),
      ])
    : [[], []];
  // Through the response schema: it fills the response-side defaults and drops anything internal.
  return eventResponse.parse({
    title: event.title,
    description: event.description,
    externalReferenceId: event.externalReferenceId,
    location: (event.location as Record<string, unknown>) ?? {},
    configuration: event.configuration as Record<string, unknown>,
    ...(event.producers !== null ? { producers: event.producers as unknown[] } : {}),
    ...(event.seating !== null ? { seating: event.seating as Record<string, unknown> } : {}),
    ...(event.primarySalesFee !== null ? { primarySalesFee: event.primarySalesFee } : {}),
    shows: showRows.map((s) => ({
      title: s.title,
      date: s.date,
      showId: s.showId,
      ...(s.primarySalesUrl !== null ? { primarySalesUrl: s.primarySalesUrl } : {}),
      status: s.status,
      ticketOptions: options.filter((o) => o.showPk === s.id).map(optionOut),
      priceTypes: types.filter((p) => p.showPk === s.id).map(priceTypeOut),
      images: s.images as Record<string, unknown>[],
      configuration: s.configuration as Record<string, unknown>,
      showRescheduled: s.showRescheduled,
      ...(s.location !== null ? { location: s.location as Record<string, unknown> } : {}),
      resaleEnabled: s.resaleEnabled,
      ...(s.primarySalesFee !== null ? { primarySalesFee: s.primarySalesFee } : {}),
    })),
  });
}
