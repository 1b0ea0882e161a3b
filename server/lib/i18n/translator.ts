import { createTranslator } from 'next-intl';
import type { Locale } from './locales';
import { type Messages, messagesFor } from './messages';

/** A `t()` outside React (mails, route handlers), over the same message files as the pages. */
export function translator<N extends keyof Messages & string>(locale: Locale, namespace: N) {
  return createTranslator({ locale, messages: messagesFor(locale), namespace });
}
