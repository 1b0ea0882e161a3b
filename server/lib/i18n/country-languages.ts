import type { Locale } from './locale-codes';

/*
 * The primary language of an event's country, among the languages Encore speaks: what a fan reads when
 * nothing of theirs chose one (no `lang`, no remembered choice, no browser language Encore knows),
 * before DEFAULT_LANG. One table, by ISO 3166-1 alpha-2 code; a country not here (or whose language
 * Encore does not speak) falls through to DEFAULT_LANG. Where a country has several official languages,
 * the one most of its ticket buyers read (BE: Dutch, CH: German, LU: French).
 */
const COUNTRIES_OF: Record<Locale, string> = {
  en: 'GB IE US CA AU NZ MT ZA',
  es: 'ES AD MX AR CL CO PE UY PY BO EC VE CR PA GT HN SV NI DO CU PR',
  fr: 'FR MC LU SN CI',
  de: 'DE AT CH LI',
  it: 'IT SM VA',
  pt: 'PT BR AO MZ CV',
  nl: 'NL BE SR',
};

const COUNTRY_LANGUAGES = new Map<string, Locale>(
  (Object.entries(COUNTRIES_OF) as [Locale, string][]).flatMap(([locale, codes]) =>
    codes.split(' ').map((code) => [code, locale] as const),
  ),
);

/**
 * The language of a country as partners send it (`location.country`: an ISO code such as `FR` or `fr`,
 * whitespace around it ignored), or null when it is no code in the table (a name, empty, unknown).
 */
export function localeOfCountry(country: string | null | undefined): Locale | null {
  if (typeof country !== 'string') return null;
  return COUNTRY_LANGUAGES.get(country.trim().toUpperCase()) ?? null;
}
