/**
 * Amounts in a currency's own decimals with its code (`1,234.50 USD`, `1,200 JPY`): one fixed form, so
 * the server render and the browser agree, and staff compare it with what the partner sent.
 */
const exponents = new Map<string, number>();

function exponentOf(currency: string): number {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    try {
      exponent = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
    } catch {
      exponent = 2; // not an ISO 4217 code (the API refuses those; kept readable regardless)
    }
    exponents.set(currency, exponent ?? 2);
  }
  return exponent ?? 2;
}

/** Major units (a number, or the numeric string the API's price type allows) with the currency code. */
export function formatMoney(amount: number | string | null | undefined, currency: string): string | null {
  if (amount === null || amount === undefined || amount === '') return null;
  const digits = exponentOf(currency);
  const number = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${number.format(Number(amount))} ${currency}`;
}

export function formatCount(n: number): string {
  return new Intl.NumberFormat('en-US').format(n);
}
