import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { buyIntentions, listingItems, listings, type ListingStatus, payouts } from '@/db/schema/marketplace';
import { publicBaseUrl } from '@/server/env';
import { AppError, type FanErrorReason, notFound } from '@/server/lib/errors';
import type { Locale } from '@/server/lib/i18n';
import { toMinorUnits } from '@/server/lib/money';
import { type SellShowLabel, sellShowLabels } from '@/server/modules/catalog';
import { PartnerCallError } from '@/server/modules/partners';
import { payoutStatus, type PayoutStatus, payoutStepMinor, setUpPayoutAccount } from '@/server/modules/payments';
import {
  resolvePrimarySalesFee,
  type SaleTicket,
  saleTicketByPk,
  ticketsByPk,
  ticketsOfOrder,
} from '@/server/modules/tickets';
import { marketTerms } from './fees';
import {
  createListing,
  getListing,
  type ListingProblem,
  listingChecks,
  type ListingView,
  type PriceRange,
  priceRangeOf,
  relist,
  unlist,
  updateListingPrice,
} from './listings';
import { notOwnedBy, ownedTickets } from './ownership';

export { type SyncOutcome, type SyncTarget, syncForSale } from './ownership';
import type { PayoutModel } from './schemas';
import { transferAllowed, transferTickets } from './transfer';
import { listingStatusNow } from './holds';

/*
 * What the fan selling pages read and do: the selling flow (one ticket or an order's), the seller's
 * listing page and the partner's static resale entry page. Each takes the signed-in fan's e-mail (the
 * pages check the session's partner) and answers only that fan's tickets and listings.
 */

/** Why a ticket cannot be sold now: a listing rule (listings.ts), or the fan's side of it. */
export type SellReason =
  | ListingProblem
  | { code: 'NOT_OWNED' }
  | { code: 'UNVERIFIED' }
  | { code: 'LISTED'; listingId: string; status: ListingStatus }
  | { code: 'SOLD'; listingId: string };

export interface TicketSellStatus {
  ticket: SaleTicket;
  label: SellShowLabel | null;
  /** The ticket's open listing, else this fan's latest one. */
  listing: { id: string; status: ListingStatus } | null;
  reasons: SellReason[];
  sellable: boolean;
}

/** Each ticket's latest listing (open first); a closed one only when it was this seller's. */
async function latestListings(partnerId: string, pks: string[], sellerEmail: string, db: Db) {
  const out = new Map<string, { id: string; status: ListingStatus }>();
  if (!pks.length) return out;
  const rows = await db
    .select({
      ticketPk: listingItems.ticketPk,
      id: listings.id,
      status: listingStatusNow(),
      open: listingItems.open,
      sellerEmail: listings.sellerEmail,
    })
    .from(listingItems)
    .innerJoin(listings, eq(listings.id, listingItems.listingId))
    .where(and(eq(listings.partnerId, partnerId), inArray(listingItems.ticketPk, pks)))
    .orderBy(desc(listingItems.open), desc(listings.createdAt));
  for (const r of rows) {
    if (out.has(r.ticketPk)) continue;
    // Another seller's closed listing of this ticket (before it came to this fan) says nothing here.
    if (!r.open && r.sellerEmail !== sellerEmail) continue;
    out.set(r.ticketPk, { id: r.id, status: r.status });
  }
  return out;
}

/**
 * Can each ticket be listed by this fan now, and why not: ownership asked live of the partner (unless
 * the caller just read the owned tickets from it), the listing it is in, and every rule of
 * `listingChecks` (ticket, show, resale rules, listing window).
 */
export async function ticketSellStatuses(
  partnerId: string,
  sellerEmail: string,
  list: SaleTicket[],
  db: Db,
  opts: { ownedKnown?: boolean; now?: Date } = {},
): Promise<TicketSellStatus[]> {
  const email = sellerEmail.trim().toLowerCase();
  let notOwned: Set<string> | null = new Set();
  if (!opts.ownedKnown && list.length) {
    try {
      notOwned = new Set(await notOwnedBy(partnerId, email, list, db));
    } catch (err) {
      if (!(err instanceof PartnerCallError)) throw err;
      notOwned = null; // the partner did not answer: nothing can be sold until it does
    }
  }
  const [latest, labels] = await Promise.all([
    latestListings(
      partnerId,
      list.map((t) => t.pk),
      email,
      db,
    ),
    sellShowLabels(
      list.map((t) => t.showPk),
      db,
    ),
  ]);
  const out: TicketSellStatus[] = [];
  for (const t of list) {
    const reasons: SellReason[] = [];
    const listing = latest.get(t.pk) ?? null;
    if (listing?.status === 'SOLD') reasons.push({ code: 'SOLD', listingId: listing.id });
    else if (listing && (listing.status === 'ACTIVE' || listing.status === 'RESERVED'))
      reasons.push({ code: 'LISTED', listingId: listing.id, status: listing.status });
    if (notOwned === null) reasons.push({ code: 'UNVERIFIED' });
    else if (notOwned.has(t.ticketId) && listing?.status !== 'SOLD') reasons.push({ code: 'NOT_OWNED' });
    const { problems } = await listingChecks(partnerId, [t], null, opts.now, db);
    reasons.push(...problems);
    out.push({ ticket: t, label: labels.get(t.showPk) ?? null, listing, reasons, sellable: reasons.length === 0 });
  }
  return out;
}

/** The seller's payout per ticket for the live preview: the partner's terms and the ticket's primary sales fee. */
async function payoutModelOf(partnerId: string, t: SaleTicket, db: Db): Promise<PayoutModel> {
  const [terms, primary] = await Promise.all([
    marketTerms(partnerId, db),
    resolvePrimarySalesFee(partnerId, t.ticketId, db),
  ]);
  const fixed = toMinorUnits(terms.sellerFeeFixed, t.currency);
  let primarySalesFee: PayoutModel['primarySalesFee'] = null;
  if (primary?.fee.type === 'PERCENTAGE') primarySalesFee = { type: 'PERCENTAGE', value: primary.fee.value };
  else if (primary) {
    const m = toMinorUnits(primary.fee.value, t.currency);
    primarySalesFee = { type: 'FIXED', minor: 'minor' in m ? m.minor : 0 };
  }
  const step = payoutStepMinor(t.currency);
  return {
    sellerFeePercent: terms.sellerFeePercent,
    sellerFeeFixedMinor: 'minor' in fixed ? fixed.minor : 0,
    primarySalesFee,
    ...(step > 1 ? { payoutStepMinor: step } : {}),
  };
}

/** The ticket a selling-flow URL names (any partner's: the page then checks the fan's session for it). */
export async function sellPage(ticketPk: string, db: Db) {
  return saleTicketByPk(ticketPk, db);
}

export interface SellFlow {
  partnerId: string;
  order: boolean;
  tickets: TicketSellStatus[];
  range: PriceRange;
  payoutModel: PayoutModel;
  payoutStatus: PayoutStatus;
}

/** The selling flow of one ticket, or of its order's tickets (`order`), for the signed-in fan. */
export async function sellFlow(ticket: SaleTicket, sellerEmail: string, order: boolean, db: Db) {
  const partnerId = ticket.partnerId;
  const list = order && ticket.orderId ? await ticketsOfOrder(partnerId, ticket.orderId, db) : [ticket];
  const [tickets, range, payoutModel, payout] = await Promise.all([
    ticketSellStatuses(partnerId, sellerEmail, list, db),
    priceRangeOf(partnerId, [ticket], db),
    payoutModelOf(partnerId, ticket, db),
    payoutStatus(partnerId, sellerEmail.trim().toLowerCase(), db),
  ]);
  return {
    partnerId,
    order: order && Boolean(ticket.orderId),
    tickets,
    range,
    payoutModel,
    payoutStatus: payout,
  } satisfies SellFlow;
}

export type ListForSellerResult =
  | { ok: true; listingId: string }
  | {
      ok: false;
      problems: SellReason[];
      range: PriceRange | null;
      message: string | null;
      /** Why, for the fan's page to say in the fan's language (else `message`, in English). */
      fanReason?: FanErrorReason;
    };

/**
 * Lists the tickets (our ids, from the selling page) as the fan chose them: the rules are checked first
 * so the page can say which one fails (a price above the cap, with the range); `createListing` checks
 * them all again, with ownership, and makes the listing (a PACK when several of one order).
 */
export async function listForSeller(
  partnerId: string,
  sellerEmail: string,
  ticketPks: string[],
  price: string,
  db: Db,
  /** The language of the selling page: the seller's mails about the listing are in it. */
  locale?: Locale,
): Promise<ListForSellerResult> {
  const list = await ticketsByPk(partnerId, [...new Set(ticketPks)], db);
  if (!list.length || list.length !== new Set(ticketPks).size) throw notFound('Ticket not found');
  const m = toMinorUnits(price, list[0].currency);
  if ('error' in m || m.minor <= 0) return { ok: false, problems: [], range: null, message: 'PRICE_INVALID' };
  const { problems, range } = await listingChecks(partnerId, list, m.minor, new Date(), db);
  if (problems.length) return { ok: false, problems, range, message: null };
  try {
    const ticketIds = list.map((t) => t.ticketId);
    const listing = await createListing({ partnerId, sellerEmail, ticketIds, price, locale }, db);
    return { ok: true, listingId: listing.id };
  } catch (err) {
    if (err instanceof AppError && err.code !== 'INTERNAL')
      return { ok: false, problems: [], range, message: err.message, fanReason: err.fanReason };
    throw err;
  }
}

/**
 * The listing's own page, absolute: what a seller shares. Anyone opening it sees the event, the seats and
 * the price with fees, and buys from it (no language: the page speaks the language of whoever opens it).
 */
function shareUrl(listingId: string): string {
  return `${publicBaseUrl()}/listing/${listingId}`;
}

/** A listing as its seller manages it; null when it is not this fan's (the page then shows not-found). */
export async function sellerListing(listingId: string, sellerEmail: string | null, db: Db) {
  const [row] = await db
    .select({ partnerId: listings.partnerId, sellerEmail: listings.sellerEmail, eventPk: listings.eventPk })
    .from(listings)
    .where(eq(listings.id, listingId));
  if (!row) return null;
  const mine = sellerEmail !== null && row.sellerEmail === sellerEmail.trim().toLowerCase();
  return { partnerId: row.partnerId, mine, eventPk: row.eventPk };
}

export interface SellerListingView {
  listing: Omit<ListingView, 'sellerEmail'>;
  tickets: SaleTicket[];
  label: SellShowLabel | null;
  range: PriceRange;
  payoutModel: PayoutModel;
  payoutStatus: PayoutStatus;
  transferAllowed: boolean;
  /** For a listing off sale: does the seller still own its tickets (asked live)? Null when not asked. */
  stillOwned: boolean | null;
  shareUrl: string;
  /** A sold listing whose purchase was refunded afterwards: the payout that will not be paid, why and when. */
  payoutCancelled: PayoutCancelledView | null;
}

export interface PayoutCancelledView {
  amountMinor: number;
  currency: string;
  reason: 'SHOW_CANCELLED' | 'STAFF_REFUND';
  at: Date;
}

/** The listing's payout, when a refund of its purchase cancelled it. */
async function payoutCancelledOf(listingId: string, db: Db): Promise<PayoutCancelledView | null> {
  const [row] = await db
    .select({
      amountMinor: payouts.amountMinor,
      currency: payouts.currency,
      reason: buyIntentions.refundReason,
      at: buyIntentions.refundedAt,
    })
    .from(payouts)
    .innerJoin(buyIntentions, eq(buyIntentions.id, payouts.intentionId))
    .where(and(eq(payouts.listingId, listingId), eq(payouts.status, 'CANCELLED')));
  return row?.reason && row.at
    ? { amountMinor: row.amountMinor, currency: row.currency, reason: row.reason, at: row.at }
    : null;
}

/** The seller's page of their listing: price, payout, tickets, the range a new price must keep. */
export async function sellerListingPage(
  partnerId: string,
  listingId: string,
  sellerEmail: string,
  db: Db,
): Promise<SellerListingView | null> {
  const found = await sellerListing(listingId, sellerEmail, db);
  if (!found || !found.mine || found.partnerId !== partnerId) return null;
  const { sellerEmail: _seller, ...listing } = await getListing(partnerId, listingId, db);
  const [items] = await Promise.all([
    db.select({ ticketPk: listingItems.ticketPk }).from(listingItems).where(eq(listingItems.listingId, listingId)),
  ]);
  const list = await ticketsByPk(
    partnerId,
    items.map((i) => i.ticketPk),
    db,
  );
  const first = list[0];
  const [labels, range, payoutModel, payout, canTransfer, payoutCancelled] = await Promise.all([
    sellShowLabels([first.showPk], db),
    priceRangeOf(partnerId, [first], db),
    payoutModelOf(partnerId, first, db),
    payoutStatus(partnerId, sellerEmail.trim().toLowerCase(), db),
    transferAllowed(partnerId, first, db),
    listing.status === 'SOLD' ? payoutCancelledOf(listingId, db) : null,
  ]);
  // Off sale, the seller may have given the tickets away since: relisting or transferring needs them.
  let stillOwned: boolean | null = null;
  if (listing.status === 'UNLISTED') {
    try {
      stillOwned = (await notOwnedBy(partnerId, sellerEmail, list, db)).length === 0;
    } catch (err) {
      if (!(err instanceof PartnerCallError)) throw err;
    }
  }
  return {
    listing,
    tickets: list,
    stillOwned,
    label: labels.get(first.showPk) ?? null,
    range,
    payoutModel,
    payoutStatus: payout,
    transferAllowed: canTransfer,
    shareUrl: shareUrl(listingId),
    payoutCancelled,
  };
}

async function assertSeller(partnerId: string, listingId: string, sellerEmail: string, db: Db) {
  const found = await sellerListing(listingId, sellerEmail, db);
  if (!found || !found.mine || found.partnerId !== partnerId) throw notFound('Listing not found', 'NOT_FOUND');
}

/**
 * The seller's actions on their listing page: each checks the listing is this fan's first. A new price
 * is checked against the rules first so the page can show the allowed range; `updateListingPrice`
 * checks again under the listing's lock.
 */
export async function repriceAsSeller(
  partnerId: string,
  listingId: string,
  sellerEmail: string,
  price: string,
  db: Db,
): Promise<ListForSellerResult> {
  await assertSeller(partnerId, listingId, sellerEmail, db);
  const items = await db
    .select({ ticketPk: listingItems.ticketPk })
    .from(listingItems)
    .where(eq(listingItems.listingId, listingId));
  const list = await ticketsByPk(
    partnerId,
    items.map((i) => i.ticketPk),
    db,
  );
  const m = toMinorUnits(price, list[0].currency);
  if ('error' in m || m.minor <= 0) return { ok: false, problems: [], range: null, message: 'PRICE_INVALID' };
  const { problems, range } = await listingChecks(partnerId, list, m.minor, new Date(), db);
  const priceProblems = problems.filter((p) => p.code === 'ABOVE_CAP' || p.code === 'BELOW_FLOOR');
  if (priceProblems.length) return { ok: false, problems: priceProblems, range, message: null };
  try {
    await updateListingPrice(partnerId, listingId, price, db);
    return { ok: true, listingId };
  } catch (err) {
    if (err instanceof AppError && err.code !== 'INTERNAL')
      return { ok: false, problems: [], range, message: err.message, fanReason: err.fanReason };
    throw err;
  }
}

export async function unlistAsSeller(partnerId: string, listingId: string, sellerEmail: string, db: Db) {
  await assertSeller(partnerId, listingId, sellerEmail, db);
  return unlist(partnerId, listingId, db);
}

export async function relistAsSeller(partnerId: string, listingId: string, sellerEmail: string, db: Db) {
  await assertSeller(partnerId, listingId, sellerEmail, db);
  return relist(partnerId, listingId, db);
}

/** Hands the listing's tickets to another e-mail (P2P_TRANSFER rule; the listing must be off sale). */
export async function transferAsSeller(
  partnerId: string,
  listingId: string,
  sellerEmail: string,
  toEmail: string,
  db: Db,
) {
  await assertSeller(partnerId, listingId, sellerEmail, db);
  const listing = await getListing(partnerId, listingId, db);
  return transferTickets(partnerId, { ticketIds: listing.ticketIds, fromEmail: sellerEmail, toEmail }, db);
}

/**
 * The partner's static resale entry page for a signed-in fan: every ticket the fan owns now (asked of
 * the partner live), plus those this fan sold here, each with its sell status; grouped by show.
 */
export async function resaleEntryPage(partnerId: string, fanEmail: string, opts: { sync?: boolean } = {}, db: Db) {
  const email = fanEmail.trim().toLowerCase();
  let owned: SaleTicket[];
  try {
    owned = await ownedTickets(partnerId, email, db, opts);
  } catch (err) {
    if (err instanceof PartnerCallError) return { unavailable: true as const, groups: [] };
    throw err;
  }
  const sold = await db
    .select({ ticketPk: listingItems.ticketPk })
    .from(listingItems)
    .innerJoin(listings, eq(listings.id, listingItems.listingId))
    .where(and(eq(listings.partnerId, partnerId), eq(listings.sellerEmail, email), eq(listings.status, 'SOLD')))
    .orderBy(sql`${listings.soldAt} desc nulls last`)
    .limit(200);
  const soldTickets = await ticketsByPk(
    partnerId,
    sold.map((s) => s.ticketPk).filter((pk) => !owned.some((t) => t.pk === pk)),
    db,
  );
  const statuses = await ticketSellStatuses(partnerId, email, [...owned, ...soldTickets], db, { ownedKnown: true });
  const groups = new Map<string, TicketSellStatus[]>();
  for (const s of statuses) groups.set(s.ticket.showPk, [...(groups.get(s.ticket.showPk) ?? []), s]);
  return {
    unavailable: false as const,
    groups: [...groups.values()]
      .map((tickets) => ({ showPk: tickets[0].ticket.showPk, label: tickets[0].label, tickets }))
      .sort((a, b) => a.tickets[0].ticket.startsAt.getTime() - b.tickets[0].ticket.startsAt.getTime()),
  };
}

/**
 * Starts (or resumes) the seller's payout set-up and answers where to send them: the provider's
 * onboarding (the sandbox's form page, or Stripe's Connect onboarding link), returning to `returnPath`.
 * Null when payouts are already set up.
 */
export async function payoutSetupUrl(partnerId: string, sellerEmail: string, returnPath: string, db: Db) {
  const returnUrl = `${publicBaseUrl()}${returnPath.startsWith('/') ? returnPath : '/'}`;
  const { onboardingUrl } = await setUpPayoutAccount(partnerId, { sellerEmail, returnUrl }, db);
  return onboardingUrl;
}
