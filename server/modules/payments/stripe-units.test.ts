import { describe, expect, it } from 'vitest';
import { currencyExponent } from '@/server/lib/money';
import {
  fromStripeAmount,
  stripeAccepts,
  stripeExponent,
  stripePayoutMinor,
  stripeStepMinor,
  toStripeAmount,
} from './stripe-units';

/*
 * Encore's minor units (the digits Intl gives a currency) against Stripe's API units
 * (https://docs.stripe.com/currencies), one row per kind of currency in Stripe's table.
 */

describe('Stripe units', () => {
  // currency, Encore's digits, Stripe's digits, an amount of ours, it at Stripe, step for a charge, for a payout
  const table: [string, number, number, number, number, number, number][] = [
    ['EUR', 2, 2, 4550, 4550, 1, 1],
    ['USD', 2, 2, 1, 1, 1, 1],
    ['JPY', 0, 0, 1250, 1250, 1, 1],
    ['KRW', 0, 0, 15000, 15000, 1, 1],
    ['UGX', 0, 0, 3700, 3700, 1, 1],
    ['XOF', 0, 0, 655, 655, 1, 1],
    // ISK: whole krónur, two decimals in Stripe's API (a multiple of 100).
    ['ISK', 0, 2, 11000, 1100000, 1, 1],
    // HUF: Encore keeps whole forint; two decimals at Stripe; payouts whole (a multiple of 100 at Stripe).
    ['HUF', 0, 2, 13200, 1320000, 1, 1],
    // TWD: cents at both; payouts whole dollars (a multiple of 100).
    ['TWD', 2, 2, 114700, 114700, 1, 100],
    // Three decimals ending in 0 (a multiple of 10).
    ['KWD', 3, 3, 13380, 13380, 10, 10],
    ['BHD', 3, 3, 1250, 1250, 10, 10],
    ['JOD', 3, 3, 990, 990, 10, 10],
    ['OMR', 3, 3, 20, 20, 10, 10],
    ['TND', 3, 3, 5000, 5000, 10, 10],
    // Intl gives IDR and COP no decimals; Stripe takes two.
    ['IDR', 0, 2, 150000, 15000000, 1, 1],
    ['COP', 0, 2, 80000, 8000000, 1, 1],
  ];

  it.each(table)(
    '%s: Encore %i digits, Stripe %i; %i of ours is %i at Stripe (steps %i, payouts %i)',
    (currency, ours, theirs, minor, atStripe, chargeStep, payoutStep) => {
      expect(currencyExponent(currency)).toBe(ours);
      expect(stripeExponent(currency)).toBe(theirs);
      expect(stripeExponent(currency.toLowerCase())).toBe(theirs);
      expect(stripeStepMinor(currency, 'charge')).toBe(chargeStep);
      expect(stripeStepMinor(currency, 'refund')).toBe(chargeStep);
      expect(stripeStepMinor(currency, 'payout')).toBe(payoutStep);
      expect(toStripeAmount(minor, currency, 'charge')).toBe(atStripe);
      expect(toStripeAmount(minor, currency, 'refund')).toBe(atStripe);
      expect(fromStripeAmount(atStripe, currency)).toBe(minor);
      expect(stripePayoutMinor(minor, currency)).toBe(minor);
      expect(toStripeAmount(minor, currency, 'payout')).toBe(atStripe);
    },
  );

  it('refuses what Stripe refuses, rather than sending it: KWD not ending in 0, a TWD payout with cents', () => {
    expect(stripeAccepts(13375, 'KWD', 'charge')).toBe(false);
    expect(() => toStripeAmount(13375, 'KWD', 'charge')).toThrow(/multiples of 10/);
    expect(() => toStripeAmount(5, 'BHD', 'refund')).toThrow(RangeError);
    expect(stripeAccepts(114762, 'TWD', 'charge')).toBe(true);
    expect(stripeAccepts(114762, 'TWD', 'payout')).toBe(false);
    expect(() => toStripeAmount(114762, 'TWD', 'payout')).toThrow(/multiples of 100/);
    expect(stripeAccepts(13201, 'HUF', 'payout')).toBe(true);
    expect(stripeAccepts(0.5, 'EUR', 'charge')).toBe(false);
  });

  it('rounds a payout down to what Stripe pays out, never up', () => {
    expect(stripePayoutMinor(114762, 'TWD')).toBe(114700);
    expect(stripePayoutMinor(114799, 'TWD')).toBe(114700);
    expect(stripePayoutMinor(99, 'TWD')).toBe(0);
    expect(stripePayoutMinor(13375, 'KWD')).toBe(13370);
    expect(stripePayoutMinor(13201, 'HUF')).toBe(13201);
    expect(stripePayoutMinor(4551, 'EUR')).toBe(4551);
    expect(stripePayoutMinor(1251, 'JPY')).toBe(1251);
  });

  it('reads back only whole amounts of ours: half a króna is no amount Encore charged', () => {
    expect(fromStripeAmount(1100050, 'ISK')).toBeNull();
    expect(fromStripeAmount(1100000, 'isk')).toBe(11000);
    expect(fromStripeAmount(1320000, 'HUF')).toBe(13200);
    expect(fromStripeAmount(13380, 'KWD')).toBe(13380);
  });
});
