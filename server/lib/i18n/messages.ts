import en from './messages/en.json';
import es from './messages/es.json';
import type { Locale } from './locales';

/** Every message of every language (one JSON file per language; a test holds them to the same keys). */
const ALL = { en, es } as const;

export type Messages = typeof en;

export function messagesFor(locale: Locale): Messages {
  return ALL[locale] as Messages;
}

export const allMessages: Record<Locale, unknown> = ALL;
