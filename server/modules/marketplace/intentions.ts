import { and, eq, getTableColumns, inArray, lte, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '@/db';
import { buyIntentions, listingItems, listings } from '@/db/schema/marketplace';
import { env, publicBaseUrl } from '@/server/env';
import { AppError, badRequest, conflict, notFound } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { defaultLocale, type Locale } from '@/server/lib/i18n';
import { fromMinorUnits } from '@/server/lib/money';
import { transaction, type Work } from '@/server/lib/transaction';
import { getPayment, startPayment } from '@/server/modules/payments';
import { buyerFeeMinor, marketTerms } from './fees';
import { mailListingsCancelled } from './mails';
import { intentionStatusNow } from './holds';
import { checkoutLines } from './payment-lines';
import { listingsChangedAfterCommit } from './events';

export const EXPIRE_INTENTION_JOB = 'marketplace.expireIntention';
export const REFUND_PURCHASE_JOB = 'marketplace.refundPurchase';
/** The payments module's `purpose` of a buy intention's payment; its `reference` is the intention id. */
export const BUY_INTENTION_PURPOSE = 'buy_intention';
const MAX_ITEMS_PER_INTENTION = 50;

/** The intention holds one of these listings (one JSON parameter, not one per id). */
const overlaps = (listingIds: string[]) =>
  sql`${buyIntentions.listingIds} && array(select json_array_elements_text(${JSON.stringify(listingIds)}::json))`;

/**
 * Ends PENDING intentions whose time is up (all of a partner's, or those holding these listings) and
 * puts their listings back on sale, in one statement (so never one without the other, whoever calls it).
 * Run by the expiry job at each intention's end, by a minute sweep, and by a write that needs the
 * listing (a buyer's claim, the seller's unlist or reprice) inside its own transaction. Never by a read:
 * reads count an expired hold as free without writing (holds.ts), so a rush of readers takes no row lock.
 */
export async function releaseExpired(
  db: DbOrTx,
  scope: { partnerId?: string; listingIds?: string[] } = {},
): Promise<string[]> {
  const rows = await db.execute<{ id: string }>(sql`
    with expired as (
      update ${buyIntentions} set status = 'EXPIRED', ended_at = now()
      where ${and(
        eq(buyIntentions.status, 'PENDING'),
        lte(buyIntentions.expiresAt, sql`now()`),
        scope.partnerId ? eq(buyIntentions.partnerId, scope.partnerId) : undefined,
        scope.listingIds?.length ? overlaps(scope.listingIds) : undefined,
      )}
      returning ${buyIntentions.id}
    ), released as (
      update ${listings} set status = 'ACTIVE', reserved_by = null, updated_at = now()
      where ${listings.status} = 'RESERVED' and ${listings.reservedBy} in (select id from expired)
    )
    select id from expired`);
  if (rows.length) listingsChangedAfterCommit(db);
  return rows.map((r) => r.id);
}

/** Cancels the PENDING intentions holding these listings (the listings are being ended by a cascade). */
async function cancelIntentionsHolding(tx: Tx, listingIds: string[]): Promise<void> {
  if (!listingIds.length) return;
  await tx
    .update(buyIntentions)
    .set({ status: 'CANCELLED', endedAt: sql`now()` })
    .where(and(eq(buyIntentions.status, 'PENDING'), overlaps(listingIds)));
}

/** 409 naming each listing that is no longer on sale (RESERVED: held by another buyer). */
function notAvailable(taken: { id: string; status: string }[], path: string): AppError {
  const why = (status: string) => (status === 'RESERVED' ? 'held by another buyer' : status);
  return new AppError(
    'CONFLICT',
    `Not available any more: ${taken.map((r) => `${r.id} (${why(r.status)})`).join(', ')}`,
    {
      details: taken.map((r) => ({ path, message: `${r.id} is ${r.status}` })),
    },
  );
}

/**
 * What the listings of one purchase must be, for a checkout URL and a buy intention alike: all found
 * among the partner's (404), of one event, show and ticket option (400), and all on sale (409).
 */
export function assertPurchasable(
  ids: string[],
  rows: { id: string; status: string; showPk: string; ticketOptionId: string }[],
  what: 'purchase' | 'checkout',
  path: string,
): void {
  const missing = ids.filter((id) => !rows.some((r) => r.id === id));
  if (missing.length) {
    throw new AppError('NOT_FOUND', `Listing not found: ${missing.join(', ')}`, {
      details: missing.map((id) => ({ path, message: `${id} is not a listing` })),
    });
  }
  const first = rows[0];
  if (rows.some((r) => r.showPk !== first.showPk || r.ticketOptionId !== first.ticketOptionId)) {
    throw badRequest(`The listings of one ${what} must be of one event, one show and one ticket option`, [
      { path, message: 'mixes shows or ticket options' },
    ]);
  }
  const taken = rows.filter((r) => r.status !== 'ACTIVE');
  if (taken.length) throw notAvailable(taken, path);
}

function intentionUrl(id: string): string {
  return `${publicBaseUrl()}/checkout/${id}`;
}

/** What the claim statement says of each listing asked for (as it was before this claim). */
interface ClaimRow extends Record<string, unknown> {
  id: string;
  status: string;
  show_pk: string;
  ticket_option_id: string;
  seller_email: string;
  currency: string;
  price_minor: number;
  ticket_count: number;
  claimed: boolean;
  locked_elsewhere: boolean;
  hold_over: boolean;
}

/**
 * Takes the listings for intention `id` in ONE statement, all or none: the partner's listings asked for
 * that are ACTIVE and not being taken by another buyer right now (SKIP LOCKED: a 409 at once, not a
 * wait in line behind every other buyer of a popular listing) become RESERVED by `id`, only if every one
 * of them is, they are of one show and ticket option, and none is the buyer's own. Answers every
 * listing asked for, with whether this call took it. Run inside the intention's transaction, so a
 * claim is never left without its intention.
 */
export async function claimListings(
  db: DbOrTx,
  partnerId: string,
  items: string[],
  buyer: string,
  id: string,
): Promise<ClaimRow[]> {
  const wanted = sql`array(select json_array_elements_text(${JSON.stringify(items)}::json))`;
  return db.execute<ClaimRow>(sql`
    with requested as (
      select id, status, show_pk, ticket_option_id, seller_email, currency, price_minor, ticket_count, reserved_by
      from ${listings} where partner_id = ${partnerId} and id = any(${wanted})
    ), lockable as (
      select id from ${listings}
      where partner_id = ${partnerId} and id = any(${wanted}) and status = 'ACTIVE'
      for update skip locked
    ), claimed as (
      update ${listings} set status = 'RESERVED', reserved_by = ${id}, updated_at = now()
      where id in (select id from lockable) and status = 'ACTIVE'
        and (select count(*) from lockable) = ${items.length}
        and (select count(distinct (show_pk, ticket_option_id)) from requested) = 1
        and not exists (select 1 from requested where seller_email = ${buyer})
      returning id, currency, price_minor, ticket_count
    )
    -- A claimed listing's price is the row it locked and updated, not the statement's snapshot: a reprice
    -- committed between the two would otherwise hold the listing at its new price and charge the old one.
    select r.id, r.status, r.show_pk, r.ticket_option_id, r.seller_email,
      coalesce(c.currency, r.currency) as currency, coalesce(c.price_minor, r.price_minor) as price_minor,
      coalesce(c.ticket_count, r.ticket_count) as ticket_count,
      c.id is not null as claimed,
      r.status = 'ACTIVE' and k.id is null as locked_elsewhere,
      coalesce(r.status = 'RESERVED' and b.expires_at <= now(), false) as hold_over
    from requested r
    left join claimed c on c.id = r.id
    left join lockable k on k.id = r.id
    left join ${buyIntentions} b on b.id = r.reserved_by
    order by r.id`);
}

// The claim of one listing under way in this process, per partner and listing (see createBuyIntention).
const claimsUnderWay = new Map<string, Promise<ClaimRow[] | null>>();

/**
 * Whether the claim under way of another buyer of this same single listing has decided for this buyer
 * too: it took the listing, or found it not on sale for anyone. Then this buyer has lost exactly as the
 * database would have told them (SKIP LOCKED answers "taken" for a listing being claimed) and no
 * statement is needed. A claim that lost for a reason of its own (its buyer is the seller) or found an
 * expired hold decides nothing for others.
 */
async function lostToClaim(leading: Promise<ClaimRow[] | null>): Promise<ClaimRow[] | null> {
  const [row] = (await leading) ?? [];
  if (!row || row.hold_over || !(row.claimed || row.status !== 'ACTIVE')) return null;
  return [{ ...row, status: row.claimed ? 'RESERVED' : row.status, claimed: false }];
}

/** Nothing was taken: why, in the order a buyer can act on (unknown, mixed, taken, their own listing). */
function refusal(items: string[], rows: ClaimRow[], buyer: string): AppError {
  const seen = rows.map((r) => ({
    id: r.id,
    status: r.locked_elsewhere ? 'RESERVED' : r.status,
    showPk: r.show_pk,
    ticketOptionId: r.ticket_option_id,
  }));
  try {
    assertPurchasable(items, seen, 'purchase', 'items');
  } catch (err) {
    return err as AppError;
  }
  if (rows.some((r) => r.seller_email === buyer)) return conflict('A seller cannot buy their own listing');
  return notAvailable(
    seen.map((r) => ({ id: r.id, status: 'RESERVED' })),
    'items',
  );
}

/**
 * POST /v1/marketplace/buyingflow/buyIntention: holds the listings for the buyer while they pay. The
 * listings must be the partner's, ACTIVE, and of one event, show and ticket option (anchor notes); a
 * PACK is always bought whole. Exactly one intention can hold a listing: one statement takes them all
 * or none (claimListings), so of many buyers at once one gets them and the others a 409. The claim, the
 * intention and its payment commit together. The hold ends at `expiresAt` (BUY_INTENTION_MINUTES).
 */
export async function createBuyIntention(
  partnerId: string,
  input: {
    items: string[];
    user: string;
    /** Query the buyer's return to the intention page carries (the fan pages' `returnTo`). */
    pageQuery?: string;
    /**
     * The language of the page the buyer pays from (none through the partner API): their mails and the
     * provider's checkout lines are written in it (Stripe's lines default to DEFAULT_LANG).
     */
    locale?: Locale;
  },
  /**
   * Where the intention commits: the pool, a transaction under way, or the route's `ctx.commit` (the
   * intention commits with the call's stored answer). Given `commit`, the transaction opens only once this
   * buyer has not already lost to a claim under way: a buyer refused that way never takes a connection.
   */
  within: Work | Db | Commit,
): Promise<BuyIntentionOut> {
  const items = [...new Set(input.items)].sort();
  if (items.length > MAX_ITEMS_PER_INTENTION) {
    throw badRequest(`At most ${MAX_ITEMS_PER_INTENTION} listings per intention`, [
      { path: 'items', message: `has more than ${MAX_ITEMS_PER_INTENTION} listings` },
    ]);
  }
  const buyer = input.user.trim().toLowerCase();
  const id = newId('bi');
  const settle = await followOrLeadClaim(partnerId, items, buyer);
  const open = (fn: (work: Work) => Promise<BuyIntentionOut>) =>
    // `commit` answers what `fn` answered (typed as the route's output, which this result is one of).
    typeof within === 'function' ? (within(fn) as Promise<BuyIntentionOut>) : transaction(fn, within);
  try {
    return await open(async (work) => {
      const { tx, after } = work;
      // The fees are read beside the claim (one round trip for both on the transaction's connection).
      const [claimed, terms] = await Promise.all([
        claimListings(tx, partnerId, items, buyer, id),
        marketTerms(partnerId, tx),
      ]);
      let rows = claimed;
      settle(rows);
      if (rows.some((r) => r.hold_over)) {
        // A hold whose time is up (its expiry job has not run yet): end it, then try once more.
        await releaseExpired(tx, { partnerId, listingIds: items });
        rows = await claimListings(tx, partnerId, items, buyer, id);
      }
      if (rows.length < items.length || !rows.every((r) => r.claimed)) throw refusal(items, rows, buyer);
      listingsChangedAfterCommit(work);
      const { intention, url } = await openIntention(
        work,
        partnerId,
        { id, items, buyer, rows, terms, locale: input.locale ?? null },
        { pageQuery: input.pageQuery, lang: input.locale ?? defaultLocale() },
      );
      // Expiry at its time (both providers delay a job); the minute sweep and the next claim cover a lost job.
      // Not waited for: the buyer's answer does not hang on the queue write.
      after.job(
        EXPIRE_INTENTION_JOB,
        { intentionId: id },
        { runAt: intention.expiresAt, singletonKey: id, background: true },
      );
      return intentionOut(intention, url);
    });
  } finally {
    settle(null);
  }
}

/** Runs `fn` in the transaction the caller opens (the route wrapper's `ctx.commit`) and answers its result. */
type Commit = (fn: (work: Work) => Promise<BuyIntentionOut>) => Promise<unknown>;
type BuyIntentionOut = ReturnType<typeof intentionOut>;

/**
 * In an on-sale rush many buyers of one popular listing arrive together: the first one's claim decides
 * for those arriving while it runs, so hundreds of statements become one. A buyer who lost to the claim
 * under way is refused here; else, for a single listing, this buyer's claim is registered for those who
 * follow. Answers how to settle the registered claim (a no-op when none was registered). The check and
 * the registration happen in the same tick (no await between them), so of buyers arriving together
 * exactly one leads.
 */
async function followOrLeadClaim(
  partnerId: string,
  items: string[],
  buyer: string,
): Promise<(rows: ClaimRow[] | null) => void> {
  const key = items.length === 1 ? `${partnerId} ${items[0]}` : null;
  const leading = key ? claimsUnderWay.get(key) : undefined;
  if (leading) {
    const lost = await lostToClaim(leading);
    if (lost) throw refusal(items, lost, buyer);
  }
  let settle: (rows: ClaimRow[] | null) => void = () => undefined;
  if (key && !claimsUnderWay.has(key)) {
    const claim = new Promise<ClaimRow[] | null>((resolve) => (settle = resolve));
    claimsUnderWay.set(key, claim);
    void claim.then(() => claimsUnderWay.get(key) === claim && claimsUnderWay.delete(key));
  }
  return settle;
}

/**
 * The intention row and its payment for the claimed listings. The payment belongs to this transaction too:
 * an intention is never left without its checkout. Both rows are written at once (the payment's id chosen
 * here), one round trip on the transaction's connection.
 */
async function openIntention(
  work: Work,
  partnerId: string,
  claim: {
    id: string;
    items: string[];
    buyer: string;
    rows: ClaimRow[];
    terms: Awaited<ReturnType<typeof marketTerms>>;
    locale: Locale | null;
  },
  page: { pageQuery: string | undefined; lang: Locale },
) {
  const { id, items, buyer, rows, terms, locale } = claim;
  const { pageQuery } = page;
  const minutes = env().BUY_INTENTION_MINUTES;
  const first = rows[0];
  let subtotal = 0;
  let fees = 0;
  for (const r of rows) {
    subtotal += r.price_minor * r.ticket_count;
    fees += buyerFeeMinor(terms, r.price_minor, r.currency) * r.ticket_count;
  }
  const tickets = rows.reduce((n, r) => n + r.ticket_count, 0);
  const paymentId = newId('pay');
  const [{ payment, url }, [inserted]] = await Promise.all([
    startPayment(
      partnerId,
      {
        id: paymentId,
        purpose: BUY_INTENTION_PURPOSE,
        reference: id,
        description: `${tickets} × ${first.ticket_option_id} (resale)`,
        amountMinor: subtotal + fees,
        currency: first.currency,
        buyerEmail: buyer,
        successUrl: pageQuery ? `${intentionUrl(id)}?${pageQuery}` : intentionUrl(id),
        // A payment that outlives the hold is still completed if the listings are free, else refunded.
        expiresInMinutes: Math.max(5, minutes),
      },
      work,
      // Read only for a provider's hosted checkout (Stripe), not the sandbox's own page.
      { lines: (tx) => checkoutLines(rows, terms, page.lang, tx) },
    ),
    // A plain statement (the query builder's insert cost more than the write); the list goes as JSON.
    work.tx.execute<{ expires_at: string }>(sql`
      insert into ${buyIntentions} (id, partner_id, buyer_email, listing_ids, currency, subtotal_minor,
        buyer_fee_minor, total_minor, payment_id, expires_at, locale)
      values (${id}, ${partnerId}, ${buyer}, array(select json_array_elements_text(${JSON.stringify(items)}::json)),
        ${first.currency}, ${subtotal}, ${fees}, ${subtotal + fees}, ${paymentId},
        now() + make_interval(mins => ${minutes}), ${locale})
      returning expires_at`),
  ]);
  // A fresh intention id has no open payment yet, so the payment is the one chosen above.
  if (payment.id !== paymentId) throw new Error(`payment ${payment.id} answered for new intention ${id}`);
  const intention = {
    id,
    status: 'PENDING' as const,
    listingIds: items,
    buyerEmail: buyer,
    currency: first.currency,
    subtotalMinor: subtotal,
    buyerFeeMinor: fees,
    totalMinor: subtotal + fees,
    expiresAt: new Date(inserted.expires_at),
    endReason: null,
  };
  return { intention, url };
}

function intentionOut(
  row: Pick<
    typeof buyIntentions.$inferSelect,
    | 'id'
    | 'status'
    | 'listingIds'
    | 'buyerEmail'
    | 'currency'
    | 'subtotalMinor'
    | 'buyerFeeMinor'
    | 'totalMinor'
    | 'expiresAt'
    | 'endReason'
  >,
  paymentUrl: string | null,
) {
  const money = (minor: number) => fromMinorUnits(minor, row.currency);
  return {
    id: row.id,
    status: row.status,
    items: row.listingIds,
    user: row.buyerEmail,
    currency: row.currency,
    subtotal: money(row.subtotalMinor),
    buyerFee: money(row.buyerFeeMinor),
    total: money(row.totalMinor),
    expiresAt: new Date(row.expiresAt).toISOString(),
    /** Where the buyer pays (the provider's checkout), or the intention's own page once paying is over. */
    paymentUrl: row.status === 'PENDING' && paymentUrl ? paymentUrl : intentionUrl(row.id),
    /** Why a paid purchase was refused (then refunded). */
    reason: row.endReason,
  };
}

/**
 * An intention of the partner's as it stands now: PENDING past its time reads as EXPIRED (holds.ts). The
 * read writes nothing; the expiry job, the minute sweep or the next buyer's claim ends the hold.
 */
export async function getBuyIntention(partnerId: string, id: string, db: DbOrTx) {
  const [row] = await db
    .select({ ...getTableColumns(buyIntentions), status: intentionStatusNow })
    .from(buyIntentions)
    .where(and(eq(buyIntentions.id, id), eq(buyIntentions.partnerId, partnerId)));
  if (!row) throw notFound('Buy intention not found');
  const payment = row.status === 'PENDING' && row.paymentId ? await getPayment(partnerId, row.paymentId, db) : null;
  return intentionOut(row, payment?.checkoutUrl ?? null);
}

/** The expiry job's work for one intention: ends its hold if its time is up (an early run does nothing). */
export async function expireIntention(intentionId: string, db: Db): Promise<boolean> {
  const [row] = await db
    .select({ partnerId: buyIntentions.partnerId, listingIds: buyIntentions.listingIds })
    .from(buyIntentions)
    .where(eq(buyIntentions.id, intentionId));
  if (!row) return false;
  const ended = await releaseExpired(db, { partnerId: row.partnerId, listingIds: row.listingIds });
  return ended.includes(intentionId);
}

/**
 * Ends open listings (a cascade) with the intentions holding them, freeing their tickets: CANCELLED for
 * good, or UNLISTED (the seller may list them again).
 */
export async function endOpenListings(tx: Tx, listingIds: string[], status: 'CANCELLED' | 'UNLISTED'): Promise<void> {
  if (!listingIds.length) return;
  // The listings locked first (in id order, as a claim takes them): a claim under way finishes before (its
  // intention committed, so cancelled below) or finds them locked and then ended (a 409). Cancelling the
  // holds before the lock let a claim committing in between keep a PENDING hold on an ended listing.
  await tx
    .select({ id: listings.id })
    .from(listings)
    .where(inArray(listings.id, listingIds))
    .orderBy(listings.id)
    .for('update');
  await cancelIntentionsHolding(tx, listingIds);
  await tx
    .update(listings)
    .set({ status, reservedBy: null, updatedAt: sql`now()` })
    .where(inArray(listings.id, listingIds));
  listingsChangedAfterCommit(tx);
  await tx.update(listingItems).set({ open: false }).where(inArray(listingItems.listingId, listingIds));
}

/** Closes open listings for good (a cascade) and cancels the intentions holding them. */
export function cancelListings(tx: Tx, listingIds: string[]): Promise<void> {
  return endOpenListings(tx, listingIds, 'CANCELLED');
}

/**
 * Resale stopped for shows: staff turned protection off, or the partner turned `resaleEnabled` off
 * (subscribed in server/wiring.ts, in that transaction). Their open listings (ACTIVE, and RESERVED with
 * the holds on them: a payment that still arrives is refunded as not available) become UNLISTED, which
 * the seller may list again once resale is back, and each seller is told by mail.
 */
export async function unlistListingsOfShows(work: Work, showPks: string[]): Promise<void> {
  if (!showPks.length) return;
  const open = await work.tx
    .select({ id: listings.id })
    .from(listings)
    .where(and(inArray(listings.showPk, showPks), inArray(listings.status, ['ACTIVE', 'RESERVED'])));
  const ids = open.map((l) => l.id);
  if (!ids.length) return;
  await endOpenListings(work.tx, ids, 'UNLISTED');
  await mailListingsCancelled(work, ids, 'protectionOff');
}
