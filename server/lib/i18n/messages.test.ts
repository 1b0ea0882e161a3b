import { describe, expect, it } from 'vitest';
import { FAN_ERROR_REASONS } from '@/server/lib/errors';
import { fromMinorUnits } from '@/server/lib/money';
import { formatMoney, formatShowDate } from './format';
import { localeFromAcceptLanguage, LOCALES, resolveLocale } from './locales';
import { allMessages } from './messages';
import { translator } from './translator';

/** Every leaf key of a message tree, with its ICU argument names (`{partner}`, `{count, plural…}`). */
function leaves(tree: unknown, prefix = ''): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (tree && typeof tree === 'object') {
    for (const [k, v] of Object.entries(tree)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (typeof v === 'string') {
        const args = [...v.matchAll(/\{\s*([a-zA-Z0-9_]+)\s*[,}]/g)].map((m) => m[1]);
        out.set(key, [...new Set(args)].sort());
      } else for (const [lk, lv] of leaves(v, key)) out.set(lk, lv);
    }
  }
  return out;
}

describe('message files', () => {
  const en = leaves(allMessages.en);

  it.each(LOCALES.filter((l) => l !== 'en'))('%s has every English key, no extra key, the same arguments', (locale) => {
    const other = leaves(allMessages[locale]);
    expect(
      [...en.keys()].filter((k) => !other.has(k)),
      `keys missing in ${locale}`,
    ).toEqual([]);
    expect(
      [...other.keys()].filter((k) => !en.has(k)),
      `keys only in ${locale}`,
    ).toEqual([]);
    for (const [key, args] of en) expect(other.get(key), `arguments of ${locale} ${key}`).toEqual(args);
  });

  it('says every reason a fan action can be refused for, and no other', () => {
    const said = [...en.keys()].filter((k) => k.startsWith('fanErrors.')).map((k) => k.slice('fanErrors.'.length));
    expect(said.sort()).toEqual([...FAN_ERROR_REASONS].sort());
    // The only argument a refusal may take is the partner's name (all the action knows).
    for (const reason of FAN_ERROR_REASONS)
      expect(['partner']).toEqual(expect.arrayContaining(en.get(`fanErrors.${reason}`)!));
  });

  it('has no empty message', () => {
    for (const locale of LOCALES)
      for (const [key] of leaves(allMessages[locale])) {
        const value = key.split('.').reduce<unknown>((t, k) => (t as Record<string, unknown>)[k], allMessages[locale]);
        expect(String(value).trim(), `${locale} ${key}`).not.toBe('');
      }
  });

  it('formats plurals per language', () => {
    expect(translator('en', 'common')('tickets', { count: 1 })).toBe('1 ticket');
    expect(translator('es', 'common')('tickets', { count: 3 })).toBe('3 entradas');
  });

  it('agrees the whole sentence with the count: one ticket taken off sale is singular to its end', () => {
    const es = translator('es', 'listing');
    expect(es('unlistConfirmBody', { count: 1, price: '32,00 €' })).toBe(
      'Tu entrada a 32,00 € dejará de mostrarse a los compradores. Puedes volver a publicarla más tarde.',
    );
    expect(es('unlistConfirmBody', { count: 2, price: '32,00 €' })).toBe(
      'Tus 2 entradas a 32,00 € cada una dejarán de mostrarse a los compradores. Puedes volver a publicarlas más tarde.',
    );
    expect(translator('en', 'listing')('unlistConfirmBody', { count: 1, price: '€32.00' })).toBe(
      'Your ticket at €32.00 will no longer be shown to buyers. You can list again later.',
    );
  });
});

describe('locale choice', () => {
  it('takes the URL, then the cookie, then the browser, then the default', () => {
    expect(resolveLocale({ lang: 'es', cookie: 'en', acceptLanguage: 'en' })).toBe('es');
    expect(resolveLocale({ lang: 'fr', cookie: 'es', acceptLanguage: 'en' })).toBe('es');
    expect(resolveLocale({ acceptLanguage: 'fr-FR,es-AR;q=0.8,en;q=0.5' })).toBe('es');
    expect(resolveLocale({ acceptLanguage: 'fr' })).toBe('en');
    expect(resolveLocale({})).toBe('en');
  });

  it('ranks Accept-Language by q-value and ignores q=0', () => {
    expect(localeFromAcceptLanguage('en;q=0.2, es;q=0.9')).toBe('es');
    expect(localeFromAcceptLanguage('es;q=0, en')).toBe('en');
    expect(localeFromAcceptLanguage('')).toBeNull();
  });
});

describe('formats', () => {
  it('writes money per locale from major or minor units', () => {
    expect(formatMoney('12.50', 'USD', 'en')).toBe('$12.50');
    expect(formatMoney(12.5, 'EUR', 'es').replace(/\s/g, ' ')).toBe('12,50 €');
    expect(fromMinorUnits(1250, 'USD')).toBe(12.5);
    expect(fromMinorUnits(1250, 'JPY')).toBe(1250);
  });

  it("shows a date at the venue's time zone", () => {
    const at = '2026-03-14T00:30:00Z';
    expect(formatShowDate(at, 'en', 'America/Argentina/Buenos_Aires')).toContain('Mar 13, 2026');
    expect(formatShowDate(at, 'en', 'America/Argentina/Buenos_Aires')).toContain('9:30');
    expect(formatShowDate(at, 'es', 'Europe/Madrid')).toContain('14 mar 2026, 1:30');
    expect(formatShowDate(at, 'en', 'Not/AZone')).toContain('12:30');
  });
});
