/**
 * Languages of fan pages and mails: which locale a request gets, the message files (one per language,
 * same keys), and locale-aware money and dates. Pages use next-intl (request config in ./request.ts);
 * mails and plain code use `translator(locale)`.
 */
export * from './locales';
export * from './format';
export { translator } from './translator';
export { type PageT, pageTranslator } from './page-translator';
