import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '@/db';
import { listingItems, listings } from '@/db/schema/marketplace';
import { AppError, badRequest, conflict, type FanErrorReason, notFound, pgErrorOf } from '@/server/lib/errors';
import type { Locale } from '@/server/lib/i18n';
import { newId } from '@/server/lib/ids';
import { fromMinorUnits, toMinorUnits } from '@/server/lib/money';
import { transaction } from '@/server/lib/transaction';
import { listingsChangedAfterCommit } from './events';
import { effectiveResaleRules, type EffectiveResaleRules, holdShows, showDirectory } from '@/server/modules/catalog';
import { codeRevealedError, lockTickets, type SaleTicket, ticketsByPk, ticketsForSale } from '@/server/modules/tickets';
import { protectionOf } from '@/server/modules/protection';
import { buyerFeeMinor, marketTerms, sellerPayoutMinor } from './fees';
import { listingStatusNow, isBuyableNow } from './holds';
import { endOpenListings, releaseExpired } from './intentions';
import { mailListingCreated, mailWishlist } from './mails';
import { openItemsOf } from './channel-listings';
import { notOwnedBy, notOwnedError } from './ownership';

const HOUR = 3_600_000;

export interface CreateListingInput {
  partnerId: string;
  sellerEmail: string;
  /** The partner's ticketIds; several only when they are one order's (sold whole, a PACK). */
  ticketIds: string[];
  /** Asking price per ticket, in major units of the tickets' currency. */
  price: number | string;
  /** The seller's language (of the page they listed on), for their mail; default DEFAULT_LANG. */
  locale?: Locale;
}

/** Why a ticket (or a listing's tickets) cannot be listed, as a code the pages translate and a sentence the API sends. */
export type ListingProblemCode =
  | 'INVALIDATED'
  | 'ADMITTED'
  | 'CODE_REVEALED'
  | 'MIXED_SHOW'
  | 'NOT_ONE_ORDER'
  | 'SHOW_CANCELLED'
  | 'RESALE_OFF'
  | 'PROTECTION_OFF'
  | 'RULES_FORBID'
  | 'WINDOW_NOT_OPEN'
  | 'WINDOW_CLOSED'
  | 'SHOW_STARTED'
  | 'TOO_MANY'
  | 'ABOVE_CAP'
  | 'BELOW_FLOOR';

export interface ListingProblem {
  code: ListingProblemCode;
  message: string;
  /** The figure a page needs to explain it (hours of the window, the ticket count, the price bound). */
  hours?: number;
  max?: number;
  ticketId?: string;
}

/** The allowed asking price per ticket from the partner's PRICE_LIMITS (percent of face value); null bounds are open. */
export interface PriceRange {
  currency: string;
  faceMinor: number | null;
  floorMinor: number | null;
  capMinor: number | null;
  minPercentOfFace?: number;
  maxPercentOfFace?: number;
}

/** The partner's resale rules that apply to this ticket (its event, show, option and price type). */
export function resaleRulesOf(partnerId: string, t: SaleTicket, db: DbOrTx) {
  return effectiveResaleRules(
    partnerId,
    {
      externalReferenceEventId: t.eventRef,
      showId: t.showId,
      ticketOptionId: t.ticketOptionId,
      ...(t.priceTypeId ? { priceTypeId: t.priceTypeId } : {}),
    },
    db,
  );
}

function rangeOf(first: Pick<SaleTicket, 'priceMinor' | 'currency'>, rules: Record<string, unknown>): PriceRange {
  const limits = rules.PRICE_LIMITS as { minPercentOfFace?: number; maxPercentOfFace?: number } | undefined;
  const face = first.priceMinor;
  return {
    currency: first.currency,
    faceMinor: face,
    floorMinor:
      face !== null && limits?.minPercentOfFace !== undefined
        ? Math.ceil((face * limits.minPercentOfFace) / 100)
        : null,
    capMinor:
      face !== null && limits?.maxPercentOfFace !== undefined
        ? Math.floor((face * limits.maxPercentOfFace) / 100)
        : null,
    ...(limits?.minPercentOfFace !== undefined ? { minPercentOfFace: limits.minPercentOfFace } : {}),
    ...(limits?.maxPercentOfFace !== undefined ? { maxPercentOfFace: limits.maxPercentOfFace } : {}),
  };
}

/**
 * The rules on a listing's size and price (MAX_TICKETS_PER_LISTING; PRICE_LIMITS' floor and cap as a
 * percentage of face value): pure, for fans' listings and channels' alike.
 */
export function listingSizeAndPriceProblems(
  count: number,
  range: PriceRange,
  rules: EffectiveResaleRules,
  priceMinor: number | null,
): ListingProblem[] {
  const problems: ListingProblem[] = [];
  const max = (rules.MAX_TICKETS_PER_LISTING as { max?: number } | undefined)?.max;
  if (max !== undefined && count > max)
    problems.push({ code: 'TOO_MANY', max, message: `at most ${max} tickets per listing` });
  if (priceMinor !== null) {
    const currency = range.currency;
    if (range.capMinor !== null && priceMinor > range.capMinor) {
      const cap = fromMinorUnits(range.capMinor, currency);
      problems.push({
        code: 'ABOVE_CAP',
        message: `the price is above the cap of ${cap} ${currency} (${range.maxPercentOfFace}% of face value)`,
      });
    }
    if (range.floorMinor !== null && priceMinor < range.floorMinor) {
      const floor = fromMinorUnits(range.floorMinor, currency);
      problems.push({
        code: 'BELOW_FLOOR',
        message: `the price is below the floor of ${floor} ${currency} (${range.minPercentOfFace}% of face value)`,
      });
    }
  }
  return problems;
}

/** The price range PRICE_LIMITS allow around a face value (minor units; null: no face value known). */
export function priceRangeFor(
  face: { priceMinor: number | null; currency: string },
  rules: EffectiveResaleRules,
): PriceRange {
  return rangeOf(face, rules);
}

/** The price range the partner's rules allow for these tickets (the selling and repricing pages show it). */
export async function priceRangeOf(partnerId: string, list: SaleTicket[], db: DbOrTx): Promise<PriceRange> {
  return rangeOf(list[0], await resaleRulesOf(partnerId, list[0], db));
}

/**
 * A ticket's own state that forbids listing it: invalidated, already used for entry, or (while the
 * partner does not reissue after a resale, `reissue` false) its code already shown to its holder: seller
 * and buyer would hold the same valid code.
 */
export function ticketStateProblems(
  t: Pick<SaleTicket, 'ticketId' | 'status' | 'admittedAt'> & { codeShownAt: Date | string | null },
  reissue: boolean,
): ListingProblem[] {
  if (t.status !== 'VALID')
    return [
      {
        code: 'INVALIDATED',
        ticketId: t.ticketId,
        message: `ticket ${t.ticketId} is invalid (deleted, or its show was cancelled)`,
      },
    ];
  if (t.admittedAt)
    return [{ code: 'ADMITTED', ticketId: t.ticketId, message: `ticket ${t.ticketId} was already used for entry` }];
  if (t.codeShownAt && !reissue)
    return [
      {
        code: 'CODE_REVEALED',
        ticketId: t.ticketId,
        message: `ticket ${t.ticketId}'s code was already shown to its holder, and the partner does not issue a new code after a resale`,
      },
    ];
  return [];
}

/**
 * What the show and the resale rules in force say against listing now (no price, no count): pure, so
 * the access layer evaluates a thousand tickets over rules it read once.
 */
export function showRuleProblems(
  show: Pick<SaleTicket, 'showStatus' | 'resaleEnabled' | 'startsAt'> & { protectionActive: boolean },
  rules: EffectiveResaleRules,
  now: Date,
): ListingProblem[] {
  const problems: ListingProblem[] = [];
  if (show.showStatus !== 'LIVE') problems.push({ code: 'SHOW_CANCELLED', message: 'the show is cancelled' });
  if (!show.resaleEnabled) problems.push({ code: 'RESALE_OFF', message: 'resale is turned off for this show' });
  // Resale needs ticket protection (docs/decisions.md, "Ticket protection"): a seller who can still show the code
  // could enter with a ticket they sold.
  if (!show.protectionActive)
    problems.push({ code: 'PROTECTION_OFF', message: 'ticket protection is off for this show; resale needs it' });
  if (rules.RESALE_ENABLED?.enabled === false)
    problems.push({ code: 'RULES_FORBID', message: 'resale is not allowed for these tickets' });
  const window = rules.LISTING_WINDOW as { opensHoursBeforeShow?: number; closesHoursBeforeShow?: number } | undefined;
  const untilShow = show.startsAt.getTime() - now.getTime();
  if (window?.opensHoursBeforeShow !== undefined && untilShow > window.opensHoursBeforeShow * HOUR) {
    problems.push({
      code: 'WINDOW_NOT_OPEN',
      hours: window.opensHoursBeforeShow,
      message: `listing opens ${window.opensHoursBeforeShow} hours before the show`,
    });
  }
  if (untilShow <= (window?.closesHoursBeforeShow ?? 0) * HOUR) {
    problems.push(
      window?.closesHoursBeforeShow
        ? {
            code: 'WINDOW_CLOSED',
            hours: window.closesHoursBeforeShow,
            message: `listing closed ${window.closesHoursBeforeShow} hours before the show`,
          }
        : { code: 'SHOW_STARTED', message: 'the show has started' },
    );
  }
  return problems;
}

/**
 * Why these tickets cannot be listed now, as codes with sentences: the show, the partner's resale rules,
 * the tickets, and (given a price) the floor and cap. The one place these rules live: the API's 409s,
 * the selling pages' "why not" and the resale entry page all read it.
 */
export async function listingChecks(
  partnerId: string,
  list: SaleTicket[],
  priceMinor: number | null,
  now = new Date(),
  db: DbOrTx,
): Promise<{ problems: ListingProblem[]; range: PriceRange }> {
  const problems: ListingProblem[] = [];
  const first = list[0];
  const [rules, protection] = await Promise.all([resaleRulesOf(partnerId, first, db), protectionOf(partnerId, db)]);
  for (const t of list) problems.push(...ticketStateProblems(t, protection.reissue));
  if (list.some((t) => t.showPk !== first.showPk || t.ticketOptionId !== first.ticketOptionId)) {
    problems.push({
      code: 'MIXED_SHOW',
      message: 'the tickets of one listing must be of one show and one ticket option',
    });
  }
  if (list.length > 1 && (!first.orderId || list.some((t) => t.orderId !== first.orderId))) {
    problems.push({ code: 'NOT_ONE_ORDER', message: 'only tickets of one order can be listed together' });
  }
  problems.push(
    ...showRuleProblems({ ...first, protectionActive: protection.active(first.eventPk, first.showPk) }, rules, now),
  );
  const range = rangeOf(first, rules);
  problems.push(...listingSizeAndPriceProblems(list.length, range, rules, priceMinor));
  return { problems, range };
}

/** Why these tickets cannot be listed now, or nothing (the sentences of `listingChecks`). */
async function listingProblems(
  partnerId: string,
  list: SaleTicket[],
  priceMinor: number | null,
  now = new Date(),
  db: DbOrTx,
): Promise<string[]> {
  return (await listingChecks(partnerId, list, priceMinor, now, db)).problems.map((p) => p.message);
}

function priceMinorOf(price: number | string, currency: string): number {
  const m = toMinorUnits(price, currency);
  if ('error' in m) throw badRequest(`price ${m.error}`, [{ path: 'price', message: m.error }]);
  if (m.minor <= 0) throw badRequest('price must be more than 0', [{ path: 'price', message: 'must be more than 0' }]);
  return m.minor;
}

/**
 * The guard of listing create and relist, in their transaction: the checks made before it (ticket, show,
 * owner) are only reads, so here they are made again on locked rows. The shows are read FOR SHARE (a
 * cancellation waits for this commit, then ends the listing, or commits first and is seen here), then the
 * tickets are locked FOR UPDATE in id order (as a transfer, an admission or a secure view revealing the
 * code locks them). Each must still be VALID, not admitted, held by whom it was held when ownership was
 * checked (a P2P transfer or a sale that committed since changed it), with its code unseen while the
 * partner does not reissue, and in no other open listing. A refusal is a 409 naming the ticket and why.
 */
async function recheckListable(
  tx: Tx,
  partnerId: string,
  list: SaleTicket[],
  changedReason: FanErrorReason,
  listedMessage: string,
) {
  // Shows first (FOR SHARE), then tickets: the order a cancellation locks in, so the two never wait crosswise.
  const shows = new Map(
    (
      await holdShows(
        tx,
        list.map((t) => t.showPk),
      )
    ).map((s) => [s.pk, s.status as string]),
  );
  const locked = new Map(
    (
      await lockTickets(
        tx,
        list.map((t) => t.pk),
      )
    ).map((l) => [l.pk, l]),
  );
  const { reissue } = await protectionOf(partnerId, tx);
  for (const t of list) {
    const now = locked.get(t.pk);
    if (!now) throw conflict(`Ticket ${t.ticketId} is gone`, changedReason);
    if (shows.get(t.showPk) !== 'LIVE') throw refusal(`the show of ticket ${t.ticketId} was cancelled`, changedReason);
    if ((now.buyerEmail ?? '') !== (t.buyerEmail ?? ''))
      throw refusal(`ticket ${t.ticketId} changed hands meanwhile`, 'NOT_OWNED');
    const [problem] = ticketStateProblems(now, reissue);
    if (problem)
      throw problem.code === 'CODE_REVEALED'
        ? codeRevealedError([t.ticketId])
        : refusal(problem.message, changedReason);
  }
  const open = await openItemsOf(
    tx,
    list.map((t) => t.pk),
  );
  if (open.length)
    throw new AppError('CONFLICT', listedMessage, {
      details: open.map((o) => ({ path: 'ticketIds', message: `${o.ticketId} is already listed` })),
      fanReason: 'LISTED_ELSEWHERE',
    });
}

function refusal(message: string, fanReason: FanErrorReason): AppError {
  return new AppError('CONFLICT', `This listing cannot go on sale: ${message}`, {
    details: [{ path: 'ticketIds', message }],
    fanReason,
  });
}

/**
 * Lists tickets for sale: the seller must own them (asked live), the show must be LIVE with resale on,
 * and the partner's resale rules must allow it (window, price floor and cap, tickets per listing). A
 * ticket is in at most one open listing: listing it twice is a 409.
 */
export async function createListing(input: CreateListingInput, db: Db, now = new Date()) {
  const ids = [...new Set(input.ticketIds)];
  if (!ids.length)
    throw badRequest('ticketIds must name at least one ticket', [{ path: 'ticketIds', message: 'is empty' }]);
  const list = await ticketsForSale(input.partnerId, ids, db);
  const missing = ids.filter((id) => !list.some((t) => t.ticketId === id));
  if (missing.length) throw notFound(`Ticket not found: ${missing.join(', ')}`);
  const first = list[0];
  const priceMinor = priceMinorOf(input.price, first.currency);
  const problems = await listingProblems(input.partnerId, list, priceMinor, now, db);
  if (problems.length) {
    throw new AppError('CONFLICT', `These tickets cannot be listed: ${problems.join('; ')}`, {
      details: problems.map((message) => ({ path: 'ticketIds', message })),
    });
  }
  const notOwned = await notOwnedBy(input.partnerId, input.sellerEmail, list, db);
  if (notOwned.length) throw notOwnedError(notOwned);

  const id = newId('lst');
  try {
    await transaction(async (work) => {
      const { tx } = work;
      await recheckListable(tx, input.partnerId, list, 'CHANGED', 'A ticket of this listing is already listed');
      await tx.insert(listings).values({
        id,
        partnerId: input.partnerId,
        eventPk: first.eventPk,
        showPk: first.showPk,
        ticketOptionId: first.ticketOptionId,
        priceTypeId: first.priceTypeId,
        sellerEmail: input.sellerEmail.trim().toLowerCase(),
        type: list.length > 1 ? 'PACK' : 'SINGLE',
        currency: first.currency,
        priceMinor,
        ticketCount: list.length,
        orderId: list.length > 1 ? first.orderId : null,
        locale: input.locale ?? null,
      });
      listingsChangedAfterCommit(work);
      await tx.insert(listingItems).values(
        list.map((t) => ({
          listingId: id,
          ticketPk: t.pk,
          partnerId: input.partnerId,
          ticketId: t.ticketId,
          seating: t.seating,
        })),
      );
      await mailListingCreated(work, id);
      await mailWishlist(work, id);
    }, db);
  } catch (err) {
    if (pgErrorOf(err)?.constraint_name === 'listing_items_open_ticket_idx') {
      throw conflict('A ticket of this listing is already listed', 'LISTED_ELSEWHERE');
    }
    throw err;
  }
  return getListing(input.partnerId, id, db);
}

type ListingRow = typeof listings.$inferSelect;

/**
 * One listing of the partner's. A read sees its status now (an expired hold as ACTIVE, holds.ts); a write
 * (`lock`) takes the row lock and sees the stored status, having released an expired hold first.
 */
async function listingRow(partnerId: string, id: string, db: DbOrTx, lock = false): Promise<ListingRow> {
  const where = and(eq(listings.id, id), eq(listings.partnerId, partnerId));
  const [row] = lock
    ? await db.select().from(listings).where(where).for('update')
    : await db
        .select({ ...getTableColumns(listings), status: listingStatusNow() })
        .from(listings)
        .where(where);
  if (!row) throw notFound('Listing not found');
  return row;
}

/** A listing as the API and the fan pages show it: price, what the buyer pays, what the seller gets. */
export async function getListing(partnerId: string, id: string, db: DbOrTx) {
  const row = await listingRow(partnerId, id, db);
  const [terms, items] = await Promise.all([
    marketTerms(partnerId, db),
    db.select({ ticketPk: listingItems.ticketPk }).from(listingItems).where(eq(listingItems.listingId, id)),
  ]);
  const list = await ticketsByPk(
    partnerId,
    items.map((i) => i.ticketPk),
    db,
  );
  return listingOut(row, list, terms);
}

function listingOut(row: ListingRow, list: SaleTicket[], terms: Awaited<ReturnType<typeof marketTerms>>) {
  const fee = buyerFeeMinor(terms, row.priceMinor, row.currency);
  const payout = sellerPayoutMinor(terms, row.priceMinor, row.currency);
  const money = (minor: number) => fromMinorUnits(minor, row.currency);
  const sorted = [...list].sort((a, b) => (a.ticketId < b.ticketId ? -1 : 1));
  return {
    id: row.id,
    status: row.status,
    type: row.type,
    externalReferenceEventId: sorted[0]?.eventRef ?? null,
    showId: sorted[0]?.showId ?? null,
    ticketOptionId: row.ticketOptionId,
    priceTypeId: row.priceTypeId,
    ticketIds: sorted.map((t) => t.ticketId),
    orderId: row.orderId,
    currency: row.currency,
    /** Asking price per ticket. */
    price: money(row.priceMinor),
    /** Buyer's service fee per ticket. */
    buyerFee: money(fee),
    /** What the buyer pays for the whole listing. */
    buyerTotal: money((row.priceMinor + fee) * row.ticketCount),
    /** What the seller receives for the whole listing, fees deducted. */
    sellerPayout: money(payout * row.ticketCount),
    seats: sorted.map((t) => ({ ticketId: t.ticketId, ...(t.seating ?? {}) })),
    sellerEmail: row.sellerEmail,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export type ListingView = ReturnType<typeof listingOut>;

/** Changes the asking price of an ACTIVE listing, checked against the rules again. */
export async function updateListingPrice(partnerId: string, id: string, price: number | string, db: Db) {
  await transaction(async ({ tx }) => {
    // A hold whose time is up ends here, in this write's transaction (reads never end it).
    await releaseExpired(tx, { partnerId, listingIds: [id] });
    const row = await listingRow(partnerId, id, tx, true);
    if (row.status !== 'ACTIVE') {
      throw conflict(
        `Only an active listing can be repriced (this one is ${row.status})`,
        row.status === 'RESERVED' ? 'HELD_BY_BUYER' : 'NOT_ON_SALE',
      );
    }
    const items = await tx.select().from(listingItems).where(eq(listingItems.listingId, id));
    const list = await ticketsByPk(
      partnerId,
      items.map((i) => i.ticketPk),
      tx,
    );
    const priceMinor = priceMinorOf(price, row.currency);
    const problems = await listingProblems(partnerId, list, priceMinor, new Date(), tx);
    if (problems.length) throw conflict(`The listing cannot take this price: ${problems.join('; ')}`);
    await tx
      .update(listings)
      .set({ priceMinor, updatedAt: sql`now()` })
      .where(eq(listings.id, id));
    listingsChangedAfterCommit(tx);
  }, db);
  return getListing(partnerId, id, db);
}

/**
 * Takes an ACTIVE listing off sale (seller or partner). A listing held by a buyer's intention (in
 * someone's cart) cannot be removed: 409, try again when the hold ends.
 */
export async function unlist(partnerId: string, id: string, db: Db) {
  await transaction(async ({ tx }) => {
    await releaseExpired(tx, { partnerId, listingIds: [id] });
    const row = await listingRow(partnerId, id, tx, true);
    if (row.status === 'RESERVED') {
      throw conflict(
        'The listing is held by a buyer who is paying for it; it can be removed once the hold ends',
        'HELD_BY_BUYER',
      );
    }
    if (row.status !== 'ACTIVE') throw conflict(`The listing is not on sale (it is ${row.status})`, 'NOT_ON_SALE');
    await endOpenListings(tx, [id], 'UNLISTED');
  }, db);
  return getListing(partnerId, id, db);
}

/** Puts an UNLISTED listing on sale again, after checking ownership, the rules and that no other listing holds its tickets. */
export async function relist(partnerId: string, id: string, db: Db) {
  const row = await listingRow(partnerId, id, db);
  if (row.status !== 'UNLISTED')
    throw conflict(`Only an unlisted listing can be listed again (this one is ${row.status})`, 'NOT_UNLISTED');
  const items = await db.select().from(listingItems).where(eq(listingItems.listingId, id));
  const list = await ticketsByPk(
    partnerId,
    items.map((i) => i.ticketPk),
    db,
  );
  const { problems } = await listingChecks(partnerId, list, row.priceMinor, new Date(), db);
  const revealed = problems.filter((p) => p.code === 'CODE_REVEALED').map((p) => p.ticketId!);
  // The fan's page says this one in its own words: it is the seller's doing, not the rules'.
  if (revealed.length) throw codeRevealedError(revealed);
  if (problems.length)
    throw conflict(
      `The listing cannot go on sale again: ${problems.map((p) => p.message).join('; ')}`,
      'CANNOT_RELIST',
    );
  const notOwned = await notOwnedBy(partnerId, row.sellerEmail, list, db);
  if (notOwned.length) throw notOwnedError(notOwned);
  try {
    await transaction(async ({ tx }) => {
      const [moved] = await tx
        .update(listings)
        .set({ status: 'ACTIVE', updatedAt: sql`now()` })
        .where(and(eq(listings.id, id), eq(listings.status, 'UNLISTED')))
        .returning({ id: listings.id });
      if (!moved) throw conflict('The listing changed meanwhile; reload it', 'CHANGED');
      listingsChangedAfterCommit(tx);
      await recheckListable(tx, partnerId, list, 'CANNOT_RELIST', 'A ticket of this listing is listed again elsewhere');
      await tx.update(listingItems).set({ open: true }).where(eq(listingItems.listingId, id));
    }, db);
  } catch (err) {
    if (pgErrorOf(err)?.constraint_name === 'listing_items_open_ticket_idx') {
      throw conflict('A ticket of this listing is listed again elsewhere', 'LISTED_ELSEWHERE');
    }
    throw err;
  }
  return getListing(partnerId, id, db);
}

/** The open (ACTIVE or RESERVED) listing of a ticket, else its latest one; optionally only a seller's. */
export async function listingOfTicket(
  partnerId: string,
  ticketId: string,
  sellerEmail: string | undefined,
  db: DbOrTx,
) {
  const [ticket] = await ticketsForSale(partnerId, [ticketId], db);
  if (!ticket) throw notFound('Ticket not found');
  const rows = await db
    .select({ id: listings.id, open: listingItems.open })
    .from(listingItems)
    .innerJoin(listings, eq(listings.id, listingItems.listingId))
    .where(
      and(
        eq(listingItems.ticketPk, ticket.pk),
        eq(listings.partnerId, partnerId),
        sellerEmail ? eq(listings.sellerEmail, sellerEmail.trim().toLowerCase()) : undefined,
      ),
    )
    .orderBy(sql`${listingItems.open} desc`, sql`${listings.createdAt} desc`)
    .limit(1);
  if (!rows.length) throw notFound('Listing not found');
  return getListing(partnerId, rows[0].id, db);
}

/** DELETE /v1/marketplace/items/ticket/{ticketId}: the ticket's open listing is taken off sale. */
export async function unlistTicket(partnerId: string, ticketId: string, db: Db) {
  const listing = await listingOfTicket(partnerId, ticketId, undefined, db);
  if (listing.status !== 'ACTIVE' && listing.status !== 'RESERVED') throw notFound('The ticket is not listed');
  return unlist(partnerId, listing.id, db);
}

/**
 * Every ACTIVE listing of an event (optionally one show), cheapest first: per ticket the price, the
 * buyer's fee and total shown up front, seats from the tickets' `props.seating`, option and price type.
 */
export async function listedTickets(
  partnerId: string,
  externalReferenceEventId: string,
  showId: string | undefined,
  db: DbOrTx,
) {
  // A hold whose time is up counts as on sale here without a write (holds.ts): reads never write.
  const show = showDirectory(db);
  const [known] = await db
    .select({ showPk: show.showPk, showId: show.showId })
    .from(show)
    .where(and(eq(show.partnerId, partnerId), eq(show.eventRef, externalReferenceEventId)));
  if (!known) throw notFound('Event not found');
  const rows = await db
    .select({
      id: listings.id,
      type: listings.type,
      currency: listings.currency,
      priceMinor: listings.priceMinor,
      ticketCount: listings.ticketCount,
      ticketOptionId: listings.ticketOptionId,
      priceTypeId: listings.priceTypeId,
      showId: show.showId,
      eventRef: show.eventRef,
      seats: sql<{ ticketId?: string; seating: Record<string, unknown> | null }[]>`coalesce((
        select json_agg(json_build_object('ticketId', i.ticket_id, 'seating', i.seating) order by i.ticket_id)
        from listing_items i where i.listing_id = ${listings.id}), ${listings.channelSeats}::json)`,
      channelListingId: listings.channelListingId,
    })
    .from(listings)
    .innerJoin(show, eq(show.showPk, listings.showPk))
    .where(
      and(
        eq(listings.partnerId, partnerId),
        inArray(listings.status, ['ACTIVE', 'RESERVED']),
        isBuyableNow(),
        eq(show.eventRef, externalReferenceEventId),
        showId ? eq(show.showId, showId) : undefined,
      ),
    )
    .orderBy(asc(listings.priceMinor), asc(listings.id));
  const terms = await marketTerms(partnerId, db);
  return rows.map((r) => {
    const fee = buyerFeeMinor(terms, r.priceMinor, r.currency);
    const money = (minor: number) => fromMinorUnits(minor, r.currency);
    return {
      listingId: r.id,
      type: r.type,
      externalReferenceEventId: r.eventRef,
      showId: r.showId,
      ticketOptionId: r.ticketOptionId,
      priceTypeId: r.priceTypeId,
      ticketCount: r.ticketCount,
      currency: r.currency,
      price: money(r.priceMinor),
      buyerFee: money(fee),
      pricePerTicketWithFees: money(r.priceMinor + fee),
      total: money((r.priceMinor + fee) * r.ticketCount),
      seats: (r.seats ?? []).map((s) => ({ ...(s.ticketId ? { ticketId: s.ticketId } : {}), ...(s.seating ?? {}) })),
      /** FAN: a fan's listing · CHANNEL: an external platform's (Channels API), delivered once bought. */
      source: r.channelListingId ? ('CHANNEL' as const) : ('FAN' as const),
    };
  });
}
