import { formatMoney, type Locale } from '@/server/lib/i18n';
import { fromMinorUnits } from '@/server/lib/money';
import type { SeatView } from '@/server/modules/marketplace';

/** Minor units in the fan's locale. */
export function money(minor: number, currency: string, locale: Locale): string {
  return formatMoney(fromMinorUnits(minor, currency), currency, locale);
}

type SeatT = (key: 'section' | 'row' | 'seat' | 'seats' | 'noSeat', values?: { value: string }) => string;

/** "Section A · Row 3 · Seats 7, 8" for a listing's tickets (one section and row when they share them). */
export function seatText(seats: SeatView[], t: SeatT): string {
  const known = seats.filter((s) => s.section || s.row || s.seat);
  if (!known.length) return t('noSeat');
  const parts: string[] = [];
  const one = <K extends keyof SeatView>(k: K) => {
    const values = [...new Set(known.map((s) => s[k]).filter((v): v is string => !!v))];
    return values.length ? values.join(', ') : null;
  };
  const section = one('section');
  const row = one('row');
  const seat = one('seat');
  if (section) parts.push(t('section', { value: section }));
  if (row) parts.push(t('row', { value: row }));
  if (seat) parts.push(known.length > 1 ? t('seats', { value: seat }) : t('seat', { value: seat }));
  return parts.join(' · ');
}

/** One search parameter as a string (the first when repeated). */
export function param(query: Record<string, string | string[] | undefined>, key: string): string | undefined {
  const v = query[key];
  return (Array.isArray(v) ? v[0] : v) || undefined;
}
