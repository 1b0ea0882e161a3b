import { and, count, desc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx, Tx } from '@/db';
import { buyIntentions, LISTING_STATUSES, listingItems, listings, payouts } from '@/db/schema/marketplace';
import { conflict, notFound } from '@/server/lib/errors';
import { fromMinorUnits } from '@/server/lib/money';
import { pageCountOf } from '@/server/lib/paging';
import { transaction } from '@/server/lib/transaction';
import { type AuditActor, recordAudit } from '@/server/modules/audit';
import { showDirectory } from '@/server/modules/catalog';
import { errorFields, log } from '@/server/lib/log';
import { getPayment, type Payment, reserveRefund, sendRefund } from '@/server/modules/payments';
import { REFUND_PURCHASE_JOB } from './intentions';
import { recordPurchaseRefund } from './refunds';
import { listingStatusNow, statusNowIs } from './holds';
import { channelNamesOfSellers } from './channel-seller';

/**
 * The staff dashboard's view of a partner's market: listings, purchases (with their payments and
 * refunds), payouts, and refunding a purchase. Reads only the marketplace's tables; events come from
 * the catalogue's `showDirectory`, payments from the payments module.
 */

export const LISTING_STATUS_VALUES = LISTING_STATUSES;
export const PAYOUT_STATUSES = ['SCHEDULED', 'PAID', 'CANCELLED'] as const;

const partnerId = z.string().min(1);
const paging = {
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(25),
};

export const listListingsInput = z.object({
  partnerId,
  status: z.enum(LISTING_STATUSES).optional(),
  /** The event's externalReferenceId. */
  eventRef: z.string().trim().min(1).max(255).optional(),
  ...paging,
});
export type ListListingsInput = z.input<typeof listListingsInput>;

export const listPurchasesInput = z.object({ partnerId, ...paging });
export type ListPurchasesInput = z.input<typeof listPurchasesInput>;

export const listPayoutsInput = z.object({ partnerId, status: z.enum(PAYOUT_STATUSES).optional(), ...paging });
export type ListPayoutsInput = z.input<typeof listPayoutsInput>;

export const refundPurchaseInput = z.object({
  partnerId,
  intentionId: z.string().trim().min(1).max(100),
  reason: z.string().trim().min(1, 'Say why the purchase is refunded').max(500),
  staffEmail: z.email(),
});
export type RefundPurchaseInput = z.input<typeof refundPurchaseInput>;

const money = (minor: number, currency: string) => fromMinorUnits(minor, currency) ?? 0;
const pageOf = <T>(items: T[], total: number, page: number, pageSize: number) => ({
  items,
  total,
  page,
  pageSize,
  pageCount: pageCountOf(total, pageSize),
});

/** A partner's listings, newest first, by status and/or event (its externalReferenceId). */
export async function listListings(input: ListListingsInput, db: DbOrTx) {
  const q = listListingsInput.parse(input);
  const show = showDirectory(db);
  const where = and(
    eq(listings.partnerId, q.partnerId),
    // By its status now: an expired hold is ACTIVE here as everywhere (holds.ts).
    q.status ? statusNowIs(q.status) : undefined,
    q.eventRef ? eq(show.eventRef, q.eventRef) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: listings.id,
        status: listingStatusNow(),
        type: listings.type,
        eventRef: show.eventRef,
        eventTitle: show.eventTitle,
        showId: show.showId,
        priceMinor: listings.priceMinor,
        currency: listings.currency,
        sellerEmail: listings.sellerEmail,
        createdAt: listings.createdAt,
        soldAt: listings.soldAt,
      })
      .from(listings)
      .innerJoin(show, eq(show.showPk, listings.showPk))
      .where(where)
      .orderBy(desc(listings.createdAt), desc(listings.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(listings).innerJoin(show, eq(show.showPk, listings.showPk)).where(where),
  ]);
  const items = rows.length
    ? await db
        .select({ listingId: listingItems.listingId, ticketId: listingItems.ticketId })
        .from(listingItems)
        .where(
          inArray(
            listingItems.listingId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(listingItems.ticketId)
    : [];
  const channelOf = await channelNamesOfSellers(
    q.partnerId,
    rows.map((r) => r.sellerEmail),
    db,
  );
  return pageOf(
    rows.map(({ priceMinor, ...r }) => ({
      ...r,
      /** The channel's name where a channel listed it (sellerEmail is then its marker address). */
      sellerChannel: channelOf.get(r.sellerEmail) ?? null,
      price: money(priceMinor, r.currency),
      ticketIds: items.filter((i) => i.listingId === r.id).map((i) => i.ticketId),
    })),
    total,
    q.page,
    q.pageSize,
  );
}

/** Purchases that took money: completed ones, and refused ones (cancelled after paying, refunded by a job). */
const purchased = (partner: string) =>
  and(
    eq(buyIntentions.partnerId, partner),
    or(
      eq(buyIntentions.status, 'COMPLETED'),
      and(eq(buyIntentions.status, 'CANCELLED'), isNotNull(buyIntentions.paymentId)),
    ),
  );

/** A purchase is refunded once any of its payment has been (a second refund is refused). */
const isRefunded = (payment: Payment | null) =>
  payment !== null &&
  (payment.refundedMinor > 0 || payment.status === 'refunded' || payment.status === 'partially_refunded');

/** A partner's purchases, newest first, each with its payment and what was refunded of it. */
export async function listPurchases(input: ListPurchasesInput, db: DbOrTx) {
  const q = listPurchasesInput.parse(input);
  const where = purchased(q.partnerId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(buyIntentions)
      .where(where)
      .orderBy(desc(buyIntentions.createdAt), desc(buyIntentions.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(buyIntentions).where(where),
  ]);
  // Payouts already paid for purchases refunded afterwards: the seller got the money and so did the buyer.
  const refundedIds = rows.filter((r) => r.refundedAt).map((r) => r.id);
  const paidAnyway = refundedIds.length
    ? await db
        .select({ id: payouts.id, intentionId: payouts.intentionId })
        .from(payouts)
        .where(and(inArray(payouts.intentionId, refundedIds), eq(payouts.status, 'PAID')))
    : [];
  const channelOf = await channelNamesOfSellers(
    q.partnerId,
    rows.map((r) => r.buyerEmail),
    db,
  );
  const items = await Promise.all(
    rows.map(async (r) => {
      const payment = r.paymentId ? await getPayment(q.partnerId, r.paymentId, db).catch(() => null) : null;
      return {
        id: r.id,
        /** REFUNDED: a completed purchase refunded afterwards (`refundReason`, `refundedAt` say why and when). */
        status: r.refundedAt ? ('REFUNDED' as const) : r.status,
        refundReason: r.refundReason,
        refundedAt: r.refundedAt,
        /** Payouts paid to sellers before this purchase was refunded: money to recover (a clawback). */
        paidPayoutsAfterRefund: paidAnyway.filter((p) => p.intentionId === r.id).map((p) => p.id),
        buyerEmail: r.buyerEmail,
        buyerChannel: channelOf.get(r.buyerEmail) ?? null,
        listingIds: r.listingIds,
        currency: r.currency,
        total: money(r.totalMinor, r.currency),
        paymentId: r.paymentId,
        paymentStatus: payment?.status ?? null,
        refunded: money(payment?.refundedMinor ?? 0, r.currency),
        /** Staff may refund it: completed, paid, nothing refunded yet. */
        refundable: r.status === 'COMPLETED' && !r.refundedAt && payment?.status === 'paid' && !isRefunded(payment),
        endReason: r.endReason,
        createdAt: r.createdAt,
        endedAt: r.endedAt,
      };
    }),
  );
  return pageOf(items, total, q.page, q.pageSize);
}

/** A partner's payouts to sellers, newest first, by status. */
export async function listPayouts(input: ListPayoutsInput, db: DbOrTx) {
  const q = listPayoutsInput.parse(input);
  const where = and(eq(payouts.partnerId, q.partnerId), q.status ? eq(payouts.status, q.status) : undefined);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(payouts)
      .where(where)
      .orderBy(desc(payouts.createdAt), desc(payouts.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(payouts).where(where),
  ]);
  const channelOf = await channelNamesOfSellers(
    q.partnerId,
    rows.map((r) => r.sellerEmail),
    db,
  );
  return pageOf(
    rows.map(({ amountMinor, partnerId: _p, ...r }) => ({
      ...r,
      sellerChannel: channelOf.get(r.sellerEmail) ?? null,
      amount: money(amountMinor, r.currency),
    })),
    total,
    q.page,
    q.pageSize,
  );
}

/** The staff refund's own id: one staff refund per purchase, and a retry of its money finds it. */
const staffRefundId = (intentionId: string) => `rfd_${intentionId}_staff`;

/** The staff refund in the audit log, in its deciding transaction: who, the reason and the amount. */
async function recordStaffRefund(
  tx: Tx,
  actor: AuditActor,
  q: { partnerId: string; intentionId: string; reason: string },
  refund: { id: string; amountMinor: number; currency: string },
) {
  await recordAudit(tx, {
    actor,
    partnerId: q.partnerId,
    action: 'purchase.refunded',
    target: { type: 'purchase', id: q.intentionId },
    before: { refunded: false },
    after: {
      refunded: true,
      reason: q.reason,
      refundId: refund.id,
      amountMinor: refund.amountMinor,
      currency: refund.currency,
    },
  });
}

/**
 * Staff refund a completed purchase, once. In one transaction, with the purchase locked (FOR UPDATE): it
 * must be COMPLETED and not refunded yet; the whole payment's refund is reserved under the payment's lock
 * (reserveRefund: the amount guard for the money); and recordPurchaseRefund marks it refunded with a
 * conditional UPDATE, moves the sellers' SCHEDULED payouts to CANCELLED (so payDuePayouts, which claims a
 * payout under its row lock, can no longer pay it; one being paid at this moment is waited for and then
 * reported as paid), mails the buyer and those sellers and queues `ticket.refunded`. Only after the
 * commit is the provider asked for the money; if it fails, a job retries under the same refund id. Of
 * many refunds at once, one gets through and the others are a 409. The listings stay SOLD and the tickets
 * the buyer's: what happens to the tickets is the partner's call on that webhook.
 */
export async function refundPurchase(
  input: RefundPurchaseInput,
  // The handle, not a transaction: the refund commits first, the provider is asked after it.
  db: Db,
  actor?: AuditActor,
) {
  const q = refundPurchaseInput.parse(input);
  const reason = `${q.reason} (by ${q.staffEmail})`;
  const decided = await transaction(async (work) => {
    const { tx } = work;
    const [intention] = await tx
      .select()
      .from(buyIntentions)
      .where(and(eq(buyIntentions.partnerId, q.partnerId), eq(buyIntentions.id, q.intentionId)))
      .for('update');
    if (!intention) throw notFound('Purchase not found');
    if (intention.status !== 'COMPLETED' || !intention.paymentId) {
      throw conflict(`Only a completed purchase can be refunded; this one is ${intention.status.toLowerCase()}`);
    }
    if (intention.refundedAt) throw conflict('This purchase has already been refunded');
    const payment = await getPayment(q.partnerId, intention.paymentId, tx);
    if (isRefunded(payment)) throw conflict('This purchase has already been refunded');
    const reserved = await reserveRefund(tx, q.partnerId, {
      paymentId: payment.id,
      reason,
      refundId: staffRefundId(intention.id),
    });
    if ('earlier' in reserved) throw conflict('This purchase has already been refunded');
    const recorded = await recordPurchaseRefund(work, q.partnerId, intention.id, {
      reason: 'STAFF_REFUND',
      text: q.reason,
      endReason: `Refunded: ${q.reason}`,
      amountMinor: reserved.refund.amountMinor,
    });
    // Under the purchase's lock it was COMPLETED and not refunded: the conditional update cannot miss.
    if (!recorded) throw conflict('This purchase has already been refunded');
    if (actor) await recordStaffRefund(tx, actor, q, reserved.refund);
    return { intention, recorded, ...reserved };
  }, db);

  let refund = decided.refund;
  let retrying = false;
  try {
    refund = await sendRefund(decided.refund, decided.payment, db);
  } catch (err) {
    // The purchase is refunded in our books and everyone told: the money is retried by a job under the
    // same refund id (a failed refund is tried again under it), never a second refund.
    log.warn('a staff refund failed at the provider; a job retries it', {
      intentionId: decided.intention.id,
      refundId: decided.refund.id,
      ...errorFields(err),
    });
    await transaction(async ({ after }) => {
      after.job(REFUND_PURCHASE_JOB, {
        partnerId: q.partnerId,
        paymentId: decided.payment.id,
        reason,
        refundId: decided.refund.id,
      });
    }, db);
    retrying = true;
  }
  return {
    intentionId: decided.intention.id,
    paymentId: decided.payment.id,
    refundId: refund.id,
    refundStatus: retrying ? ('failed' as const) : refund.status,
    /** The provider failed; a job tries again under the same refund id. */
    retrying,
    refunded: money(refund.amountMinor, refund.currency),
    currency: refund.currency,
    cancelledPayouts: decided.recorded.cancelledPayouts,
    /** Payouts already paid to the seller before this refund: to recover from them. */
    paidPayouts: decided.recorded.paidPayouts,
    messageId: decided.recorded.messageId,
  };
}
