import { and, eq, inArray, sql } from 'drizzle-orm';
import { buyIntentions, listingItems, listings, payouts } from '@/db/schema/marketplace';
import { newId } from '@/server/lib/ids';
import type { Tx } from '@/db';
import type { Work } from '@/server/lib/transaction';
import type { Payment, PaymentRefusal } from '@/server/modules/payments';
import {
  resolvePrimarySalesFee,
  type SaleTicket,
  secureViewUrl,
  ticketsByPk,
  transferOwnership,
} from '@/server/modules/tickets';
import { protectionOf } from '@/server/modules/protection';
import { holdShows, optionPrices, showDirectory } from '@/server/modules/catalog';
import { type ChannelListingSold, listingsChangedAfterCommit, notifyChannelListingsSold } from './events';
import { enqueueWebhook } from '@/server/modules/webhooks';
import { buyerFeeMinor, marketTerms, primaryFeeMinorOf, type SaleSplit, saleSplitOf } from './fees';
import { BUY_INTENTION_PURPOSE, cancelListings, REFUND_PURCHASE_JOB } from './intentions';
import { mailListingsCancelled, mailPurchaseCompleted, mailPurchaseRefunded, mailTicketsDelivered } from './mails';
import { notOwnedBy } from './ownership';

const DAY = 24 * 3600_000;

/** The partner's share of one resale ticket, from its resolved primary sales fee (anchor notes). */
async function primaryFeeMinor(partnerId: string, ticket: SaleTicket, priceMinor: number, work: Work) {
  const resolved = await resolvePrimarySalesFee(partnerId, ticket.ticketId, work.tx);
  return primaryFeeMinorOf(resolved?.fee, priceMinor, ticket.currency);
}

/**
 * Sold tickets change hands: the buyer owns them with fresh secure links, and the partner gets
 * `ticket.updated` for each (outbox). Answers the buyer's new links.
 */
async function handOver(
  work: Work,
  partnerId: string,
  tickets: SaleTicket[],
  buyerEmail: string,
  reissue: boolean,
  opts: { refuseRevealed?: boolean; heldBy?: ReadonlyMap<string, string | null> } = {},
) {
  const changed = await transferOwnership(
    work.tx,
    tickets.map((t) => t.pk),
    buyerEmail,
    { reason: 'SOLD', reissue, refuseRevealed: opts.refuseRevealed, ...(opts.heldBy ? { heldBy: opts.heldBy } : {}) },
  );
  const urls: string[] = [];
  for (const c of changed) {
    await enqueueWebhook(work, partnerId, {
      family: 'ticket',
      action: 'ticket.updated',
      data: { id: c.ticketId, newOwnerEmail: buyerEmail, oldOwnerEmail: c.oldOwnerEmail },
    });
    urls.push(await secureViewUrl(partnerId, c.ticketId, work.tx));
  }
  return urls;
}

/**
 * How a listing's price splits for these tickets: what its seller receives (the price less the seller fee
 * and the partner's primary fee), Encore's seller fee and the partner's fee, summed over the tickets.
 */
async function splitOf(
  work: Work,
  partnerId: string,
  terms: Awaited<ReturnType<typeof marketTerms>>,
  listing: { priceMinor: number; currency: string },
  tickets: SaleTicket[],
): Promise<SaleSplit> {
  const sum: SaleSplit = { payoutMinor: 0, sellerFeeMinor: 0, partnerFeeMinor: 0 };
  for (const t of tickets) {
    const fee = await primaryFeeMinor(partnerId, t, listing.priceMinor, work);
    const one = saleSplitOf(terms, listing.priceMinor, listing.currency, fee);
    sum.payoutMinor += one.payoutMinor;
    sum.sellerFeeMinor += one.sellerFeeMinor;
    sum.partnerFeeMinor += one.partnerFeeMinor;
  }
  return sum;
}

/**
 * The face value of a sale's tickets: the sum of each ticket's price as the partner sent it, else its ticket
 * option's in the catalogue (read only when a ticket has no price of its own). Null unless every one of the
 * listing's tickets has a face value above 0 in the listing's currency (the overview then reads the
 * tickets, as for sales before migration 0038).
 */
async function faceMinorOf(
  tx: Tx,
  listing: { currency: string; ticketCount: number },
  tickets: SaleTicket[],
): Promise<number | null> {
  if (!tickets.length || tickets.length !== listing.ticketCount) return null;
  if (tickets.some((t) => t.currency !== listing.currency)) return null;
  const unpriced = tickets.filter((t) => t.priceMinor === null);
  const options = await optionPrices(unpriced, tx);
  let face = 0;
  for (const t of tickets) {
    const one = t.priceMinor ?? options.get(`${t.showPk}|${t.ticketOptionId}`) ?? null;
    if (one === null || one <= 0) return null;
    face += one;
  }
  return face;
}

/**
 * The purchase's buyer fee per listing, adding up to the fee the buyer paid (fixed when the intention was
 * made): each listing's fee under today's terms; if the terms changed while the buyer paid, the paid fee is
 * shared in those proportions (by price when they are all 0), the rounding left on the first listing.
 */
function buyerFeeShares(
  terms: Awaited<ReturnType<typeof marketTerms>>,
  paidFeeMinor: number,
  rows: { priceMinor: number; ticketCount: number; currency: string }[],
): number[] {
  const fees = rows.map((r) => buyerFeeMinor(terms, r.priceMinor, r.currency) * r.ticketCount);
  const sum = fees.reduce((n, f) => n + f, 0);
  if (sum === paidFeeMinor) return fees;
  const weights = sum > 0 ? fees : rows.map((r) => r.priceMinor * r.ticketCount);
  const total = weights.reduce((n, w) => n + w, 0);
  const shares = weights.map((w) => (total > 0 ? Math.floor((paidFeeMinor * w) / total) : 0));
  if (shares.length) shares[0] += paidFeeMinor - shares.reduce((n, x) => n + x, 0);
  return shares;
}

/**
 * Holds the shows of an intention's listings against a cancellation (catalog holdShows), before the
 * intention is locked: the order a cancellation locks in. Answers their status.
 */
async function holdShowsOfIntention(work: Work, partnerId: string, intentionId: string) {
  const { tx } = work;
  const rows = await tx
    .selectDistinct({ showPk: listings.showPk })
    .from(listings)
    .innerJoin(buyIntentions, sql`${listings.id} = any(${buyIntentions.listingIds})`)
    .where(and(eq(buyIntentions.id, intentionId), eq(buyIntentions.partnerId, partnerId)));
  return holdShows(
    tx,
    rows.map((r) => r.showPk),
  );
}

/**
 * A buy intention's payment was confirmed (subscribed to the payments module in server/wiring.ts; runs in
 * the paying transaction). The sellers' ownership is asked of the partner again; then, in this one
 * transaction: the listings SOLD, the tickets owned by the buyer with fresh secure links, `ticket.updated`
 * queued for the partner (outbox), the sellers' payouts scheduled, the intention COMPLETED. If the
 * tickets are no longer the sellers' (or no longer held for this buyer) the purchase is refused: the
 * payment stays paid here and is refunded by a job after the commit, the listings concerned are cancelled
 * (ownership) or back on sale (a late payment), and the intention says why.
 */
export async function completePurchase(work: Work, payment: Payment): Promise<void> {
  if (payment.purpose !== BUY_INTENTION_PURPOSE) return;
  const { tx } = work;
  await holdShowsOfIntention(work, payment.partnerId, payment.reference);
  const [intention] = await tx
    .select()
    .from(buyIntentions)
    .where(and(eq(buyIntentions.id, payment.reference), eq(buyIntentions.partnerId, payment.partnerId)))
    .for('update');
  if (!intention || intention.status === 'COMPLETED') return;
  const rows = await tx
    .select()
    .from(listings)
    .where(and(eq(listings.partnerId, intention.partnerId), inArray(listings.id, intention.listingIds)))
    .orderBy(listings.id)
    .for('update');
  if (!stillHeldFor(intention, rows)) {
    return refuse(work, intention.id, payment, 'The tickets were no longer available when the payment arrived', []);
  }

  const ticketsOf = await soldTicketsByListing(tx, intention);
  const lost = await listingsNoLongerTheSellers(tx, intention, rows, ticketsOf);
  if (lost.length) {
    return refuse(work, intention.id, payment, 'The seller no longer holds these tickets', lost);
  }

  await markSold(tx, intention, payment);
  await settleSale(work, intention, payment, rows, ticketsOf);
}

type Intention = typeof buyIntentions.$inferSelect;
type Listing = typeof listings.$inferSelect;
type TicketsOf = (listingId: string) => SaleTicket[];

/** The listings are still this buyer's to pay for: reserved for the intention, or back on sale after it expired. */
function stillHeldFor(intention: Intention, rows: Listing[]) {
  return (
    intention.status !== 'CANCELLED' &&
    rows.length === intention.listingIds.length &&
    rows.every(
      (r) =>
        (r.status === 'RESERVED' && r.reservedBy === intention.id) ||
        (r.status === 'ACTIVE' && intention.status === 'EXPIRED'),
    )
  );
}

/** The tickets of the intention's listings, answered per listing. */
async function soldTicketsByListing(tx: Tx, intention: Intention): Promise<TicketsOf> {
  const items = await tx.select().from(listingItems).where(inArray(listingItems.listingId, intention.listingIds));
  const sold = await ticketsByPk(
    intention.partnerId,
    items.map((i) => i.ticketPk),
    tx,
  );
  return (listingId: string) => sold.filter((t) => items.some((i) => i.listingId === listingId && i.ticketPk === t.pk));
}

/** The listings whose tickets the seller no longer owns, or that are no longer valid for a live show. */
async function listingsNoLongerTheSellers(tx: Tx, intention: Intention, rows: Listing[], ticketsOf: TicketsOf) {
  const lost: string[] = [];
  for (const listing of rows) {
    // A channel's listing has no tickets here yet: the channel hands them over when it fulfils the sale.
    if (listing.channelListingId) continue;
    const notOwned = await notOwnedBy(intention.partnerId, listing.sellerEmail, ticketsOf(listing.id), tx);
    const invalid = ticketsOf(listing.id).some((t) => t.status !== 'VALID' || t.showStatus !== 'LIVE');
    if (notOwned.length || invalid) lost.push(listing.id);
  }
  return lost;
}

async function markSold(tx: Tx, intention: Intention, payment: Payment) {
  await tx
    .update(listings)
    .set({ status: 'SOLD', reservedBy: intention.id, soldAt: sql`now()`, updatedAt: sql`now()` })
    .where(inArray(listings.id, intention.listingIds));
  listingsChangedAfterCommit(tx);
  await tx.update(listingItems).set({ open: false }).where(inArray(listingItems.listingId, intention.listingIds));
  await tx
    .update(buyIntentions)
    .set({ status: 'COMPLETED', paymentId: payment.id, endedAt: sql`now()` })
    .where(eq(buyIntentions.id, intention.id));
}

/**
 * Each sold listing settled in listing order: a fan seller's tickets handed over and payout scheduled, a
 * channel's payout scheduled and the channel told; then the buyer's confirmation mail.
 */
async function settleSale(work: Work, intention: Intention, payment: Payment, rows: Listing[], ticketsOf: TicketsOf) {
  const { tx } = work;
  const directory = showDirectory(tx);
  const [terms, protection, showTimes] = await Promise.all([
    marketTerms(intention.partnerId, tx),
    protectionOf(intention.partnerId, tx),
    tx
      .select({ showPk: directory.showPk, startsAt: directory.startsAt })
      .from(directory)
      .where(inArray(directory.showPk, [...new Set(rows.map((r) => r.showPk))])),
  ]);
  const startsAt = new Map(showTimes.map((s) => [s.showPk, s.startsAt]));
  const sales: { listingId: string; payoutMinor: number; dueAt: Date }[] = [];
  const secureViewUrls: string[] = [];
  const channelSold: ChannelListingSold[] = [];
  const buyerFees = buyerFeeShares(terms, intention.buyerFeeMinor, rows);
  let paidSoFar = 0;
  for (const [i, listing] of rows.entries()) {
    if (listing.channelListingId) {
      const showAt = startsAt.get(listing.showPk) ?? new Date();
      const { channelListingId } = listing;
      const sold = await settleChannelListing(tx, terms, intention, payment, {
        listing,
        channelListingId,
        showAt,
        paidSoFar,
        buyerFeeMinor: buyerFees[i],
      });
      paidSoFar += sold.paidMinor;
      channelSold.push(sold);
      continue;
    }
    const list = ticketsOf(listing.id);
    // The links rotated by the sale: the buyer's, for their confirmation mail.
    secureViewUrls.push(...(await handOver(work, intention.partnerId, list, intention.buyerEmail, protection.reissue)));
    const split = await splitOf(work, intention.partnerId, terms, listing, list);
    const showAt = list[0]?.startsAt ?? new Date();
    const dueAt = new Date(showAt.getTime() + terms.payoutDelayDays * DAY);
    sales.push({ listingId: listing.id, payoutMinor: split.payoutMinor, dueAt });
    const faceMinor = await faceMinorOf(tx, listing, list);
    await insertPayout(tx, intention, listing, { ...split, buyerFeeMinor: buyerFees[i], faceMinor }, dueAt);
  }
  await notifyChannelListingsSold(work, channelSold);
  await mailPurchaseCompleted(
    work,
    intention,
    sales,
    secureViewUrls,
    channelSold.reduce((n, c) => n + c.quantity, 0),
  );
}

/**
 * A channel's sold listing: the channel is paid like a fan seller (the partner's primary fee is added once
 * its tickets are known), its share of the buyer's payment capped by what is left of the intention's total.
 */
async function settleChannelListing(
  tx: Tx,
  terms: Awaited<ReturnType<typeof marketTerms>>,
  intention: Intention,
  payment: Payment,
  {
    listing,
    channelListingId,
    showAt,
    paidSoFar,
    buyerFeeMinor: buyerFee,
  }: { listing: Listing; channelListingId: string; showAt: Date; paidSoFar: number; buyerFeeMinor: number },
): Promise<ChannelListingSold> {
  // No primary fee until the channel hands the tickets over (deliverChannelSale records it then).
  const one = saleSplitOf(terms, listing.priceMinor, listing.currency, 0);
  const split: SaleSplit = {
    payoutMinor: one.payoutMinor * listing.ticketCount,
    sellerFeeMinor: one.sellerFeeMinor * listing.ticketCount,
    partnerFeeMinor: 0,
  };
  const payoutMinor = split.payoutMinor;
  const dueAt = new Date(showAt.getTime() + terms.payoutDelayDays * DAY);
  const paid = (listing.priceMinor + buyerFeeMinor(terms, listing.priceMinor, listing.currency)) * listing.ticketCount;
  const paidMinor = Math.min(paid, intention.totalMinor - paidSoFar);
  // Its face value once the channel hands the tickets over (deliverChannelSale).
  await insertPayout(tx, intention, listing, { ...split, buyerFeeMinor: buyerFee, faceMinor: null }, dueAt);
  return {
    listingId: listing.id,
    channelListingId,
    intentionId: intention.id,
    paymentId: payment.id,
    buyerEmail: intention.buyerEmail,
    quantity: listing.ticketCount,
    currency: listing.currency,
    priceMinor: listing.priceMinor,
    paidMinor,
    payoutMinor,
    showStartsAt: showAt,
    seats: listing.channelSeats ?? null,
  };
}

/**
 * The seller's payout for one listing of a completed purchase, due at `dueAt`, with the sale's split as
 * charged (gross = payout + seller fee + partner fee; the buyer fee on top) and its tickets' face value:
 * what reconciliation and the overview read, whatever the terms or the catalogue become later.
 */
async function insertPayout(
  tx: Tx,
  intention: Intention,
  listing: Listing,
  { buyerFeeMinor, faceMinor, ...split }: SaleSplit & { buyerFeeMinor: number; faceMinor: number | null },
  dueAt: Date,
) {
  await tx.insert(payouts).values({
    id: newId('po'),
    partnerId: intention.partnerId,
    sellerEmail: listing.sellerEmail,
    listingId: listing.id,
    intentionId: intention.id,
    currency: listing.currency,
    amountMinor: split.payoutMinor,
    grossMinor: listing.priceMinor * listing.ticketCount,
    buyerFeeMinor,
    sellerFeeMinor: split.sellerFeeMinor,
    partnerFeeMinor: split.partnerFeeMinor,
    faceMinor,
    dueAt,
  });
}

/**
 * A channel handed over the tickets of its sold market listing (the channels module checked them): in the
 * caller's transaction they become the buyer's with fresh secure links, the partner gets `ticket.updated`
 * for each (outbox), the channel's payout takes the partner's primary fee of those tickets into account,
 * and the buyer is mailed the links. Each ticket must still be held by the holder the channels module
 * checked (`buyerEmail` of `tickets`, read under its lock): else a 409 and nothing changes hands.
 */
export async function deliverChannelSale(
  work: Work,
  sale: { partnerId: string; listingId: string; buyerEmail: string },
  tickets: SaleTicket[],
): Promise<void> {
  const { tx } = work;
  const [[listing], terms, protection] = await Promise.all([
    tx.select().from(listings).where(eq(listings.id, sale.listingId)),
    marketTerms(sale.partnerId, tx),
    protectionOf(sale.partnerId, tx),
  ]);
  if (!listing) throw new Error(`listing ${sale.listingId} of a channel sale is missing`);
  // The tickets become the listing's own (closed) items: from now on it reads like a fan's sold listing
  // (the buyer's order page lists them, staff see their ids, their real seats replace the channel's).
  await tx.insert(listingItems).values(
    tickets.map((t) => ({
      listingId: listing.id,
      ticketPk: t.pk,
      partnerId: sale.partnerId,
      ticketId: t.ticketId,
      seating: t.seating,
      open: false,
    })),
  );
  // A channel's ticket whose code its holder has seen is not handed to a buyer while the partner does not
  // reissue (checked under the tickets' lock): the channel gets a 409 naming it and can name another.
  const heldBy = new Map(tickets.map((t) => [t.pk, t.buyerEmail]));
  const secureViewUrls = await handOver(work, sale.partnerId, tickets, sale.buyerEmail, protection.reissue, {
    refuseRevealed: !protection.reissue,
    heldBy,
  });
  const split = await splitOf(work, sale.partnerId, terms, listing, tickets);
  await tx
    .update(payouts)
    .set({
      amountMinor: split.payoutMinor,
      sellerFeeMinor: split.sellerFeeMinor,
      partnerFeeMinor: split.partnerFeeMinor,
      faceMinor: await faceMinorOf(tx, listing, tickets),
    })
    .where(and(eq(payouts.listingId, listing.id), eq(payouts.status, 'SCHEDULED')));
  await mailTicketsDelivered(work, listing.id, sale.buyerEmail, secureViewUrls);
}

/**
 * A channel did not hand over a sold listing's tickets in time (the channels module's sweep): the listing
 * is CANCELLED, the channel's payout with it, and the buyer refunded what they paid for it (a job after
 * the commit, under the sale's own refund id, so a repeated job never refunds twice) and told why.
 */
export async function refundChannelSale(
  work: Work,
  sale: { id: string; partnerId: string; listingId: string; intentionId: string; paymentId: string; paidMinor: number },
): Promise<void> {
  const { tx, after } = work;
  await tx
    .update(listings)
    .set({ status: 'CANCELLED', updatedAt: sql`now()` })
    .where(and(eq(listings.id, sale.listingId), eq(listings.status, 'SOLD')));
  listingsChangedAfterCommit(work);
  await tx
    .update(payouts)
    .set({ status: 'CANCELLED' })
    .where(and(eq(payouts.listingId, sale.listingId), eq(payouts.status, 'SCHEDULED')));
  await mailPurchaseRefunded(work, sale.intentionId, 'notDelivered', sale.paidMinor);
  after.job(REFUND_PURCHASE_JOB, {
    partnerId: sale.partnerId,
    paymentId: sale.paymentId,
    reason: 'The seller did not hand the tickets over in time',
    amountMinor: sale.paidMinor,
    refundId: `rfd_${sale.id}`,
  });
}

async function refuse(work: Work, intentionId: string, payment: Payment, reason: string, lostListings: string[]) {
  const { tx, after } = work;
  await cancelListings(tx, lostListings);
  await mailListingsCancelled(work, lostListings, 'ownershipLost');
  // Listings held for this buyer go back on sale (unless just cancelled above).
  await tx
    .update(listings)
    .set({ status: 'ACTIVE', reservedBy: null, updatedAt: sql`now()` })
    .where(and(eq(listings.reservedBy, intentionId), eq(listings.status, 'RESERVED')));
  listingsChangedAfterCommit(work);
  await tx
    .update(buyIntentions)
    .set({ status: 'CANCELLED', paymentId: payment.id, endedAt: sql`now()`, endReason: reason })
    .where(eq(buyIntentions.id, intentionId));
  await mailPurchaseRefunded(work, intentionId, 'notAvailable', payment.amountMinor);
  // The refund's own id: the job run again (a retry after a crash, a second worker) answers this refund
  // instead of asking for another and failing for ever on the refunded payment.
  after.job(REFUND_PURCHASE_JOB, {
    partnerId: payment.partnerId,
    paymentId: payment.id,
    reason,
    refundId: `rfd_${intentionId}_refused`,
  });
}

/**
 * Before a buy intention's payment is taken on our own checkout (payments' `takePayment`, in its
 * transaction): the shows are held against a cancellation and the intention is locked, and its hold must
 * still stand: PENDING with its listings
 * RESERVED for it, or EXPIRED with them ACTIVE again (a late payment that still gets the tickets), and
 * the show not cancelled. Otherwise the card is not charged, and the fan is told why.
 */
export async function intentionStillPayable(work: Work, payment: Payment): Promise<PaymentRefusal | null> {
  if (payment.purpose !== BUY_INTENTION_PURPOSE) return null;
  const { tx } = work;
  const showStates = await holdShowsOfIntention(work, payment.partnerId, payment.reference);
  const [intention] = await tx
    .select()
    .from(buyIntentions)
    .where(and(eq(buyIntentions.id, payment.reference), eq(buyIntentions.partnerId, payment.partnerId)))
    .for('update');
  if (!intention) return null;
  const rows = await tx
    .select({ id: listings.id, status: listings.status, reservedBy: listings.reservedBy })
    .from(listings)
    .where(and(eq(listings.partnerId, intention.partnerId), inArray(listings.id, intention.listingIds)));
  if (showStates.some((s) => s.status === 'CANCELLED')) {
    return { code: 'show_cancelled', reason: 'The show was cancelled before the payment; nothing was charged' };
  }
  const held =
    rows.length === intention.listingIds.length &&
    ((intention.status === 'PENDING' && rows.every((r) => r.status === 'RESERVED' && r.reservedBy === intention.id)) ||
      (intention.status === 'EXPIRED' && rows.every((r) => r.status === 'ACTIVE')));
  if (!held) {
    return { code: 'hold_ended', reason: 'The hold on the tickets had ended before the payment; nothing was charged' };
  }
  return null;
}
