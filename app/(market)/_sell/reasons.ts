import { getLocale, getTranslations } from 'next-intl/server';
import { formatMoney, isLocale, type Locale } from '@/server/lib/i18n';
import { fromMinorUnits } from '@/server/lib/money';
import type { PriceRange, SellReason } from '@/server/modules/marketplace';

/** The page's locale as the formatters take it. */
export async function pageLocale(): Promise<Locale> {
  const l = await getLocale();
  return isLocale(l) ? l : 'en';
}

export async function money(minor: number, currency: string): Promise<string> {
  return formatMoney(fromMinorUnits(minor, currency), currency, await pageLocale());
}

/** A reason a ticket cannot be sold, in the fan's words. */
export async function reasonText(reason: SellReason, partner: string): Promise<string> {
  const t = await getTranslations('sell.reason');
  switch (reason.code) {
    case 'WINDOW_NOT_OPEN':
    case 'WINDOW_CLOSED':
      return t(reason.code, { hours: reason.hours ?? 0 });
    case 'TOO_MANY':
      return t('TOO_MANY', { max: reason.max ?? 0 });
    case 'RULES_FORBID':
    case 'CODE_REVEALED':
    case 'NOT_OWNED':
    case 'UNVERIFIED':
      return t(reason.code, { partner });
    default:
      return t(reason.code);
  }
}

/** "Allowed: $40.00 to $60.00 per ticket", or one bound, or null when the partner sets none. */
export async function rangeText(range: PriceRange): Promise<string | null> {
  const t = await getTranslations('sell');
  const { floorMinor, capMinor, currency } = range;
  if (floorMinor !== null && capMinor !== null)
    return t('rangeBoth', { min: await money(floorMinor, currency), max: await money(capMinor, currency) });
  if (capMinor !== null) return t('rangeMax', { max: await money(capMinor, currency) });
  if (floorMinor !== null) return t('rangeMin', { min: await money(floorMinor, currency) });
  return null;
}

/** An amount in major units as the API answers it ("12.5"). */
export async function moneyMajor(amount: number | string | null, currency: string): Promise<string> {
  return formatMoney(amount ?? 0, currency, await pageLocale());
}
