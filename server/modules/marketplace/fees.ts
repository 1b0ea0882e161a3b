import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { marketSettings } from '@/db/schema/marketplace';
import { toMinorUnits } from '@/server/lib/money';
import { chargeStepMinor, stripePayoutMinor } from '@/server/modules/payments';
import { listingsChangedAfterCommit } from './events';

/** A partner's market terms as numbers (percentages 0–100; fixed amounts in major units, per ticket). */
export interface MarketTerms {
  buyerFeePercent: number;
  buyerFeeFixed: number;
  sellerFeePercent: number;
  sellerFeeFixed: number;
  payoutDelayDays: number;
}

export const NO_FEES: MarketTerms = {
  buyerFeePercent: 0,
  buyerFeeFixed: 0,
  sellerFeePercent: 0,
  sellerFeeFixed: 0,
  payoutDelayDays: 0,
};

export async function marketTerms(partnerId: string, db: DbOrTx): Promise<MarketTerms> {
  // A plain statement (the query builder's selection mapping cost more than the read on a buy intention).
  const [row] = await db.execute<{ bp: string; bf: string; sp: string; sf: string; days: number }>(sql`
    select buyer_fee_percent as bp, buyer_fee_fixed as bf, seller_fee_percent as sp, seller_fee_fixed as sf,
      payout_delay_days as days
    from ${marketSettings} where partner_id = ${partnerId}`);
  if (!row) return NO_FEES;
  return {
    buyerFeePercent: Number(row.bp),
    buyerFeeFixed: Number(row.bf),
    sellerFeePercent: Number(row.sp),
    sellerFeeFixed: Number(row.sf),
    payoutDelayDays: row.days,
  };
}

export async function setMarketTerms(partnerId: string, terms: MarketTerms, db: DbOrTx): Promise<void> {
  const values = {
    buyerFeePercent: String(terms.buyerFeePercent),
    buyerFeeFixed: String(terms.buyerFeeFixed),
    sellerFeePercent: String(terms.sellerFeePercent),
    sellerFeeFixed: String(terms.sellerFeeFixed),
    payoutDelayDays: terms.payoutDelayDays,
  };
  await db
    .insert(marketSettings)
    .values({ partnerId, ...values })
    .onConflictDoUpdate({ target: marketSettings.partnerId, set: { ...values, updatedAt: new Date() } });
  listingsChangedAfterCommit(db);
}

function fixedMinor(amount: number, currency: string): number {
  const m = toMinorUnits(amount, currency);
  return 'minor' in m ? m.minor : 0;
}

/** A fee on one ticket's price: the percentage (rounded half up to the minor unit) plus the fixed part. */
function feeOn(priceMinor: number, percent: number, fixed: number, currency: string): number {
  return Math.round((priceMinor * percent) / 100) + fixedMinor(fixed, currency);
}

/**
 * The partner's share of one resale ticket from its resolved primary sales fee (a percentage of the price,
 * rounded half up, or a fixed amount in major units); 0 when none is set.
 */
export function primaryFeeMinorOf(
  fee: { type: string; value: number } | null | undefined,
  priceMinor: number,
  currency: string,
): number {
  if (!fee) return 0;
  if (fee.type === 'PERCENTAGE') return Math.round((priceMinor * fee.value) / 100);
  return fixedMinor(fee.value, currency);
}

/**
 * What the buyer pays per ticket on top of the price (shown up front, before checkout): the terms' fee,
 * rounded so the ticket's price with it is an amount the payments provider charges (Stripe takes KWD,
 * BHD, JOD, OMR and TND in multiples of 10 fils): the total rounded half up to that step, never below
 * the price. The page, the mail and the charge all read this one figure (docs/decisions.md, "Money in
 * the provider's units").
 */
export function buyerFeeMinor(terms: MarketTerms, priceMinor: number, currency: string): number {
  const fee = feeOn(priceMinor, terms.buyerFeePercent, terms.buyerFeeFixed, currency);
  const step = chargeStepMinor(currency);
  if (step === 1) return fee;
  // A price read by a plain statement is a bigint's string: added, it would be joined.
  const price = Number(priceMinor);
  const total = Math.round((price + fee) / step) * step;
  return total >= price ? total - price : total + step - price;
}

/** One sold ticket's price split: the seller's payout, Encore's seller fee and the partner's primary fee. */
export interface SaleSplit {
  payoutMinor: number;
  sellerFeeMinor: number;
  partnerFeeMinor: number;
}

/**
 * How one ticket's price splits (price = payout + seller fee + partner fee, always): Encore's seller fee
 * first (never more than the price), then the partner's primary fee out of what is left (the payout never
 * below zero: the partner gets what the floor leaves). The payout is rounded down to an amount the payments
 * provider pays out (Stripe pays TWD and HUF in whole units, KWD in multiples of 10 fils) and the part
 * rounded off is Encore's seller fee, so the payout a page promises is the one transferred.
 * sellerPayoutMinor is its payout.
 */
export function saleSplitOf(
  terms: MarketTerms,
  priceMinor: number,
  currency: string,
  primarySalesFeeMinor = 0,
): SaleSplit {
  const fee = feeOn(priceMinor, terms.sellerFeePercent, terms.sellerFeeFixed, currency);
  const afterFee = Math.max(0, priceMinor - fee);
  const unrounded = Math.max(0, afterFee - primarySalesFeeMinor);
  const payout = stripePayoutMinor(unrounded, currency);
  // What the rounding takes off the payout is Encore's seller fee, not the partner's.
  const net = afterFee - (unrounded - payout);
  return { payoutMinor: payout, sellerFeeMinor: priceMinor - net, partnerFeeMinor: net - payout };
}

/**
 * What the seller receives per ticket: the price less the seller fee and less the primary sales fee
 * (the partner's share of a resale, resolved per ticket), never below zero.
 */
export function sellerPayoutMinor(
  terms: MarketTerms,
  priceMinor: number,
  currency: string,
  primarySalesFeeMinor = 0,
): number {
  return saleSplitOf(terms, priceMinor, currency, primarySalesFeeMinor).payoutMinor;
}
