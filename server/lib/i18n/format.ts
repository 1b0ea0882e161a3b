import { INTL_TAGS as INTL_TAG, type Locale } from './locale-codes';
import { processCache } from '../short-cache';

/*
 * Prices and dates as a fan reads them, per locale, on pages and in mails alike. Money arrives in
 * major units (the API's decimal strings, or stored minor units through `fromMinorUnits`); dates are
 * shown in the venue's time zone.
 */

// Building an Intl formatter costs tens of microseconds; a buy page formats thousands of prices.
const formatters = new Map<string, Intl.NumberFormat | null>();

function moneyFormat(locale: Locale, currency: string): Intl.NumberFormat | null {
  const key = `${locale} ${currency}`;
  let f = formatters.get(key);
  if (f === undefined) {
    try {
      f = new Intl.NumberFormat(INTL_TAG[locale], { style: 'currency', currency });
    } catch {
      f = null; // not a currency code Intl knows
    }
    formatters.set(key, f);
  }
  return f;
}

/** A price in major units (`"12.50"` or 12.5) in the fan's locale: `$12.50`, `12,50 US$`. */
export function formatMoney(amount: string | number, currency: string, locale: Locale): string {
  const value = typeof amount === 'number' ? amount : Number(amount);
  return moneyFormat(locale, currency)?.format(value) ?? `${value.toFixed(2)} ${currency}`;
}

function validZone(timeZone: string | null | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

const showDateFormats = processCache<Intl.DateTimeFormat>('show-date-formats', { max: 500 });

/** A show's date and time at its venue: "Sat, Mar 14, 2026, 9:00 PM" / "sáb, 14 mar 2026, 21:00". */
export function formatShowDate(at: Date | string, locale: Locale, timeZone?: string | null): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  const key = `${locale} ${timeZone ?? ''}`;
  let f = showDateFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(INTL_TAG[locale], {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: validZone(timeZone),
    });
    // A zone string comes from partners' data: a bounded cache, the least lately used going first.
    showDateFormats.set(key, f);
  }
  return f.format(date);
}

/** A clock time at a place: "9:35 PM" / "21:35" (a hold's end at the venue). */
export function formatClock(at: Date | string, locale: Locale, timeZone?: string | null): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  return new Intl.DateTimeFormat(INTL_TAG[locale], {
    hour: 'numeric',
    minute: '2-digit',
    timeZone: validZone(timeZone),
  }).format(date);
}

/** A calendar day only (payout dates, listing windows). */
export function formatDay(at: Date | string, locale: Locale, timeZone?: string | null): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  return new Intl.DateTimeFormat(INTL_TAG[locale], { dateStyle: 'medium', timeZone: validZone(timeZone) }).format(date);
}
