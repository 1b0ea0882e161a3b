import { currencyExponent } from '@/server/lib/money';

/** Minor units as the buyer reads them: `4550, EUR` → `€45.50`. */
export function formatMoney(amountMinor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  return new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: exponent }).format(
    amountMinor / 10 ** exponent,
  );
}
