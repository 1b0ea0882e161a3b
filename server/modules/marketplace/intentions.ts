import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { type Db, type DbOrTx, getDb, type Tx } from '@/db';
import { buyIntentions, listingItems, listings, payouts } from '@/db/schema/marketplace';
import { env, publicBaseUrl } from '@/server/env';
import { AppError, badRequest, conflict, notFound } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { fromMinorUnits } from '@/server/lib/money';
import { transaction, type Work } from '@/server/lib/transaction';
import { getPayment, startPayment } from '@/server/modules/payments';
import { buyerFeeMinor, marketTerms } from './fees';

export const EXPIRE_INTENTION_JOB = 'marketplace.expireIntention';
export const REFUND_PURCHASE_JOB = 'marketplace.refundPurchase';
/** The payments module's `purpose` of a buy intention's payment; its `reference` is the intention id. */
export const BUY_INTENTION_PURPOSE = 'buy_intention';
export const MAX_ITEMS_PER_INTENTION = 50;

/** The intention holds one of these listings (one JSON parameter, not one per id). */
const overlaps = (listingIds: string[]) =>
  sql`${buyIntentions.listingIds} && array(select json_array_elements_text(${JSON.stringify(listingIds)}::json))`;

/**
 * Ends PENDING intentions whose time is up (all of a partner's, or those holding these listings) and
 * puts their listings back on sale, in one statement (so never one without the other, whoever calls it).
 * Run by the expiry job at each intention's end, by a minute sweep, and by every read that shows
 * listings, so a lost job never keeps a listing held.
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
  return rows.map((r) => r.id);
}

/** Cancels the PENDING intentions holding these listings (the listings are being ended by a cascade). */
export async function cancelIntentionsHolding(tx: Tx, listingIds: string[]): Promise<void> {
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

/**
 * POST /v1/marketplace/buyingflow/buyIntention: holds the listings for the buyer while they pay. The
 * listings must be the partner's, ACTIVE, and of one event, show and ticket option (anchor notes); a
 * PACK is always bought whole. Exactly one intention can hold a listing: the listings are locked in id
 * order and re-checked, so of many buyers at once one gets them and the others a 409. The hold ends at
 * `expiresAt` (BUY_INTENTION_MINUTES).
 */
export async function createBuyIntention(
  partnerId: string,
  input: {
    items: string[];
    user: string;
    /** Query the buyer's return to the intention page carries (the fan pages' `returnTo`). */
    pageQuery?: string;
  },
  within?: Work | Db,
) {
  const items = [...new Set(input.items)].sort();
  if (items.length > MAX_ITEMS_PER_INTENTION) {
    throw badRequest(`At most ${MAX_ITEMS_PER_INTENTION} listings per intention`, [
      { path: 'items', message: `has more than ${MAX_ITEMS_PER_INTENTION} listings` },
    ]);
  }
  const buyer = input.user.trim().toLowerCase();
  const minutes = env().BUY_INTENTION_MINUTES;
  // One read first, outside any transaction: most buyers of a popular listing find it held already and get
  // their 409 from this alone; a hold whose time is up is released in the transaction below.
  const seen = await (within && 'after' in within ? within.tx : (within ?? getDb()))
    .select({ id: listings.id, status: listings.status, holdOver: sql<boolean>`${buyIntentions.expiresAt} <= now()` })
    .from(listings)
    .leftJoin(buyIntentions, eq(buyIntentions.id, listings.reservedBy))
    .where(and(eq(listings.partnerId, partnerId), inArray(listings.id, items)));
  const heldNow = seen.filter((r) => r.status === 'RESERVED' && !r.holdOver);
  if (heldNow.length && seen.length === items.length) {
    throw notAvailable(heldNow, 'items');
  }
  const expiredHolds = seen.some((r) => r.status === 'RESERVED' && r.holdOver);
  return transaction(async (work) => {
    const { tx, after } = work;
    if (expiredHolds) await releaseExpired(tx, { partnerId, listingIds: items });
    // SKIP LOCKED: a listing another buyer is taking right now counts as taken (a 409 at once, not a
    // wait in line behind every other buyer of a popular listing).
    const rows = await tx
      .select()
      .from(listings)
      .where(and(eq(listings.partnerId, partnerId), inArray(listings.id, items)))
      .orderBy(listings.id)
      .for('update', { skipLocked: true });
    if (rows.length < items.length) {
      const exist = await tx
        .select({ id: listings.id })
        .from(listings)
        .where(and(eq(listings.partnerId, partnerId), inArray(listings.id, items)));
      const busy = exist.filter((e) => !rows.some((r) => r.id === e.id)).map((e) => e.id);
      // Locked by another buyer's transaction: as good as held.
      if (busy.length)
        throw notAvailable(
          busy.map((id) => ({ id, status: 'RESERVED' })),
          'items',
        );
    }
    assertPurchasable(items, rows, 'purchase', 'items');
    const first = rows[0];
    if (rows.some((r) => r.sellerEmail === buyer)) throw conflict('A seller cannot buy their own listing');

    const terms = await marketTerms(partnerId, tx);
    let subtotal = 0;
    let fees = 0;
    for (const r of rows) {
      subtotal += r.priceMinor * r.ticketCount;
      fees += buyerFeeMinor(terms, r.priceMinor, r.currency) * r.ticketCount;
    }
    const id = newId('bi');
    const [intention] = await tx
      .insert(buyIntentions)
      .values({
        id,
        partnerId,
        buyerEmail: buyer,
        listingIds: items,
        currency: first.currency,
        subtotalMinor: subtotal,
        buyerFeeMinor: fees,
        totalMinor: subtotal + fees,
        expiresAt: sql`now() + make_interval(mins => ${minutes})` as unknown as Date,
      })
      .returning();
    await tx
      .update(listings)
      .set({ status: 'RESERVED', reservedBy: id, updatedAt: sql`now()` })
      .where(inArray(listings.id, items));
    // Expiry at its time (both providers delay a job); the minute sweep and late reads cover a lost job.
    after.job(EXPIRE_INTENTION_JOB, { intentionId: id }, { runAt: intention.expiresAt, singletonKey: id });
    // The payment belongs to this transaction too: an intention is never left without its checkout.
    const tickets = rows.reduce((n, r) => n + r.ticketCount, 0);
    const { payment, url } = await startPayment(
      partnerId,
      {
        purpose: BUY_INTENTION_PURPOSE,
        reference: id,
        description: `${tickets} × ${first.ticketOptionId} (resale)`,
        amountMinor: subtotal + fees,
        currency: first.currency,
        buyerEmail: buyer,
        successUrl: input.pageQuery ? `${intentionUrl(id)}?${input.pageQuery}` : intentionUrl(id),
        // A payment that outlives the hold is still completed if the listings are free, else refunded.
        expiresInMinutes: Math.max(5, minutes),
      },
      work,
    );
    await tx.update(buyIntentions).set({ paymentId: payment.id }).where(eq(buyIntentions.id, id));
    return intentionOut(intention, url);
  }, within);
}

function intentionOut(row: typeof buyIntentions.$inferSelect, paymentUrl: string | null) {
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

export type BuyIntentionView = ReturnType<typeof intentionOut>;

/** An intention of the partner's, its hold released first if its time is up. */
export async function getBuyIntention(partnerId: string, id: string, db: Db = getDb()) {
  await releaseExpired(db, { partnerId });
  const [row] = await db
    .select()
    .from(buyIntentions)
    .where(and(eq(buyIntentions.id, id), eq(buyIntentions.partnerId, partnerId)));
  if (!row) throw notFound('Buy intention not found');
  const payment = row.paymentId ? await getPayment(partnerId, row.paymentId, db) : null;
  return intentionOut(row, payment?.checkoutUrl ?? null);
}

/** The expiry job's work for one intention: ends its hold if its time is up (an early run does nothing). */
export async function expireIntention(intentionId: string, db: Db = getDb()): Promise<boolean> {
  const [row] = await db
    .select({ partnerId: buyIntentions.partnerId, listingIds: buyIntentions.listingIds })
    .from(buyIntentions)
    .where(eq(buyIntentions.id, intentionId));
  if (!row) return false;
  const ended = await releaseExpired(db, { partnerId: row.partnerId, listingIds: row.listingIds });
  return ended.includes(intentionId);
}

/** Closes open listings for good (a cascade) and cancels the intentions holding them. */
export async function cancelListings(tx: Tx, listingIds: string[]): Promise<void> {
  if (!listingIds.length) return;
  await cancelIntentionsHolding(tx, listingIds);
  await tx
    .update(listings)
    .set({ status: 'CANCELLED', reservedBy: null, updatedAt: sql`now()` })
    .where(inArray(listings.id, listingIds));
  await tx.update(listingItems).set({ open: false }).where(inArray(listingItems.listingId, listingIds));
}

/**
 * Show cancellation (subscribed in server/wiring.ts, in the cancelling transaction): the shows' open
 * listings end with the holds on them; tickets already sold there are refunded to their buyers (a job
 * per payment, after the commit: the provider is called outside the transaction) and their sellers'
 * scheduled payouts are cancelled.
 */
export async function terminateListingsOfShows(work: Work, showPks: string[]): Promise<void> {
  const { tx, after } = work;
  const open = await tx
    .select({ id: listings.id })
    .from(listings)
    .where(and(inArray(listings.showPk, showPks), inArray(listings.status, ['ACTIVE', 'RESERVED'])));
  await cancelListings(
    tx,
    open.map((l) => l.id),
  );
  const sold = await tx
    .select({ id: listings.id, intentionId: listings.reservedBy })
    .from(listings)
    .where(and(inArray(listings.showPk, showPks), eq(listings.status, 'SOLD')));
  if (!sold.length) return;
  await tx
    .update(payouts)
    .set({ status: 'CANCELLED' })
    .where(
      and(
        inArray(
          payouts.listingId,
          sold.map((l) => l.id),
        ),
        eq(payouts.status, 'SCHEDULED'),
      ),
    );
  const intentionIds = [...new Set(sold.map((l) => l.intentionId).filter((id): id is string => !!id))];
  const paid = intentionIds.length
    ? await tx
        .select({ partnerId: buyIntentions.partnerId, paymentId: buyIntentions.paymentId })
        .from(buyIntentions)
        .where(and(inArray(buyIntentions.id, intentionIds), eq(buyIntentions.status, 'COMPLETED')))
    : [];
  for (const p of paid) {
    if (p.paymentId) {
      after.job(REFUND_PURCHASE_JOB, {
        partnerId: p.partnerId,
        paymentId: p.paymentId,
        reason: 'The show was cancelled',
      });
    }
  }
}

/** Ticket invalidation (DELETE /v1/tickets/{ticketId}, subscribed in server/wiring.ts): its open listing ends. */
export async function terminateListingsOfTickets(tx: Tx, ticketPks: string[]): Promise<void> {
  const open = await tx
    .selectDistinct({ id: listingItems.listingId })
    .from(listingItems)
    .where(and(inArray(listingItems.ticketPk, ticketPks), eq(listingItems.open, true)));
  await cancelListings(
    tx,
    open.map((l) => l.id),
  );
}
