import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/db';
import {
  BUY_INTENTION_PURPOSE,
  buyerFeeMinor,
  marketTerms,
  type MarketTerms,
  primaryFeeMinorOf,
  sellerPayoutMinor,
} from '@/server/modules/marketplace';
import { resolvePrimarySalesFee } from '@/server/modules/tickets';
import { type Period, periodOf, type PeriodInput } from './period';

/*
 * Money reconciled, per captured payment (docs/operations.md, "Money reconciliation and exports"):
 *
 *   captured = seller payouts + Encore's fees + the partner's primary fees + refunds   (to the minor unit)
 *
 * The fees are the ones each sale recorded on its payout (buyer fee, Encore's seller fee, the partner's
 * primary fee: migration 0036), so changing a partner's terms later changes nothing here; each payout is
 * checked against its listing's price less those fees. Sales made before the split was stored are
 * recomputed from the partner's market terms and each ticket's resolved primary sales fee with the same
 * functions the sale used. Reads other modules' tables in SQL (the ops module's documented exception)
 * and never writes.
 *
 * A payout is counted at what the seller was owed. What the provider sent can be less: Stripe pays TWD
 * and HUF out in whole units and KWD in tens of fils, so a payout is rounded down before it is sent
 * (transfers.sent_minor). That part stayed with Encore; it is shown beside the payouts ("rounded off"),
 * per payment and per partner, currency and state, never hidden in a difference.
 */

/**
 * `and` one partner (a test partner too, when staff name it), else every live partner: test data (test
 * mode, sandbox money only) never counts in the reconciliation of the market's money.
 */
const partnerScope = (column: SQL, partnerId: string | undefined) =>
  partnerId ? sql`and ${column} = ${partnerId}` : sql`and ${column} in (select id from partners where mode = 'live')`;

const PAGE = 500;
/** The mismatches answered in full; the count says how many there are beyond. */
const MISMATCH_LIMIT = 500;

export const reconciliationInput = z.object({
  partnerId: z.string().trim().min(1).max(100).optional(),
  from: z.string(),
  to: z.string(),
});
export type ReconciliationInput = z.input<typeof reconciliationInput>;

export interface PaymentBalance {
  partnerId: string;
  paymentId: string;
  intentionId: string | null;
  currency: string;
  /** The payment's status: paid, partially_refunded or refunded. */
  paymentStatus: string;
  capturedMinor: number;
  payoutsMinor: number;
  encoreFeesMinor: number;
  partnerFeesMinor: number;
  refundsMinor: number;
  /** Refunds asked for and not yet confirmed by the provider (not in `refundsMinor`). */
  pendingRefundsMinor: number;
  /** captured − (payouts + Encore fees + partner fees + refunds); 0 when it balances. */
  differenceMinor: number;
  /** Of the payouts paid, what the provider's rounding kept back (owed − sent): it stayed with Encore. */
  payoutRoundingMinor: number;
  payoutIds: string[];
  refundIds: string[];
  /** What does not add up, in words. */
  notes: string[];
}

export interface PartnerCurrencyTotals {
  partnerId: string;
  partnerName: string;
  currency: string;
  payments: number;
  capturedMinor: number;
  payoutsMinor: number;
  encoreFeesMinor: number;
  partnerFeesMinor: number;
  refundsMinor: number;
  differenceMinor: number;
  mismatches: number;
}

export const PAYOUT_STATES = ['DUE', 'WAITING_FOR_PAYOUT_INFO', 'NOT_YET_DUE', 'PAID', 'CANCELLED'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

export interface PayoutStateTotal {
  partnerId: string;
  partnerName: string;
  currency: string;
  state: PayoutState;
  payouts: number;
  amountMinor: number;
  /** Of a PAID total, what the provider's rounding kept back (owed − sent); 0 in every other state. */
  roundedOffMinor: number;
}

export interface Reconciliation {
  period: Period;
  partnerId: string | null;
  totals: PartnerCurrencyTotals[];
  /** At most 500, oldest payment first; `mismatchCount` counts them all. */
  mismatches: PaymentBalance[];
  mismatchCount: number;
  payoutsByState: PayoutStateTotal[];
}

interface PaymentRow extends Record<string, unknown> {
  id: string;
  partner_id: string;
  amount_minor: number;
  currency: string;
  status: string;
  refunded_minor: number;
  intention_id: string | null;
  intention_status: string | null;
  intention_payment_id: string | null;
  buyer_fee_minor: string | null;
  total_minor: string | null;
  refunded_at: string | null;
  listing_ids: string[] | null;
}

interface ListingRow extends Record<string, unknown> {
  id: string;
  price_minor: string;
  ticket_count: number;
  currency: string;
  ticket_ids: string[] | null;
}

interface PayoutRow extends Record<string, unknown> {
  id: string;
  listing_id: string;
  intention_id: string;
  amount_minor: string;
  currency: string;
  status: 'SCHEDULED' | 'PAID' | 'CANCELLED';
  /** The split stored at sale time (migration 0036); seller and partner fee null for older sales. */
  gross_minor: string | null;
  buyer_fee_minor: string | null;
  seller_fee_minor: string | null;
  partner_fee_minor: string | null;
  /** What its transfer sent (transfers.sent_minor), when paid through one. */
  sent_minor: number | null;
}

interface RefundRow extends Record<string, unknown> {
  id: string;
  payment_id: string;
  amount_minor: number;
  status: 'pending' | 'succeeded' | 'failed';
}

/** What the terms say one sold listing splits into (per the sale's own arithmetic in marketplace/purchase.ts). */
interface ListingSplit {
  grossMinor: number;
  buyerFeeMinor: number;
  encoreSellerFeeMinor: number;
  partnerFeeMinor: number;
  expectedPayoutMinor: number;
}

async function splitOf(
  partnerId: string,
  terms: MarketTerms,
  listing: ListingRow,
  primaryFee: (ticketId: string) => Promise<{ type: string; value: number } | null>,
): Promise<ListingSplit> {
  const price = Number(listing.price_minor);
  const count = listing.ticket_count;
  const net = sellerPayoutMinor(terms, price, listing.currency, 0);
  const tickets = listing.ticket_ids ?? [];
  let expected = 0;
  if (tickets.length) {
    for (const t of tickets) {
      expected += sellerPayoutMinor(
        terms,
        price,
        listing.currency,
        primaryFeeMinorOf(await primaryFee(t), price, listing.currency),
      );
    }
  } else {
    // A channel's listing before it hands the tickets over: paid like a fan seller, no primary fee yet.
    expected = net * count;
  }
  const gross = price * count;
  const encoreSellerFee = (price - net) * count;
  return {
    grossMinor: gross,
    buyerFeeMinor: buyerFeeMinor(terms, price, listing.currency) * count,
    encoreSellerFeeMinor: encoreSellerFee,
    // What the seller does not get beyond Encore's fee: the partner's primary fee, as the payout floor left it.
    partnerFeeMinor: gross - encoreSellerFee - expected,
    expectedPayoutMinor: expected,
  };
}

/**
 * The split a payout recorded at sale time (migration 0036), checked against its listing: the price the
 * listing sold at, less Encore's seller fee and the partner's fee recorded, is what the seller is owed.
 * Null for a sale made before the split was stored (seller fee not recorded): the caller recomputes it.
 */
function storedSplitOf(payout: PayoutRow, listing: ListingRow, notes: string[]): ListingSplit | null {
  if (payout.seller_fee_minor === null || payout.partner_fee_minor === null || payout.buyer_fee_minor === null) {
    return null;
  }
  const gross = Number(listing.price_minor) * listing.ticket_count;
  if (payout.gross_minor !== null && Number(payout.gross_minor) !== gross) {
    notes.push(`Payout ${payout.id} records a sale of ${payout.gross_minor}; its listing sold for ${gross}`);
  }
  const seller = Number(payout.seller_fee_minor);
  const partner = Number(payout.partner_fee_minor);
  return {
    grossMinor: gross,
    buyerFeeMinor: Number(payout.buyer_fee_minor),
    encoreSellerFeeMinor: seller,
    partnerFeeMinor: partner,
    expectedPayoutMinor: gross - seller - partner,
  };
}

/** Of the paid payouts, what their transfers did not send (owed − sent): the provider's rounding. */
const roundedOff = (payoutsOf: PayoutRow[]) =>
  payoutsOf
    .filter((po) => po.status === 'PAID' && po.sent_minor !== null)
    .reduce((n, po) => n + Number(po.amount_minor) - Number(po.sent_minor), 0);

/** The balance of one captured payment (see the identity above and in docs/operations.md). */
async function balanceOf(
  p: PaymentRow,
  terms: MarketTerms,
  listingRows: Map<string, ListingRow>,
  payoutsOf: PayoutRow[],
  refundsOf: RefundRow[],
  primaryFee: (ticketId: string) => Promise<{ type: string; value: number } | null>,
): Promise<PaymentBalance> {
  const notes: string[] = [];
  const captured = Number(p.amount_minor);
  const refunded = refundsOf.filter((r) => r.status === 'succeeded').reduce((n, r) => n + Number(r.amount_minor), 0);
  const pending = refundsOf.filter((r) => r.status === 'pending').reduce((n, r) => n + Number(r.amount_minor), 0);
  if (refunded !== Number(p.refunded_minor)) {
    notes.push(`The payment says ${p.refunded_minor} refunded; its succeeded refunds add up to ${refunded}`);
  }
  if (pending) notes.push(`Refunds of ${pending} are pending at the provider`);
  // The purchase this payment paid for: completed with this very payment. Anything else (a refused
  // purchase, a second payment for one already paid) owes the buyer the whole amount back.
  const owns = p.intention_status === 'COMPLETED' && p.intention_payment_id === p.id;
  const wholeRefund = owns && p.refunded_at !== null;
  if (!owns && refunded < captured) notes.push('No completed purchase took this payment: all of it is to be refunded');
  else if (captured !== Number(p.total_minor)) {
    notes.push(`Captured ${captured} but the purchase's total is ${p.total_minor}`);
  }

  let payoutsMinor = 0;
  let encoreFees = 0;
  let partnerFees = 0;
  let buyerFeesBack = 0;
  let live = 0;
  for (const po of payoutsOf) {
    if (po.status !== 'CANCELLED') payoutsMinor += Number(po.amount_minor);
    if (po.currency !== p.currency) notes.push(`Payout ${po.id} is in ${po.currency}, the payment in ${p.currency}`);
  }
  if (owns) {
    for (const listingId of p.listing_ids ?? []) {
      const listing = listingRows.get(listingId);
      if (!listing) {
        notes.push(`Listing ${listingId} of the purchase is missing`);
        continue;
      }
      const payout = payoutsOf.find((po) => po.listing_id === listingId);
      if (!payout) notes.push(`Listing ${listingId} was sold without a payout`);
      const stored = payout ? storedSplitOf(payout, listing, notes) : null;
      // Sold before the split was stored: recomputed from today's terms.
      const split = stored ?? (await splitOf(p.partner_id, terms, listing, primaryFee));
      const settled = !wholeRefund && payout !== undefined && payout.status !== 'CANCELLED';
      if (!settled) {
        // Its share was (or is to be) given back: no fee is earned on it.
        buyerFeesBack += split.buyerFeeMinor;
        if (payout?.status === 'PAID') {
          notes.push(`Payout ${payout.id} was paid although its sale was refunded: recover it from the seller`);
        }
        continue;
      }
      live += 1;
      encoreFees += split.encoreSellerFeeMinor;
      partnerFees += split.partnerFeeMinor;
      const gives = stored ? "its sale's price less the fees recorded is" : 'the terms give';
      if (Number(payout.amount_minor) !== split.expectedPayoutMinor) {
        notes.push(`Payout ${payout.id} is ${payout.amount_minor}; ${gives} ${split.expectedPayoutMinor}`);
      }
    }
    if (live) encoreFees += Math.max(0, Number(p.buyer_fee_minor) - buyerFeesBack);
  }
  const difference = captured - payoutsMinor - encoreFees - partnerFees - refunded;
  return {
    partnerId: p.partner_id,
    paymentId: p.id,
    intentionId: p.intention_id,
    currency: p.currency,
    paymentStatus: p.status,
    capturedMinor: captured,
    payoutsMinor,
    encoreFeesMinor: encoreFees,
    partnerFeesMinor: partnerFees,
    refundsMinor: refunded,
    pendingRefundsMinor: pending,
    differenceMinor: difference,
    payoutRoundingMinor: roundedOff(payoutsOf),
    payoutIds: payoutsOf.map((po) => po.id),
    refundIds: refundsOf.map((r) => r.id),
    notes,
  };
}

const isMismatch = (b: PaymentBalance, refundedMinorOnPayment: number) =>
  b.differenceMinor !== 0 || b.refundsMinor !== refundedMinorOnPayment;

/** Every captured payment of the period (by the moment it was paid), a page at a time, balanced. */
async function* balances(period: Period, partnerId: string | undefined, db: DbOrTx) {
  const termsOf = new Map<string, MarketTerms>();
  let after = { at: '', id: '' };
  for (;;) {
    const rows = await db.execute<PaymentRow & { paid_key: string }>(sql`
      select p.id, p.partner_id, p.amount_minor, p.currency, p.status, p.refunded_minor,
        to_char(p.paid_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as paid_key,
        i.id as intention_id, i.status as intention_status, i.payment_id as intention_payment_id,
        i.buyer_fee_minor, i.total_minor, i.refunded_at, i.listing_ids
      from payments p
      left join buy_intentions i on i.id = p.reference and i.partner_id = p.partner_id
      where p.purpose = ${BUY_INTENTION_PURPOSE}
        and p.paid_at >= ${period.start.toISOString()} and p.paid_at < ${period.end.toISOString()}
        ${partnerScope(sql`p.partner_id`, partnerId)}
        and (to_char(p.paid_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), p.id) > (${after.at}, ${after.id})
      order by paid_key, p.id
      limit ${PAGE}`);
    if (!rows.length) return;
    const owned = rows.filter((r) => r.intention_payment_id === r.id);
    const intentionIds = owned.map((r) => r.intention_id).filter((x): x is string => x !== null);
    const listingIds = owned.flatMap((r) => r.listing_ids ?? []);
    const paymentIds = rows.map((r) => r.id);
    const [listingRows, payoutRows, refundRows] = await Promise.all([
      listingIds.length
        ? db.execute<ListingRow>(sql`
            select l.id, l.price_minor, l.ticket_count, l.currency,
              array(select li.ticket_id from listing_items li where li.listing_id = l.id order by li.ticket_id) as ticket_ids
            from listings l where l.id in ${listingIds}`)
        : [],
      intentionIds.length
        ? db.execute<PayoutRow>(sql`
            select po.id, po.listing_id, po.intention_id, po.amount_minor, po.currency, po.status,
              po.gross_minor, po.buyer_fee_minor, po.seller_fee_minor, po.partner_fee_minor, ${sentOf} as sent_minor
            from payouts po where po.intention_id in ${intentionIds} order by po.id`)
        : [],
      db.execute<RefundRow>(sql`
        select id, payment_id, amount_minor, status from refunds
        where payment_id in ${paymentIds} order by id`),
    ]);
    const listingById = new Map(listingRows.map((l) => [l.id, l]));
    for (const p of rows) {
      let terms = termsOf.get(p.partner_id);
      if (!terms) {
        terms = await marketTerms(p.partner_id, db);
        termsOf.set(p.partner_id, terms);
      }
      const fees = new Map<string, { type: string; value: number } | null>();
      const primaryFee = async (ticketId: string) => {
        if (!fees.has(ticketId)) {
          // A ticket deleted since its sale has no fee to resolve: its payout then shows the difference.
          const resolved = await resolvePrimarySalesFee(p.partner_id, ticketId, db).catch(() => null);
          fees.set(ticketId, resolved?.fee ?? null);
        }
        return fees.get(ticketId) ?? null;
      };
      const owns = p.intention_payment_id === p.id;
      const balance = await balanceOf(
        p,
        terms,
        listingById,
        owns ? payoutRows.filter((po) => po.intention_id === p.intention_id) : [],
        refundRows.filter((r) => r.payment_id === p.id),
        primaryFee,
      );
      yield { balance, mismatch: isMismatch(balance, Number(p.refunded_minor)) };
    }
    const last = rows[rows.length - 1];
    after = { at: last.paid_key, id: last.id };
  }
}

/** What a payout's transfer sent (its key is the payout's id: marketplace/payouts.ts), when paid. */
const sentOf = sql`(select t.sent_minor from transfers t
  where t.partner_id = po.partner_id and t.idempotency_key = po.id and t.status = 'paid')`;

/** The payouts of the period by state: what is owed (due, waiting for payout info, later), paid and cancelled. */
async function payoutsByState(period: Period, partnerId: string | undefined, db: DbOrTx) {
  const start = period.start.toISOString();
  const end = period.end.toISOString();
  const rows = await db.execute<{
    partner_id: string;
    name: string;
    currency: string;
    state: PayoutState;
    n: number;
    amount: string;
    rounded: string;
  }>(sql`
    select po.partner_id, pa.name, po.currency, s.state, count(*)::int as n, sum(po.amount_minor)::text as amount,
      coalesce(sum(po.amount_minor - ${sentOf}) filter (where po.status = 'PAID'), 0)::text as rounded
    from payouts po
    join partners pa on pa.id = po.partner_id
    cross join lateral (select case
      when po.status = 'PAID' then 'PAID'
      when po.status = 'CANCELLED' then 'CANCELLED'
      when po.due_at >= ${end} then 'NOT_YET_DUE'
      when exists (select 1 from seller_accounts sa where sa.partner_id = po.partner_id
        and sa.seller_email = po.seller_email and sa.status = 'active') then 'DUE'
      else 'WAITING_FOR_PAYOUT_INFO' end as state) s
    where (po.status = 'SCHEDULED'
        or (po.status = 'PAID' and po.paid_at >= ${start} and po.paid_at < ${end})
        or (po.status = 'CANCELLED' and po.created_at >= ${start} and po.created_at < ${end}))
      ${partnerScope(sql`po.partner_id`, partnerId)}
    group by po.partner_id, pa.name, po.currency, s.state
    order by pa.name, po.partner_id, po.currency, s.state`);
  return rows
    .map((r): PayoutStateTotal => ({
      partnerId: r.partner_id,
      partnerName: r.name,
      currency: r.currency,
      state: r.state,
      payouts: r.n,
      amountMinor: Number(r.amount),
      roundedOffMinor: Number(r.rounded),
    }))
    .sort(
      (a, b) =>
        a.partnerName.localeCompare(b.partnerName) ||
        a.currency.localeCompare(b.currency) ||
        PAYOUT_STATES.indexOf(a.state) - PAYOUT_STATES.indexOf(b.state),
    );
}

/**
 * The period's money, per partner and currency: every captured payment balanced against payouts, fees
 * and refunds, the ones that do not balance listed with their ids, and the payouts by state. A bad date
 * is a 400 naming its field.
 */
export async function reconcile(input: ReconciliationInput & PeriodInput, db: DbOrTx): Promise<Reconciliation> {
  const q = reconciliationInput.parse(input);
  const period = periodOf({ from: q.from, to: q.to });
  const totals = new Map<string, PartnerCurrencyTotals>();
  const mismatches: PaymentBalance[] = [];
  let mismatchCount = 0;
  for await (const { balance: b, mismatch } of balances(period, q.partnerId, db)) {
    const key = `${b.partnerId} ${b.currency}`;
    const t = totals.get(key) ?? {
      partnerId: b.partnerId,
      partnerName: '',
      currency: b.currency,
      payments: 0,
      capturedMinor: 0,
      payoutsMinor: 0,
      encoreFeesMinor: 0,
      partnerFeesMinor: 0,
      refundsMinor: 0,
      differenceMinor: 0,
      mismatches: 0,
    };
    t.payments += 1;
    t.capturedMinor += b.capturedMinor;
    t.payoutsMinor += b.payoutsMinor;
    t.encoreFeesMinor += b.encoreFeesMinor;
    t.partnerFeesMinor += b.partnerFeesMinor;
    t.refundsMinor += b.refundsMinor;
    t.differenceMinor += b.differenceMinor;
    if (mismatch) {
      t.mismatches += 1;
      mismatchCount += 1;
      if (mismatches.length < MISMATCH_LIMIT) mismatches.push(b);
    }
    totals.set(key, t);
  }
  const names = totals.size
    ? await db.execute<{ id: string; name: string }>(
        sql`select id, name from partners where id in ${[...new Set([...totals.values()].map((t) => t.partnerId))]}`,
      )
    : [];
  const nameOf = new Map(names.map((n) => [n.id, n.name]));
  return {
    period,
    partnerId: q.partnerId ?? null,
    totals: [...totals.values()]
      .map((t) => ({ ...t, partnerName: nameOf.get(t.partnerId) ?? t.partnerId }))
      .sort((a, b) => a.partnerName.localeCompare(b.partnerName) || a.currency.localeCompare(b.currency)),
    mismatches,
    mismatchCount,
    payoutsByState: await payoutsByState(period, q.partnerId, db),
  };
}
