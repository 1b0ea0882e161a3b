import { createTranslator } from 'next-intl';
import type { Locale } from './locales';
import { type Messages, messagesFor } from './messages';

type Translator<N extends keyof Messages & string> = ReturnType<typeof createTranslator<Messages, N>>;

// One per language and namespace for the process: each keeps its compiled messages (a fresh one would
// parse every message again on every call site, as a page's delivery line or a mail does many times).
const made = new Map<string, unknown>();

/** A `t()` outside React (mails, route handlers), over the same message files as the pages. */
export function translator<N extends keyof Messages & string>(locale: Locale, namespace: N): Translator<N> {
  const key = `${locale} ${namespace}`;
  let t = made.get(key) as Translator<N> | undefined;
  if (!t) made.set(key, (t = createTranslator({ locale, messages: messagesFor(locale), namespace })));
  return t;
}
