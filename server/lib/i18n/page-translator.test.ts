import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import { LOCALES } from './locales';
import { messagesFor } from './messages';
import { pageTranslator } from './page-translator';

/*
 * The buy page's own translator must say exactly what next-intl says: every message of the namespaces it
 * serves, in every language, with text and numeric arguments (plurals at 0, 1, 2 and 21).
 */

const NAMESPACES = ['buy', 'common'] as const;

/** The argument names of an ICU message (`{name}`, `{count, plural, …}`). */
function argumentsOf(message: string): string[] {
  return [...new Set([...message.matchAll(/\{\s*(\w+)\s*(?:,|\})/g)].map((m) => m[1]))];
}

describe('pageTranslator', () => {
  for (const locale of LOCALES) {
    for (const namespace of NAMESPACES) {
      it(`formats every ${locale} ${namespace} message as next-intl does`, () => {
        const reference = createTranslator({ locale, messages: messagesFor(locale), namespace, timeZone: 'UTC' });
        const fast = pageTranslator(locale, namespace);
        const messages = messagesFor(locale)[namespace] as Record<string, unknown>;
        let compared = 0;
        for (const [key, message] of Object.entries(messages)) {
          if (typeof message !== 'string' || /<\w+>/.test(message)) continue;
          const names = argumentsOf(message);
          for (const n of [0, 1, 2, 21]) {
            const values = Object.fromEntries(
              names.map((a, i) => [a, /plural|select/.test(message) ? n : `v${i}·${n}`]),
            );
            const ref = (reference as unknown as (k: string, v?: object) => string)(
              key,
              names.length ? values : undefined,
            );
            expect(fast(key as never, names.length ? values : undefined), `${locale} ${namespace}.${key} n=${n}`).toBe(
              ref,
            );
            compared++;
          }
        }
        expect(compared).toBeGreaterThan(40);
      });
    }
  }

  it('refuses a key that has no message', () => {
    expect(() => pageTranslator('en', 'buy')('noSuchKey' as never)).toThrow(/buy\.noSuchKey/);
  });
});
