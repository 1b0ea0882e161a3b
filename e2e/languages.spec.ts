import { expect, type Page, test } from './fixtures';
import {
  axe,
  call,
  createPartner,
  eventShow,
  EUR_STANDING,
  hydrated,
  listTicket,
  pushEvent,
  pushCappedEurEvent,
  RUN,
  screenshot,
  syncedTicket,
  syncTickets,
} from './helpers';

/*
 * Fans read Encore in seven languages: the buy page, checkout and the sell page, opened with `?lang=` in
 * each, say the language's own words and write prices and the show's date (at the venue) as its fans do,
 * axe-clean. French and German (the longest words) are also looked at on a phone and a laptop for
 * nothing overflowing its box. A fan who names no language reads an event's pages in its country's language.
 */

const REF = `LANG-${RUN}`;
const FR_REF = `LANG-FR-${RUN}`;
const SELLER = `lang-seller-${RUN}@fans.test`;
const LANGS = ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl'] as const;
type Lang = (typeof LANGS)[number];

/** What each language's page says: a heading of each page, the face value and the show's date at the venue. */
const SAYS: Record<Lang, { market: string; checkout: string; sell: string; face: RegExp; date: string }> = {
  en: {
    market: 'Tickets on sale',
    checkout: 'Checkout',
    sell: 'Sell your ticket',
    face: /^face value €40\.00$/,
    date: 'Sat, Jun 12, 2027, 9:30 PM',
  },
  es: {
    market: 'Entradas a la venta',
    checkout: 'Finalizar compra',
    sell: 'Vende tu entrada',
    face: /^valor nominal 40,00\s€$/,
    date: 'sáb, 12 jun 2027, 21:30',
  },
  fr: {
    market: 'Billets en vente',
    checkout: 'Paiement',
    sell: 'Vendre votre billet',
    face: /^prix initial 40,00\s€$/,
    date: 'sam. 12 juin 2027, 21:30',
  },
  de: {
    market: 'Tickets im Verkauf',
    checkout: 'Kasse',
    sell: 'Ticket verkaufen',
    face: /^Originalpreis 40,00\s€$/,
    date: 'Sa., 12. Juni 2027, 21:30',
  },
  it: {
    market: 'Biglietti in vendita',
    checkout: 'Pagamento',
    sell: 'Vendi il tuo biglietto',
    face: /^prezzo originale 40,00\s€$/,
    date: 'sab 12 giu 2027, 21:30',
  },
  pt: {
    market: 'Bilhetes à venda',
    checkout: 'Pagamento',
    sell: 'Vender o seu bilhete',
    face: /^preço original 40,00\s€$/,
    date: 'sábado, 12/06/2027, 21:30',
  },
  nl: {
    market: 'Tickets te koop',
    checkout: 'Afrekenen',
    sell: 'Je ticket verkopen',
    face: /^oorspronkelijke prijs €\s40,00$/,
    date: 'za 12 jun 2027, 21:30',
  },
};
/** The checkout's total for the one 45 € ticket, fees included, as each language writes it. */
const TOTAL: Record<Lang, RegExp> = {
  en: /€\d+\.\d\d/,
  es: /\d+,\d\d\s€/,
  fr: /\d+,\d\d\s€/,
  de: /\d+,\d\d\s€/,
  it: /\d+,\d\d\s€/,
  pt: /\d+,\d\d\s€/,
  nl: /€\s\d+,\d\d/,
};

let partnerKey = '';
let marketPath = '';
let frenchMarketPath = '';

test.beforeAll(async ({ request }) => {
  const partner = await createPartner(`Languages ${RUN}`);
  partnerKey = partner.apiKey;
  await pushCappedEurEvent(request, partner.apiKey, {
    ref: REF,
    title: `Seven Tongues ${RUN}`,
    description: '<p>Music.</p>',
  });
  // One ticket on sale (the buy page and checkout), one per language for the sell page.
  await syncTickets(request, partner.apiKey, [
    syncedTicket(REF, `L-ON-SALE-${RUN}`, SELLER),
    ...LANGS.map((lang) => syncedTicket(REF, `L-${lang}-${RUN}`, SELLER)),
  ]);
  await listTicket({ partnerId: partner.partnerId, sellerEmail: SELLER, ticketId: `L-ON-SALE-${RUN}`, price: '45' });
  // An event in France whose partner names no language: its pages speak French to a fan who names none.
  await pushEvent(request, partner.apiKey, {
    ref: FR_REF,
    title: `Nuit de Paris ${RUN}`,
    description: '<p>Musique.</p>',
    location: { city: 'Paris', venueName: 'Salle Pleyel', country: 'FR', timeZone: 'Europe/Paris' },
    shows: [eventShow('1', '2027-06-12T21:30:00+02:00', 'Night one', EUR_STANDING)],
  });
  const entry = async (ref: string) => {
    const res = await call(
      request,
      partner.apiKey,
      'GET',
      `/v1/marketplace/buyingflow/url/entrypoint?externalReferenceEventId=${ref}&showId=1&returnTo=${encodeURIComponent('https://tickets.partner.example/')}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const url = new URL(res.body.data as string);
    return url;
  };
  const market = await entry(REF);
  marketPath = `${market.pathname}${market.search}`;
  const french = await entry(FR_REF);
  french.searchParams.delete('lang');
  frenchMarketPath = `${french.pathname}${french.search}`;
});

const inLang = (path: string, lang: Lang) => {
  const url = new URL(path, 'http://encore');
  url.searchParams.set('lang', lang);
  return `${url.pathname}${url.search}`;
};

/** Nothing wider than the page: no sideways scroll, and no text running out of its own box. */
async function nothingOverflows(page: Page, what: string) {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${what}: page width`).toBeLessThanOrEqual(
    width,
  );
  const overflowing = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main button, main a, main h1, main h2, main h3, main label, main dd')]
      .filter(
        (el) =>
          el.offsetParent !== null &&
          el.scrollWidth > el.clientWidth + 1 &&
          getComputedStyle(el).overflowX === 'visible',
      )
      .map((el) => `${el.tagName.toLowerCase()} "${el.innerText.slice(0, 40)}" ${el.scrollWidth}>${el.clientWidth}`),
  );
  expect(overflowing, `${what}: text overflowing its box`).toEqual([]);
}

/** Screenshots at a phone's and a laptop's width, each checked for overflow and axe (the page open at 390 px). */
async function looked(page: Page, name: string) {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 844 });
    await nothingOverflows(page, `${name} at ${width}`);
    await axe(page, `${name} at ${width}`);
    await screenshot(page, `test-results/lang-${name}-${width}.png`, { fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

for (const lang of LANGS) {
  test(`the buy page, checkout and the sell page in ${lang}: its words, its prices and dates, axe-clean`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const say = SAYS[lang];
    const wide = lang === 'fr' || lang === 'de';

    await page.goto(inLang(marketPath, lang));
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.getByRole('heading', { name: say.market })).toBeVisible();
    await expect(page.getByTestId('listing-face').first()).toHaveText(say.face);
    await expect(page.getByTestId('show-date')).toHaveText(say.date);
    // The language switch names every language in its own words.
    await expect(page.locator('.mk-lang a')).toHaveText([
      'English',
      'Español',
      'Français',
      'Deutsch',
      'Italiano',
      'Português',
      'Nederlands',
    ]);
    // The wide languages' pages at both widths (axe at each), the others at 390 px.
    await (wide ? looked(page, `buy-${lang}`) : axe(page, `buy page (${lang})`));

    await hydrated(page, '[data-testid="buy"]');
    await page.getByTestId('buy').first().click();
    await expect(page).toHaveURL(/\/checkout\?/);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.getByRole('heading', { name: say.checkout, exact: true })).toBeVisible();
    await expect(page.getByTestId('checkout-total')).toContainText(TOTAL[lang]);
    await expect(page.getByTestId('checkout-show')).toContainText(say.date);
    // The wide languages' pages at both widths (axe at each), the others at 390 px.
    await (wide ? looked(page, `checkout-${lang}`) : axe(page, `checkout (${lang})`));

    const sellUrl = (
      await call(
        request,
        partnerKey,
        'GET',
        `/v1/marketplace/sellingflow/url/entrypoint?ticketId=L-${lang}-${RUN}&lang=${lang}`,
      )
    ).body.data as string;
    const token = (await call(request, partnerKey, 'GET', `/v1/auth/oneTimeToken?user=${encodeURIComponent(SELLER)}`))
      .body.data as string;
    await page.goto(`${sellUrl}&token=${token}`);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.getByRole('heading', { name: say.sell, level: 1 })).toBeVisible();
    await expect(page.getByTestId('price-range')).toContainText(TOTAL[lang]);
    // The wide languages' pages at both widths (axe at each), the others at 390 px.
    await (wide ? looked(page, `sell-${lang}`) : axe(page, `sell page (${lang})`));
    await context.close();
  });
}

test('a fan who names no language reads an event’s pages in its country’s language', async ({ browser }) => {
  // A Japanese browser (a language Encore does not speak), no `lang`, no remembered one: the event is in France.
  const context = await browser.newContext({ locale: 'ja-JP' });
  const page = await context.newPage();
  await page.goto(frenchMarketPath);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByTestId('show-date')).toHaveText('sam. 12 juin 2027, 21:30');
  // The switch, opened from the current language's name, takes the fan to another (remembered from then on).
  await page.getByTestId('language-switch').locator('summary').click();
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'test-results/lang-switch-fr-390.png');
  await page.getByRole('link', { name: 'Italiano' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');
  // (on the shared page the page itself remembers it, once its script runs)
  await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'encore_lang')?.value).toBe('it');
  await page.goto(frenchMarketPath);
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');
  // The fan's own choice still wins: a German browser reads it in German.
  const german = await (await browser.newContext({ locale: 'de-DE' })).newPage();
  await german.goto(frenchMarketPath);
  await expect(german.locator('html')).toHaveAttribute('lang', 'de');
  // The shared page of fans who name none is one page, in French; the event's language is in its key, not the fan's.
  const shared = await fetch(new URL(frenchMarketPath, page.url()));
  expect(shared.headers.get('cache-control')).toContain('public');
  expect(await shared.text()).toMatch(/<html[^>]* lang="fr"/);
  // An event of no known country, asked the same way: DEFAULT_LANG.
  const unknown = new URL(marketPath, 'http://encore');
  unknown.searchParams.delete('lang');
  const elsewhere = await (await browser.newContext({ locale: 'ja-JP' })).newPage();
  await elsewhere.goto(`${unknown.pathname}${unknown.search}`);
  await expect(elsewhere.locator('html')).toHaveAttribute('lang', 'en');
  await elsewhere.context().close();
  await context.close();
  await german.context().close();
});
