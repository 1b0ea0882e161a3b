import { currencyExponent } from '@/server/lib/money';

/*
 * Money in Stripe's own units (https://docs.stripe.com/currencies, "Minor units in API amounts" and
 * "Special cases"). Encore stores integer minor units with the digits Intl (CLDR) gives a currency
 * (server/lib/money.ts: EUR 2, JPY 0, ISK 0, HUF 0, TWD 2, KWD 3); Stripe's API has its own table,
 * which differs for some currencies. Every amount that crosses to or from Stripe goes through here.
 *
 * Stripe's table:
 * - zero-decimal (whole units): BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF;
 * - three-decimal, the last digit 0 (a multiple of 10): BHD JOD KWD OMR TND;
 * - ISK: zero-decimal at heart, two-decimal in the API: a multiple of 100;
 * - HUF and TWD: two-decimal for charges and refunds, whole units for payouts (transfers): a multiple of 100;
 * - every other currency: two-decimal.
 */

const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);
/** Two-decimal in the API, but only whole units are accepted: always (ISK), or for payouts (HUF, TWD). */
const WHOLE_ALWAYS = new Set(['ISK']);
const WHOLE_FOR_PAYOUTS = new Set(['HUF', 'TWD']);

/** What the amount is for: a charge (a Checkout Session's amounts) or a refund of one, or a payout (a transfer). */
export type StripeAmountUse = 'charge' | 'refund' | 'payout';

/** Decimal places of Stripe's API amounts in a currency (JPY 0, EUR 2, ISK 2, KWD 3). */
export function stripeExponent(currency: string): number {
  const code = currency.toUpperCase();
  if (ZERO_DECIMAL.has(code)) return 0;
  if (THREE_DECIMAL.has(code)) return 3;
  return 2;
}

/** The multiple Stripe's API amounts must be of, in Stripe's units (ISK 100, KWD 10, TWD payouts 100; else 1). */
function stripeMultiple(currency: string, use: StripeAmountUse): number {
  const code = currency.toUpperCase();
  if (THREE_DECIMAL.has(code)) return 10;
  if (WHOLE_ALWAYS.has(code)) return 100;
  if (use === 'payout' && WHOLE_FOR_PAYOUTS.has(code)) return 100;
  return 1;
}

const pow10 = (n: number) => 10 ** n;

/**
 * The smallest amount, in Encore's minor units, that Stripe accepts in a currency for a use, and whose
 * multiples are exactly the amounts it accepts: KWD 10 (fils ending in 0), TWD payouts 100 (whole
 * dollars), ISK 1 (Encore already keeps whole krónur), EUR 1. Stripe's multiples and both exponents are
 * powers of ten, so this is a power of ten too.
 */
export function stripeStepMinor(currency: string, use: StripeAmountUse): number {
  const shift = currencyExponent(currency.toUpperCase()) - stripeExponent(currency);
  return Math.max(1, stripeMultiple(currency, use) * pow10(shift));
}

/** Whether Stripe accepts this amount (Encore's minor units) in this currency for this use. */
export function stripeAccepts(amountMinor: number, currency: string, use: StripeAmountUse): boolean {
  return Number.isSafeInteger(amountMinor) && amountMinor % stripeStepMinor(currency, use) === 0;
}

/**
 * An amount in Encore's minor units as Stripe's API takes it (ISK 11000 → 1100000, HUF 13200 → 1320000,
 * JPY 1250 → 1250). Throws when Stripe would refuse the amount (a KWD amount not ending in 0, a TWD
 * payout with cents): the caller rounds first (fees: marketplace/fees.ts; payouts: stripePayoutMinor).
 */
export function toStripeAmount(amountMinor: number, currency: string, use: StripeAmountUse): number {
  if (!stripeAccepts(amountMinor, currency, use)) {
    const step = stripeStepMinor(currency, use);
    throw new RangeError(
      `Stripe takes ${currency.toUpperCase()} ${use} amounts in multiples of ${step} minor units; ${amountMinor} is not one`,
    );
  }
  const shift = stripeExponent(currency) - currencyExponent(currency.toUpperCase());
  return shift >= 0 ? amountMinor * pow10(shift) : amountMinor / pow10(-shift);
}

/**
 * An amount Stripe sent (a session's amount_total, a refund's amount) in Encore's minor units
 * (ISK 1100000 → 11000), or null when it is not a whole number of them (ISK 1100050: half a króna).
 */
export function fromStripeAmount(amount: number, currency: string): number | null {
  const shift = currencyExponent(currency.toUpperCase()) - stripeExponent(currency);
  const minor = shift >= 0 ? amount * pow10(shift) : amount / pow10(-shift);
  return Number.isSafeInteger(minor) ? minor : null;
}

/**
 * What a payout of `amountMinor` becomes at Stripe, in Encore's minor units: rounded down to the
 * amount Stripe accepts (TWD 1147.62 → 1147.00), so Encore never sends more than it owes. The
 * difference stays with Encore and shows in the reconciliation (transfers.sent_minor).
 */
export function stripePayoutMinor(amountMinor: number, currency: string): number {
  const step = stripeStepMinor(currency, 'payout');
  return Math.floor(amountMinor / step) * step;
}

/*
 * The steps every provider's amounts keep to. The sandbox takes any amount, so Stripe's are the market's:
 * a test partner's fees and payouts equal its live twin's, and a partner moved to Stripe finds nothing to
 * round. Fees round to them (marketplace/fees.ts).
 */

/** The step a charge's amounts keep to, in Encore's minor units (KWD 10; EUR, JPY, ISK, HUF 1). */
export const chargeStepMinor = (currency: string) => stripeStepMinor(currency, 'charge');

/** The step a payout keeps to, in Encore's minor units (TWD 100, KWD 10; EUR, HUF 1). */
export const payoutStepMinor = (currency: string) => stripeStepMinor(currency, 'payout');
