import { type Formatters, IntlMessageFormat } from 'intl-messageformat';
import type { Locale } from './locales';
import { type Messages, messagesFor } from './messages';

/*
 * A `t()` for the hot parts of a page (the buy page formats ~700 messages a render). next-intl's
 * request translator compiles each message again on every request and, on every call with values,
 * rebuilds its formats and serialises its arguments to a cache key with JSON.stringify: 60–100 µs a call,
 * tens of milliseconds of CPU a page. This one compiles each message once per process (the message files
 * never change while it runs) and formats it straight away (~1 µs). Same ICU messages, same output:
 * page-translator.test.ts holds it to next-intl's for every message of the namespaces it serves.
 * Plain and plural messages only: rich text (tags) stays with next-intl.
 */

type Values = Record<string, string | number>;

/** Intl objects made once per locale and options (intl-messageformat would key them by JSON.stringify). */
const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const keyOf = (locales: Intl.LocalesArgument, opts?: object) =>
  `${String(locales)}|${opts ? JSON.stringify(opts) : ''}`;
function made<T>(map: Map<string, T>, key: string, make: () => T): T {
  let v = map.get(key);
  if (!v) map.set(key, (v = make()));
  return v;
}
const formatters: Formatters = {
  getNumberFormat: (locales, opts) =>
    made(numberFormats, keyOf(locales, opts), () => new Intl.NumberFormat(locales, opts)),
  getDateTimeFormat: (locales, opts) =>
    made(dateFormats, keyOf(locales, opts), () => new Intl.DateTimeFormat(locales, { timeZone: 'UTC', ...opts })),
  getPluralRules: (locales, opts) => made(pluralRules, keyOf(locales, opts), () => new Intl.PluralRules(locales, opts)),
};

/** Compiled messages by locale, namespace and key; a message without an argument or escape is kept as text. */
const compiled = new Map<string, IntlMessageFormat | string>();

function compile(locale: Locale, namespace: string, key: string): IntlMessageFormat | string {
  const id = `${locale}\u0000${namespace}\u0000${key}`;
  let c = compiled.get(id);
  if (c === undefined) {
    const ns = (messagesFor(locale) as unknown as Record<string, Record<string, unknown>>)[namespace];
    const message = ns?.[key];
    if (typeof message !== 'string') throw new Error(`no message ${namespace}.${key} in ${locale}`);
    c = /[{}']/.test(message) ? new IntlMessageFormat(message, locale, undefined, { formatters }) : message;
    compiled.set(id, c);
  }
  return c;
}

/** The keys of a namespace whose messages are strings. */
type KeyOf<N extends keyof Messages> = {
  [K in keyof Messages[N]]: Messages[N][K] extends string ? K : never;
}[keyof Messages[N]] &
  string;

export type PageT<N extends keyof Messages> = (key: KeyOf<N>, values?: Values) => string;

/** `t(key, values)` over one namespace of the locale's messages, compiled once per process. */
export function pageTranslator<N extends keyof Messages & string>(locale: Locale, namespace: N): PageT<N> {
  return (key, values) => {
    const c = compile(locale, namespace, key);
    if (typeof c === 'string') return c;
    return String(c.format(values));
  };
}
