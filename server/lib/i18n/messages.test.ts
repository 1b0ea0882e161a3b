import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { FAN_ERROR_REASONS } from '@/server/lib/errors';
import { fromMinorUnits } from '@/server/lib/money';
import { formatMoney, formatShowDate } from './format';
import { localeFromAcceptLanguage, LOCALES, localeOfCountry, resolveLocale } from './locales';
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

/** A message's ICU elements of one kind, as the parser reads them (intl-messageformat's AST). */
interface Element {
  type: number;
  value?: string;
  options?: Record<string, { value: Element[] }>;
  children?: Element[];
}
const ARGUMENT_KINDS: Record<number, string> = {
  1: 'text',
  2: 'number',
  3: 'date',
  4: 'time',
  5: 'select',
  6: 'plural',
};

/**
 * The structure a translation must keep: every argument with its kind (`price:text`, `count:plural`),
 * every select's cases, every tag (`<strong>`), and each plural's explicit cases (`=0`) and categories.
 * A plural's categories may differ by language (CLDR's: French has `many`, English not), so they are kept
 * apart: `plurals` maps `count` to its categories.
 */
function structureOf(message: string, locale: string) {
  const args = new Set<string>();
  const plurals = new Map<string, Set<string>>();
  const walk = (elements: Element[]) => {
    for (const e of elements) {
      if (e.type === 8) {
        args.add(`<${e.value}>`);
        walk(e.children ?? []);
      } else if (ARGUMENT_KINDS[e.type]) {
        args.add(`${e.value}:${ARGUMENT_KINDS[e.type]}`);
        if (e.type === 5)
          args.add(
            `${e.value} cases ${Object.keys(e.options ?? {})
              .sort()
              .join(' ')}`,
          );
        if (e.type === 6) {
          const cases = plurals.get(e.value!) ?? new Set<string>();
          for (const c of Object.keys(e.options ?? {})) cases.add(c);
          plurals.set(e.value!, cases);
        }
        for (const option of Object.values(e.options ?? {})) walk(option.value);
      }
    }
  };
  walk(new IntlMessageFormat(message, locale).getAst() as Element[]);
  return { args: [...args].sort(), plurals };
}

/** Every leaf message of a tree by its dotted key. */
function texts(tree: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [lk, lv] of texts(v, key)) out.set(lk, lv);
  }
  return out;
}

describe('message files', () => {
  const en = leaves(allMessages.en);
  const enTexts = texts(allMessages.en);

  it.each(LOCALES.filter((l) => l !== 'en'))(
    '%s keeps every message’s ICU structure: arguments and their kinds, select cases, tags, plural cases',
    (locale) => {
      const categories = new Set(new Intl.PluralRules(locale).resolvedOptions().pluralCategories as string[]);
      for (const [key, theirs] of texts(allMessages[locale])) {
        const ours = enTexts.get(key);
        if (ours === undefined) continue; // the key test above names it
        const want = structureOf(ours, 'en');
        const got = structureOf(theirs, locale);
        expect(got.args, `ICU arguments of ${locale} ${key}`).toEqual(want.args);
        for (const [name, cases] of got.plurals) {
          const explicit = [...(want.plurals.get(name) ?? [])].filter((c) => c.startsWith('='));
          expect([...cases], `${locale} ${key}: ${name} keeps English's explicit cases`).toEqual(
            expect.arrayContaining(explicit),
          );
          expect(cases.has('other'), `${locale} ${key}: ${name} has an "other" case`).toBe(true);
          for (const c of cases)
            expect(c.startsWith('=') || categories.has(c), `${locale} ${key}: ${name} case ${c} is ${locale}'s`).toBe(
              true,
            );
        }
      }
    },
  );

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
  it('takes the URL, then the cookie, then the browser, then the event’s country, then the default', () => {
    expect(resolveLocale({ lang: 'es', cookie: 'en', acceptLanguage: 'en' })).toBe('es');
    expect(resolveLocale({ lang: 'ja', cookie: 'es', acceptLanguage: 'en' })).toBe('es');
    expect(resolveLocale({ acceptLanguage: 'ja-JP,de-AT;q=0.8,en;q=0.5' })).toBe('de');
    expect(resolveLocale({ acceptLanguage: 'ja' })).toBe('en');
    expect(resolveLocale({})).toBe('en');
    expect(resolveLocale({ lang: 'pt-PT' })).toBe('pt');
    expect(resolveLocale({ acceptLanguage: 'nl-BE' })).toBe('nl');
    // Nothing of the fan's chose: the event's country speaks, before DEFAULT_LANG.
    expect(resolveLocale({ acceptLanguage: 'ja', country: 'FR' })).toBe('fr');
    expect(resolveLocale({ country: 'at' })).toBe('de');
    expect(resolveLocale({ country: ' BE ' })).toBe('nl');
    expect(resolveLocale({ country: 'BR' })).toBe('pt');
    expect(resolveLocale({ country: 'SM' })).toBe('it');
    expect(resolveLocale({ country: 'AR' })).toBe('es');
    // …but never over the fan's own choice, and an unknown country or a name is no country.
    expect(resolveLocale({ acceptLanguage: 'it', country: 'FR' })).toBe('it');
    expect(resolveLocale({ cookie: 'nl', country: 'DE' })).toBe('nl');
    expect(resolveLocale({ country: 'JP' })).toBe('en');
    expect(resolveLocale({ country: 'France' })).toBe('en');
    expect(resolveLocale({ country: '' })).toBe('en');
  });

  it('knows every language of the country table', () => {
    for (const [country, locale] of Object.entries({
      LU: 'fr',
      CH: 'de',
      MX: 'es',
      GB: 'en',
      IE: 'en',
      US: 'en',
      AD: 'es',
      NL: 'nl',
      PT: 'pt',
      IT: 'it',
      DE: 'de',
      FR: 'fr',
      ES: 'es',
    }))
      expect(localeOfCountry(country), country).toBe(locale);
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

  it('writes prices and dates as each language’s fans read them (CLDR, through Intl)', () => {
    const money = (locale: (typeof LOCALES)[number]) => formatMoney('1234.5', 'EUR', locale).replace(/\s/g, ' ');
    expect(money('fr')).toBe('1 234,50 €');
    expect(money('de')).toBe('1.234,50 €');
    expect(money('it')).toBe('1234,50 €');
    expect(money('pt')).toBe('1234,50 €');
    expect(money('nl')).toBe('€ 1.234,50');
    const at = '2026-03-14T20:30:00Z';
    expect(formatShowDate(at, 'fr', 'Europe/Paris')).toBe('sam. 14 mars 2026, 21:30');
    expect(formatShowDate(at, 'de', 'Europe/Berlin')).toBe('Sa., 14. März 2026, 21:30');
    expect(formatShowDate(at, 'it', 'Europe/Rome')).toBe('sab 14 mar 2026, 21:30');
    expect(formatShowDate(at, 'pt', 'Europe/Lisbon')).toBe('sábado, 14/03/2026, 20:30');
    expect(formatShowDate(at, 'nl', 'Europe/Amsterdam')).toBe('za 14 mrt 2026, 21:30');
  });

  it('agrees plurals per language', () => {
    expect(translator('fr', 'common')('tickets', { count: 2 })).toBe('2 billets');
    expect(translator('de', 'common')('tickets', { count: 1 })).toBe('1 Ticket');
    expect(translator('it', 'common')('tickets', { count: 3 })).toBe('3 biglietti');
    expect(translator('pt', 'common')('tickets', { count: 2 })).toBe('2 bilhetes');
    expect(translator('nl', 'common')('tickets', { count: 1 })).toBe('1 ticket');
    expect(translator('de', 'sell')('confirm', { count: 0 })).toBe('Tickets zum Anbieten wählen');
  });
});
