/*
 * The languages' codes and the cookie remembering a fan's choice: what a client component may import too
 * (components/market/language-switch.tsx writes the cookie on a shared buy page). Nothing here reads the
 * environment; the choice of a request's locale (./locales.ts) does.
 */

export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

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
