import { describe, expect, it } from 'vitest';
import { buyerFeeMinor, type MarketTerms, NO_FEES, saleSplitOf, sellerPayoutMinor } from './fees';

/*
 * Fees rounded to amounts the payments provider takes: a buyer's total Stripe charges (KWD in
 * tens of fils), a payout Stripe pays out (TWD in whole dollars), so what a page shows is what moves.
 */

const buyer = (percent: number, fixed = 0): MarketTerms => ({
  ...NO_FEES,
  buyerFeePercent: percent,
  buyerFeeFixed: fixed,
});
const seller = (percent: number, fixed = 0): MarketTerms => ({
  ...NO_FEES,
  sellerFeePercent: percent,
  sellerFeeFixed: fixed,
});

describe('fees in amounts the provider takes', () => {
  it('rounds the buyer fee so the price with it is a charge Stripe takes (KWD, BHD… in tens of fils)', () => {
    // 12.500 KWD + 7 % = 13.375: Stripe refuses it; the fee is 0.880, the total 13.380.
    expect(buyerFeeMinor(buyer(7), 12500, 'KWD')).toBe(880);
    // 0.871 → the total 13.371 rounds half up to 13.370: a fee of 0.870.
    expect(buyerFeeMinor(buyer(6.968), 12500, 'KWD')).toBe(870);
    expect(buyerFeeMinor(buyer(7), 12500, 'BHD')).toBe(880);
    // A price off the step: the fee brings the total onto it, never below the price.
    expect(buyerFeeMinor(buyer(0), 12505, 'KWD')).toBe(5);
    expect(buyerFeeMinor(buyer(0), 12504, 'KWD')).toBe(6);
    expect(buyerFeeMinor(buyer(7), 12505, 'OMR')).toBe(875);
    // A price read by a plain statement arrives as a bigint's string.
    expect(buyerFeeMinor(buyer(7), '12500' as unknown as number, 'KWD')).toBe(880);
    // Everywhere else, as before: the percentage rounded half up to the minor unit, plus the fixed part.
    expect(buyerFeeMinor(buyer(10, 0.5), 4000, 'EUR')).toBe(450);
    expect(buyerFeeMinor(buyer(7), 3333, 'EUR')).toBe(233);
    expect(buyerFeeMinor(buyer(10), 10000, 'ISK')).toBe(1000);
    expect(buyerFeeMinor(buyer(7), 12345, 'HUF')).toBe(864);
    expect(buyerFeeMinor(buyer(7), 123456, 'TWD')).toBe(8642);
    expect(buyerFeeMinor(buyer(0), 12500, 'KWD')).toBe(0);
  });

  it('rounds a payout down to what Stripe pays out; the rest is Encore’s seller fee, and the split still adds up', () => {
    // 1,234.00 TWD less 7 % (86.38) is 1,147.62: Stripe pays TWD out in whole dollars, so 1,147.00.
    expect(saleSplitOf(seller(7), 123400, 'TWD')).toEqual({
      payoutMinor: 114700,
      sellerFeeMinor: 8700,
      partnerFeeMinor: 0,
    });
    // With a partner's primary fee of 10.00: 1,137.62 → 1,137.00; the partner's fee stays 10.00.
    expect(saleSplitOf(seller(7), 123400, 'TWD', 1000)).toEqual({
      payoutMinor: 113700,
      sellerFeeMinor: 8700,
      partnerFeeMinor: 1000,
    });
    // KWD in tens of fils: 12.505 less 0 % is 12.500 paid out.
    expect(saleSplitOf(NO_FEES, 12505, 'KWD')).toEqual({ payoutMinor: 12500, sellerFeeMinor: 5, partnerFeeMinor: 0 });
    // A primary fee taking more than is left: the payout is 0, the partner gets what is left.
    expect(saleSplitOf(seller(7), 123400, 'TWD', 200000)).toEqual({
      payoutMinor: 0,
      sellerFeeMinor: 8638,
      partnerFeeMinor: 114762,
    });
    // Elsewhere, unchanged: EUR and HUF (whole forint already) to the minor unit.
    expect(saleSplitOf(seller(5, 1), 3333, 'EUR', 100)).toEqual({
      payoutMinor: 2966,
      sellerFeeMinor: 267,
      partnerFeeMinor: 100,
    });
    expect(sellerPayoutMinor(seller(7), 12345, 'HUF')).toBe(11481);
    for (const [price, currency, primary] of [
      [123400, 'TWD', 0],
      [99999, 'TWD', 777],
      [12345, 'KWD', 321],
      [3333, 'EUR', 100],
    ] as const) {
      const split = saleSplitOf(seller(7, 0.5), price, currency, primary);
      expect(split.payoutMinor + split.sellerFeeMinor + split.partnerFeeMinor).toBe(price);
    }
  });
});
