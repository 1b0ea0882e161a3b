/**
 * Money as the partner API carries it (a number or a numeric string in major units, plus an ISO 4217
 * code) turned into what Encore stores: integer minor units. Exact: no floating-point arithmetic, and
 * an amount with more decimals than the currency has is refused rather than rounded.
 */

const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && KNOWN_CURRENCIES.has(code);
}

const exponents = new Map<string, number>();

/** Decimal places of a currency's minor unit (EUR 2, JPY 0, KWD 3). */
export function currencyExponent(currency: string): number {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    // Building an Intl.NumberFormat costs tens of microseconds; imports ask once per ticket.
    exponent =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    exponents.set(currency, exponent);
  }
  return exponent;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** A number or numeric string as a plain decimal string (`45.5`, `"045.50"` → `45.50`), or null if not numeric. */
export function decimalString(value: number | string): string | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // Numbers print without exponent up to 1e21; anything that prints with one is not a price.
    const text = String(value);
    return DECIMAL.test(text) ? text : null;
  }
  const m = DECIMAL.exec(value.trim());
  if (!m) return null;
  const whole = m[2].replace(/^0+(?=\d)/, '');
  return `${m[1]}${whole}${m[3] !== undefined ? `.${m[3]}` : ''}`;
}

/**
 * Minor units of a decimal amount in a currency, e.g. ("45.50", "EUR") → 4550, ("1200", "JPY") → 1200.
 * Returns an error message instead when the amount has more decimals than the currency allows or is
 * out of the safe integer range.
 */
export function toMinorUnits(value: number | string, currency: string): { minor: number } | { error: string } {
  const decimal = decimalString(value);
  if (decimal === null) return { error: 'must be a number' };
  const [, sign, whole, fraction = ''] = DECIMAL.exec(decimal) as RegExpExecArray;
  const exponent = currencyExponent(currency);
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > exponent) {
    return { error: `has more than ${exponent} decimal places, which ${currency} does not allow` };
  }
  const digits = whole + fraction.padEnd(exponent, '0').slice(0, exponent);
  const minor = Number(BigInt(digits)) * (sign === '-' ? -1 : 1);
  if (!Number.isSafeInteger(minor)) return { error: 'is too large' };
  return { minor: minor === 0 ? 0 : minor };
}

/**
 * Major units of an amount in minor units, e.g. (4550, "EUR") → 45.5, (1250, "JPY") → 1250; null stays
 * null. A code Intl does not know counts as having cents: a page or mail still shows an amount.
 */
export function fromMinorUnits(minor: number, currency: string): number;
export function fromMinorUnits(minor: number | null, currency: string): number | null;
export function fromMinorUnits(minor: number | null, currency: string): number | null {
  if (minor === null) return null;
  let exponent = 2;
  try {
    exponent = currencyExponent(currency);
  } catch {
    // unknown currency code: assume cents
  }
  return minor / 10 ** exponent;
}
