import { env } from '@/server/env';
import { localeOfCountry } from './country-languages';
import { type Locale, supportedLocale } from './locale-codes';

/*
 * The languages of fan pages and mails. A locale is chosen from, in order: the URL's `lang` (the
 * partner passes the fan's language on every entry URL; the proxy remembers it in a cookie so later
 * steps keep it), the browser's Accept-Language, then the primary language of the event's country
 * (./country-languages.ts) on pages about one event, then DEFAULT_LANG.
 */

export { localeOfCountry } from './country-languages';
export { isLocale, type Locale, LOCALE_COOKIE, LOCALE_COOKIE_OPTIONS, LOCALES, supportedLocale } from './locale-codes';

/** The request header the proxy sets on fan pages with the chosen locale (read by next-intl's request config). */
export const LOCALE_HEADER = 'x-encore-locale';

/** The best supported language of an Accept-Language header, by its q-values (ties keep header order). */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((r) => r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const r of ranked) {
    const found = supportedLocale(r.tag);
    if (found) return found;
  }
  return null;
}

export function defaultLocale(): Locale {
  return env().DEFAULT_LANG;
}

/** What the fan chose, if anything: URL `lang`, then the remembered cookie, then the browser; else null. */
export function chosenLocale(input: {
  lang?: string | null;
  cookie?: string | null;
  acceptLanguage?: string | null;
}): Locale | null {
  return supportedLocale(input.lang) ?? supportedLocale(input.cookie) ?? localeFromAcceptLanguage(input.acceptLanguage);
}

/**
 * The locale of a fan request: what the fan chose (`chosenLocale`), then the language of the event's
 * country (`location.country`, when the page is about one event), then the default.
 */
export function resolveLocale(input: {
  lang?: string | null;
  cookie?: string | null;
  acceptLanguage?: string | null;
  country?: string | null;
}): Locale {
  return chosenLocale(input) ?? localeOfCountry(input.country) ?? defaultLocale();
}
