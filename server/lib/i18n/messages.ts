import de from './messages/de.json';
import en from './messages/en.json';
import es from './messages/es.json';
import fr from './messages/fr.json';
import it from './messages/it.json';
import nl from './messages/nl.json';
import pt from './messages/pt.json';
import type { Locale } from './locales';

/** Every message of every language (one JSON file per language; a test holds them to the same keys). */
const ALL = { en, es, fr, de, it, pt, nl } as const;

export type Messages = typeof en;

export function messagesFor(locale: Locale): Messages {
  return ALL[locale] as Messages;
}

export const allMessages: Record<Locale, unknown> = ALL;
