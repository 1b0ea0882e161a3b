import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/db';
import { type ChannelSeat, channelListings } from '@/db/schema/channels';
import { AppError, type ErrorDetail, formatPath, notFound } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { fromMinorUnits, toMinorUnits } from '@/server/lib/money';
import { catalogueFor, pickResaleRules, resaleRulesOfEvents, showDirectory } from '@/server/modules/catalog';
import { transaction } from '@/server/lib/transaction';
import {
  type ChannelMarketSpec,
  channelListingSoldCount,
  channelListingState,
  type ListingProblem,
  listingSizeAndPriceProblems,
  lockChannelMarketListings,
  priceRangeFor,
  putChannelListingsOnSale,
  showRuleProblems,
  takeChannelListingsOffSale,
  ticketStateProblems,
} from '@/server/modules/marketplace';
import { protectionOf } from '@/server/modules/protection';
import { sellerTicketRows } from '@/server/modules/tickets';
import {
  type ChannelListingBody,
  channelListingBody,
  channelListingItem,
  type ChannelListingView,
  channelListingsQuery,
} from './schemas';

/** Who is calling: a channel of a partner (from its `sk_ch_` key). */
export interface ChannelCaller {
  partnerId: string;
  channelId: string;
}

/** The channel of an authenticated channels key (every `sk_ch_` key belongs to one; 403 otherwise). */
export function channelOf(key: { partnerId: string; channelId: string | null }): ChannelCaller {
  if (!key.channelId)
    throw new AppError('FORBIDDEN', 'This channels key belongs to no channel. Contact Encore support.');
  return { partnerId: key.partnerId, channelId: key.channelId };
}

interface Refusal {
  index: number;
  /** 404: the catalogue does not know an id · 409: the market's rules refuse it now · 400: the input. */
  kind: 'input' | 'missing' | 'rules';
  message: string;
  details: ErrorDetail[];
}

type Row = typeof channelListings.$inferInsert;

const at = (index: number | null, path: string) => (index === null ? path : path ? `[${index}].${path}` : `[${index}]`);

/** Which field a market rule's refusal is about. */
function fieldOf(problem: ListingProblem): string {
  if (problem.code === 'ABOVE_CAP' || problem.code === 'BELOW_FLOOR') return 'price';
  if (problem.code === 'TOO_MANY') return 'quantity';
  if (problem.code === 'INVALIDATED' || problem.code === 'ADMITTED' || problem.code === 'CODE_REVEALED') return 'seats';
  return 'showId';
}

/**
 * Judges a channel's listings against the partner's catalogue and the market's rules, all at once: the
 * events, shows, options and price types named are read in one pass, the resale rules of their events in
 * one query and the protection switches in one more; then each listing is judged on its own (the same
 * rules as a fan's listing: show LIVE with resale on and protected, the listing window, the price floor
 * and cap around the face value, tickets per listing). `single`: paths without an index.
 */
async function judge(
  caller: ChannelCaller,
  items: { raw: unknown; externalId: string | null }[],
  single: boolean,
  db: DbOrTx,
  now: Date,
): Promise<{ rows: { index: number; row: Row }[]; refusals: Refusal[] }> {
  const { parsed, refusals } = parseItems(items, single);
  // The same listing id twice in one request: the later one is stored.
  const last = new Map(parsed.map((p) => [p.externalId, p.index]));
  const market = await readMarket(caller.partnerId, parsed, db);
  const rows: { index: number; row: Row }[] = [];
  for (const item of parsed) {
    if (last.get(item.externalId) !== item.index) continue;
    const judged = judgeOne(caller, market, item, single ? null : item.index, now);
    if ('row' in judged) rows.push({ index: item.index, row: judged.row });
    else refusals.push(judged);
  }
  return { rows, refusals };
}

interface ParsedItem {
  index: number;
  externalId: string;
  body: ChannelListingBody;
}

/** Each item read against its schema; those that fail are refused as input. */
function parseItems(items: { raw: unknown; externalId: string | null }[], single: boolean) {
  const refusals: Refusal[] = [];
  const parsed: ParsedItem[] = [];
  items.forEach(({ raw, externalId }, index) => {
    const pos = single ? null : index;
    const r = (externalId === null ? channelListingItem : channelListingBody).safeParse(raw);
    if (!r.success) {
      const details = r.error.issues.map((i) => ({
        path: at(pos, formatPath(i.path)),
        message: i.message,
        in: 'body' as const,
      }));
      refusals.push({ index, kind: 'input', message: `${details[0].path || 'body'}: ${details[0].message}`, details });
      return;
    }
    const data = r.data as ChannelListingBody & { listingId?: string };
    parsed.push({ index, externalId: externalId ?? data.listingId!, body: data });
  });
  return { parsed, refusals };
}

type Market = Awaited<ReturnType<typeof readMarket>>;

/**
 * What the listings are judged against, in one pass: the catalogue entries they name, their shows, the
 * resale rules of their events, the protection switches, and the partner's tickets the seats name.
 */
async function readMarket(partnerId: string, parsed: ParsedItem[], db: DbOrTx) {
  const refs = [...new Set(parsed.map((p) => p.body.eventId))];
  const catalogue = refs.length ? await catalogueFor(db, partnerId, refs) : null;
  const showPks = catalogue ? [...catalogue.showByKey.values()].map((s) => s.pk) : [];
  const directory = showDirectory(db);
  // The partner's tickets the seats name: each is judged like a fan's (valid, not used, its code unseen
  // while the partner does not reissue after a resale).
  const namedIds = [
    ...new Set(
      parsed.flatMap((p) => (p.body.seats ?? []).map((seat) => seat.ticketId).filter((id) => id !== undefined)),
    ),
  ];
  const [showRows, ruleRows, protection, named] = await Promise.all([
    showPks.length
      ? db
          .select({
            showPk: directory.showPk,
            showStatus: directory.showStatus,
            startsAt: directory.startsAt,
            resaleEnabled: directory.resaleEnabled,
            eventPk: directory.eventPk,
          })
          .from(directory)
          .where(inArray(directory.showPk, showPks))
      : Promise.resolve([]),
    catalogue ? resaleRulesOfEvents([...catalogue.eventByRef.values()], db) : Promise.resolve([]),
    protectionOf(partnerId, db),
    sellerTicketRows(partnerId, namedIds, db),
  ]);
  return {
    catalogue,
    ruleRows,
    protection,
    namedById: new Map(named.map((t) => [t.ticketId, t])),
    showByPk: new Map(showRows.map((s) => [s.showPk, s])),
  };
}

/** One listing judged: the row to store, or why it is refused. */
function judgeOne(
  caller: ChannelCaller,
  market: Market,
  { index, externalId, body }: ParsedItem,
  pos: number | null,
  now: Date,
): Refusal | { row: Row } {
  const refuse = (kind: Refusal['kind'], field: string, message: string, detail = message): Refusal => ({
    index,
    kind,
    message,
    details: [{ path: at(pos, field), message: detail, in: 'body' }],
  });
  const found = catalogueEntries(market, body);
  if (!('eventPk' in found)) return refuse('missing', ...found.missing);
  const { eventPk, showRef, show, option } = found;
  if (body.currency !== option.currency) {
    return refuse(
      'input',
      'currency',
      `currency must be the ticket option's (${option.currency})`,
      `must be ${option.currency}`,
    );
  }
  const minor = toMinorUnits(body.price, body.currency);
  if ('error' in minor) return refuse('input', 'price', `price ${minor.error}`, minor.error);
  const comboFace = body.priceTypeId
    ? market.catalogue!.comboPrice.get(`${showRef.pk}|${body.ticketOptionId}|${body.priceTypeId}`)
    : undefined;
  const face = comboFace ?? option.priceMinor;
  const rules = pickResaleRules(market.ruleRows, {
    eventPk,
    showId: body.showId,
    ticketOptionId: body.ticketOptionId,
    priceTypeId: body.priceTypeId ?? null,
  });
  const quantity = body.seats?.length ?? body.quantity!;
  const { protection, namedById } = market;
  const problems = [
    ...showRuleProblems({ ...show, protectionActive: protection.active(eventPk, showRef.pk) }, rules, now),
    ...listingSizeAndPriceProblems(
      body.soldWhole ? quantity : 1,
      priceRangeFor({ priceMinor: face, currency: option.currency }, rules),
      rules,
      minor.minor,
    ),
    ...(body.seats ?? []).flatMap((seat) => {
      const t = seat.ticketId === undefined ? undefined : namedById.get(seat.ticketId);
      return t
        ? ticketStateProblems({ ...t, admittedAt: t.admittedAt ? new Date(t.admittedAt) : null }, protection.reissue)
        : [];
    }),
  ];
  if (problems.length) {
    return {
      index,
      kind: 'rules',
      message: problems.map((p) => p.message).join('; '),
      details: problems.map((p) => ({ path: at(pos, fieldOf(p)), message: `${p.code}: ${p.message}`, in: 'body' })),
    };
  }
  return {
    row: {
      id: newId('chl'),
      partnerId: caller.partnerId,
      channelId: caller.channelId,
      externalId,
      eventPk,
      showPk: showRef.pk,
      ticketOptionId: body.ticketOptionId,
      priceTypeId: body.priceTypeId ?? null,
      quantity,
      seats: body.seats ?? null,
      soldWhole: body.soldWhole,
      currency: body.currency,
      priceMinor: minor.minor,
      status: 'ACTIVE',
    },
  };
}

const missing = (field: string, message: string, detail: string) => ({
  missing: [field, message, detail] as [string, string, string],
});

/** The event, show, ticket option and price type a listing names, or the first it names that is unknown (a 404). */
function catalogueEntries({ catalogue, showByPk }: Market, body: ChannelListingBody) {
  const eventPk = catalogue?.eventByRef.get(body.eventId);
  if (!eventPk) return missing('eventId', 'Event not found', 'does not match an event');
  const showRef = catalogue!.showByKey.get(`${eventPk}|${body.showId}`);
  const show = showRef && showByPk.get(showRef.pk);
  if (!showRef || !show) return missing('showId', 'Show not found', 'does not match a show of the event');
  const option = catalogue!.optionByKey.get(`${showRef.pk}|${body.ticketOptionId}`);
  if (!option) {
    return missing('ticketOptionId', 'Ticket option not found', 'does not match a ticket option of the show');
  }
  if (body.priceTypeId && !catalogue!.typeSet.has(`${showRef.pk}|${body.priceTypeId}`)) {
    return missing('priceTypeId', 'Price type not found', 'does not match a price type of the show');
  }
  return { eventPk, showRef, show, option };
}

/**
 * Stores judged listings and puts them on sale, in one transaction: the market listings of those that
 * exist are locked first; one a buyer is paying for (a part RESERVED) or partly SOLD does not change and
 * comes back as refused with why. The rest are written in one statement keyed by the channel's id (a
 * CANCELLED one is on sale again) and their market listings created or replaced (marketplace).
 */
async function storeRows(caller: ChannelCaller, rows: { index: number; row: Row }[], db: DbOrTx) {
  if (!rows.length) return [] as { index: number; externalId: string; why: 'RESERVED' | 'SOLD' }[];
  return transaction(async ({ tx }) => {
    const existing = await tx
      .select({ id: channelListings.id, externalId: channelListings.externalId })
      .from(channelListings)
      .where(
        and(
          eq(channelListings.channelId, caller.channelId),
          inArray(
            channelListings.externalId,
            rows.map((r) => r.row.externalId!),
          ),
        ),
      )
      .orderBy(channelListings.id)
      .for('update');
    const locked = await lockChannelMarketListings(
      tx,
      existing.map((e) => e.id),
    );
    const lockedIds = new Map(existing.filter((e) => locked.has(e.id)).map((e) => [e.externalId, locked.get(e.id)!]));
    const free = rows.filter((r) => !lockedIds.has(r.row.externalId!));
    const written = free.length
      ? await tx
          .insert(channelListings)
          .values(free.map((r) => r.row))
          .onConflictDoUpdate({
            target: [channelListings.channelId, channelListings.externalId],
            set: {
              eventPk: sql`excluded.event_pk`,
              showPk: sql`excluded.show_pk`,
              ticketOptionId: sql`excluded.ticket_option_id`,
              priceTypeId: sql`excluded.price_type_id`,
              quantity: sql`excluded.quantity`,
              seats: sql`excluded.seats`,
              soldWhole: sql`excluded.sold_whole`,
              currency: sql`excluded.currency`,
              priceMinor: sql`excluded.price_minor`,
              status: sql`'ACTIVE'`,
              updatedAt: sql`now()`,
            },
          })
          .returning({ id: channelListings.id, externalId: channelListings.externalId })
      : [];
    const idOf = new Map(written.map((w) => [w.externalId, w.id]));
    await putChannelListingsOnSale(
      tx,
      free.map(({ row }): ChannelMarketSpec => ({
        channelListingId: idOf.get(row.externalId!)!,
        partnerId: caller.partnerId,
        channelId: caller.channelId,
        eventPk: row.eventPk,
        showPk: row.showPk,
        ticketOptionId: row.ticketOptionId,
        priceTypeId: row.priceTypeId ?? null,
        quantity: row.quantity,
        seats: row.seats ?? null,
        soldWhole: row.soldWhole,
        currency: row.currency,
        priceMinor: row.priceMinor,
      })),
    );
    return rows
      .filter((r) => lockedIds.has(r.row.externalId!))
      .map((r) => ({ index: r.index, externalId: r.row.externalId!, why: lockedIds.get(r.row.externalId!)! }));
  }, db as Db);
}

const lockedMessage = (status: string | undefined) =>
  status === 'SOLD'
    ? 'the listing is sold (all or part of it) and cannot change; delete it to take what is left off sale'
    : 'the listing is held by a buyer who is paying for it; it can change once the hold ends';

/** `PUT /v1/channels/listings/{listingId}`: creates or replaces one listing; answers it as stored. */
export async function upsertChannelListing(
  caller: ChannelCaller,
  externalId: string,
  body: unknown,
  db: DbOrTx,
  now = new Date(),
): Promise<ChannelListingView> {
  const { rows, refusals } = await judge(caller, [{ raw: body, externalId }], true, db, now);
  const refusal = refusals[0];
  if (refusal) {
    if (refusal.kind === 'missing') throw new AppError('NOT_FOUND', refusal.message, { details: refusal.details });
    if (refusal.kind === 'rules')
      throw new AppError('CONFLICT', `This listing cannot be on sale: ${refusal.message}`, {
        details: refusal.details,
      });
    throw new AppError('VALIDATION_FAILED', `Invalid request body: ${refusal.message}`, { details: refusal.details });
  }
  const [locked] = await storeRows(caller, rows, db);
  if (locked) throw new AppError('CONFLICT', `This listing cannot change: ${lockedMessage(locked.why)}`);
  return getChannelListing(caller, externalId, db);
}

/**
 * `POST /v1/channels/listings/bulk`: up to 1,000 listings, each judged on its own; the good ones are stored
 * even when others are refused. All stored: `{ stored }`. Some refused: 400 whose message counts both and
 * whose `details` name each refused listing by index (`[3].price`), so the channel re-sends only those.
 */
export async function upsertChannelListings(
  caller: ChannelCaller,
  items: unknown[],
  db: DbOrTx,
  now = new Date(),
): Promise<{ stored: number }> {
  const { rows, refusals } = await judge(
    caller,
    items.map((raw) => ({ raw, externalId: null })),
    false,
    db,
    now,
  );
  const locked = await storeRows(caller, rows, db);
  if (locked.length) {
    for (const l of locked) {
      const message = lockedMessage(l.why);
      refusals.push({
        index: l.index,
        kind: 'rules',
        message,
        details: [{ path: `[${l.index}]`, message, in: 'body' }],
      });
    }
  }
  const stored = rows.length - locked.length;
  if (refusals.length) {
    refusals.sort((a, b) => a.index - b.index);
    throw new AppError(
      'VALIDATION_FAILED',
      `${refusals.length} of ${items.length} listings were refused (${refusals
        .slice(0, 3)
        .map((r) => `[${r.index}] ${r.message}`)
        .join('; ')}${refusals.length > 3 ? '; …' : ''}); ${stored} were stored`,
      { details: refusals.flatMap((r) => r.details) },
    );
  }
  return { stored };
}

function viewColumns(directory: ReturnType<typeof showDirectory>) {
  return {
    id: channelListings.id,
    externalId: channelListings.externalId,
    status: channelListingState(),
    sold: channelListingSoldCount(),
    eventRef: directory.eventRef,
    showId: directory.showId,
    ticketOptionId: channelListings.ticketOptionId,
    priceTypeId: channelListings.priceTypeId,
    quantity: channelListings.quantity,
    seats: channelListings.seats,
    soldWhole: channelListings.soldWhole,
    currency: channelListings.currency,
    priceMinor: channelListings.priceMinor,
    createdAt: channelListings.createdAt,
    updatedAt: channelListings.updatedAt,
  };
}

type ViewRow = {
  id: string;
  externalId: string;
  status: ChannelListingView['status'];
  eventRef: string;
  showId: string;
  ticketOptionId: string;
  priceTypeId: string | null;
  quantity: number;
  sold: number;
  seats: ChannelSeat[] | null;
  soldWhole: boolean;
  currency: string;
  priceMinor: number;
  createdAt: Date;
  updatedAt: Date;
};

function viewOf(r: ViewRow): ChannelListingView {
  return {
    listingId: r.externalId,
    id: r.id,
    status: r.status,
    eventId: r.eventRef,
    showId: r.showId,
    ticketOptionId: r.ticketOptionId,
    priceTypeId: r.priceTypeId,
    quantity: r.quantity,
    quantitySold: r.sold,
    seats: r.seats ?? [],
    soldWhole: r.soldWhole,
    currency: r.currency,
    price: fromMinorUnits(r.priceMinor, r.currency)!,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** One of the calling channel's listings, by its id (404 for any other channel's: nothing is learnt). */
export async function getChannelListing(
  caller: ChannelCaller,
  externalId: string,
  db: DbOrTx,
): Promise<ChannelListingView> {
  const directory = showDirectory(db);
  const [row] = await db
    .select(viewColumns(directory))
    .from(channelListings)
    .innerJoin(directory, eq(directory.showPk, channelListings.showPk))
    .where(
      and(
        eq(channelListings.partnerId, caller.partnerId),
        eq(channelListings.channelId, caller.channelId),
        eq(channelListings.externalId, externalId),
      ),
    );
  if (!row) throw notFound('Listing not found');
  return viewOf(row as ViewRow);
}

/** The calling channel's listings, newest first, a page at a time, by state and event. */
export async function listChannelListings(caller: ChannelCaller, query: unknown, db: DbOrTx) {
  const q = channelListingsQuery.parse(query);
  const directory = showDirectory(db);
  const where = and(
    eq(channelListings.partnerId, caller.partnerId),
    eq(channelListings.channelId, caller.channelId),
    q.status ? eq(channelListingState(), q.status) : undefined,
    q.eventId ? eq(directory.eventRef, q.eventId) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(viewColumns(directory))
      .from(channelListings)
      .innerJoin(directory, eq(directory.showPk, channelListings.showPk))
      .where(where)
      .orderBy(sql`${channelListings.createdAt} desc`, asc(channelListings.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db
      .select({ total: count() })
      .from(channelListings)
      .innerJoin(directory, eq(directory.showPk, channelListings.showPk))
      .where(where),
  ]);
  return { items: rows.map((r) => viewOf(r as ViewRow)), page: q.page, pageSize: q.pageSize, total };
}

/**
 * `DELETE /v1/channels/listings/{listingId}`: takes it off the market (CANCELLED; a later PUT puts it on
 * sale again). Deleting a deleted listing answers it again; one a buyer is paying for, or sold, is a 409.
 */
export async function deleteChannelListing(
  caller: ChannelCaller,
  externalId: string,
  db: DbOrTx,
): Promise<ChannelListingView> {
  const current = await getChannelListing(caller, externalId, db);
  if (current.status === 'SOLD')
    throw new AppError('CONFLICT', `This listing cannot be deleted: ${lockedMessage('SOLD')}`);
  await transaction(async ({ tx }) => {
    const [row] = await tx
      .select({ id: channelListings.id })
      .from(channelListings)
      .where(
        and(
          eq(channelListings.partnerId, caller.partnerId),
          eq(channelListings.channelId, caller.channelId),
          eq(channelListings.externalId, externalId),
        ),
      )
      .for('update');
    if (!row) throw notFound('Listing not found');
    const locked = (await lockChannelMarketListings(tx, [row.id])).get(row.id);
    if (locked === 'RESERVED')
      throw new AppError('CONFLICT', `This listing cannot be deleted: ${lockedMessage(locked)}`);
    // What is sold stays sold (its sale goes on); the rest leaves the market.
    await takeChannelListingsOffSale(tx, { channelListingIds: [row.id] }, 'CANCELLED');
    await tx
      .update(channelListings)
      .set({ status: 'CANCELLED', updatedAt: sql`now()` })
      .where(eq(channelListings.id, row.id));
  }, db as Db);
  return getChannelListing(caller, externalId, db);
}

/** Staff: a channel's listings with counts per state (the dashboard). */
export async function channelListingCounts(partnerId: string, db: DbOrTx) {
  // Grouped outside: the state is a subquery per row.
  const rows = await db.execute<{ channelId: string; status: string; n: number }>(sql`
    select channel_id as "channelId", state as status, count(*)::int as n
    from (select ${channelListings.channelId}, ${channelListingState()} as state
          from ${channelListings} where ${channelListings.partnerId} = ${partnerId}) s
    group by 1, 2`);
  const out = new Map<string, Record<string, number>>();
  for (const r of rows) out.set(r.channelId, { ...(out.get(r.channelId) ?? {}), [r.status]: r.n });
  return out;
}

/** Staff: one channel's listings, newest first (the dashboard's table). */
export async function staffChannelListings(partnerId: string, channelId: string, query: unknown, db: DbOrTx) {
  return listChannelListings({ partnerId, channelId }, query, db);
}
