/*
 * The languages' codes and the cookie remembering a fan's choice: what a client component may import too
 * (components/market/language-switch.tsx writes the cookie on a shared buy page). Nothing here reads the
 * environment; the choice of a request's locale (./locales.ts) does.
 */

export const LOCALES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language in its own words, for the language switch (components/market/language-switch.tsx). */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  it: 'Italiano',
  pt: 'Português',
  nl: 'Nederlands',
};

/**
 * The CLDR locale whose formats (numbers, money, dates) each language's fans read: `pt` is Portuguese as
 * written in Portugal, `es` Spain's Spanish, `en` American English (the product's English).
 */
export const INTL_TAGS: Record<Locale, string> = {
  en: 'en-US',
  es: 'es-ES',
  fr: 'fr-FR',
  de: 'de-DE',
  it: 'it-IT',
  pt: 'pt-PT',
  nl: 'nl-NL',
};

/** The cookie remembering the fan's last `lang`. */
export const LOCALE_COOKIE = 'encore_lang';
/**
 * How it is set: a year, the whole site. Not HttpOnly: a language is no secret, and on a shared buy page
 * (which carries no cookie) the page itself writes it (components/market/language-switch.tsx).
 */
export const LOCALE_COOKIE_OPTIONS = { path: '/', maxAge: 365 * 86_400, sameSite: 'lax' as const };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** `es-AR`, `ES`, `es_419` → `es`; anything unsupported → null. */
export function supportedLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const base = tag.trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(base) ? base : null;
}
