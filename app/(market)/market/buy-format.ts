import { formatMoney, type Locale } from '@/server/lib/i18n';
import { fromMinorUnits } from '@/server/lib/money';

/** Minor units in the fan's locale. */
export function money(minor: number, currency: string, locale: Locale): string {
  return formatMoney(fromMinorUnits(minor, currency), currency, locale);
}

/** "Section A · Row 3 · Seats 7, 8": the marketplace's own wording, shared with the payment page and Stripe's lines. */
export { seatText } from '@/server/modules/marketplace';

/** One search parameter as a string (the first when repeated). */
export function param(query: Record<string, string | string[] | undefined>, key: string): string | undefined {
  const v = query[key];
  return (Array.isArray(v) ? v[0] : v) || undefined;
}
