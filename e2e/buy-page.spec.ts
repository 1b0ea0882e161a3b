import { expect, type Page, test } from './fixtures';
import {
  axe,
  baseURL,
  buyIntention,
  buyPageAddress,
  call,
  createPartner,
  EUR_STANDING,
  eventShow,
  partnerWithListing,
  pushEvent,
  PRESENTATION,
  RUN,
  shot,
  shotsEnEs,
  withParams,
} from './helpers';

/*
 * The buy page on a phone: the offers start within the first screen (a compact event
 * header, the filters in a sheet opened on demand), each resale price shows its face value, and a channel's
 * listing split ticket by ticket is one row whose quantity picker leads to checkout with that many
 * tickets; in English and Spanish, axe-clean at 390 and 1366 px.
 */

const NAME = `Buy Page Partner ${RUN}`;
const REF = `BPG-${RUN}`;
const SELLER = `bpg-seller-${RUN}@fans.test`;
const TICKET = `BPG-T1-${RUN}`;
const RETURN_TO = 'https://tickets.partner.example/events/buy-page';
const DESCRIPTION = `<p>${'A long night of music in the old hall, with guests and surprises. '.repeat(12)}</p>`;

test.use({ viewport: { width: 390, height: 844 } });

let marketUrl = '';
let partnerKey = '';
let fanListing = '';

test.beforeAll(async ({ request }) => {
  const { apiKey, channelsApiKey, listingId } = await partnerWithListing(request, {
    name: NAME,
    event: { ref: REF, title: `Sala Norte Nights ${RUN}`, description: DESCRIPTION },
    listing: {
      seller: SELLER,
      ticketId: TICKET,
      price: '45',
      ticketFields: { price: 40, props: { seating: { section: 'Pista', row: '2', seat: '14' } } },
    },
  });
  partnerKey = apiKey;
  fanListing = listingId;
  // A channel's listing of 3 standing tickets sold one by one: 3 market listings, one offer.
  const pushed = await call(request, channelsApiKey, 'POST', '/v1/channels/listings/bulk', {
    listings: [
      { eventId: REF, showId: '1', ticketOptionId: 'GA', currency: 'EUR', listingId: 'SPLIT', price: 42, quantity: 3 },
    ],
  });
  expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
  marketUrl = await buyPageAddress(request, apiKey, REF, RETURN_TO);
});

const withLang = (url: string, lang: 'en' | 'es') => withParams(url, { lang });
const splitRow = (page: Page) => page.getByTestId('listing').filter({ has: page.getByTestId('split-picker') });

for (const [lang, text] of [
  [
    'en',
    {
      face: 'face value €40.00',
      filters: 'Filters',
      one: 'Filters · 1 active',
      left: '3 tickets left: buy as many as you need',
      count: 'Tickets (2)',
    },
  ],
  [
    'es',
    {
      face: 'valor nominal 40,00 €',
      filters: 'Filtros',
      one: 'Filtros · 1 activo',
      left: 'Quedan 3 entradas: compra las que necesites',
      count: 'Entradas (2)',
    },
  ],
] as const) {
  test(`on a phone the offers come first, with face value, a filter sheet and one row per split listing (${lang})`, async ({
    page,
  }) => {
    await page.goto(withLang(marketUrl, lang));
    const first = page.getByTestId('listing').first();
    const box = await first.boundingBox();
    expect(box, 'the first offer is laid out').not.toBeNull();
    // Its top within the first screen of a 390×844 phone, and its price and face value too.
    expect(box!.y).toBeLessThan(844);
    const price = await first.getByTestId('listing-face').boundingBox();
    expect(price!.y + price!.height).toBeLessThan(844);
    await expect(first.getByTestId('listing-face')).toHaveText(text.face);

    // The fan's listing and the channel's split listing of 3: two rows, the split one with a picker.
    await expect(page.getByTestId('listing')).toHaveCount(2);
    await expect(splitRow(page)).toHaveCount(1);
    await expect(splitRow(page).getByTestId('listing-quantity')).toHaveText(text.left);
    await expect(splitRow(page).getByTestId('listing-face')).toHaveText(text.face);
    await expect(splitRow(page).getByTestId('pick-quantity').locator('option')).toHaveText(['1', '2', '3']);

    // The filters wait in a closed sheet; opened from the keyboard they filter (a GET form).
    await expect(page.getByTestId('apply-filters')).toBeHidden();
    await expect(page.getByTestId('open-filters')).toHaveText(text.filters);
    await page.getByTestId('open-filters').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('apply-filters')).toBeVisible();
    await axe(page, `filter sheet open (${lang}, 390)`);
    await shot(page, `buy-page-filters-${lang}-390`);
    await page.locator('#f-qty').selectOption('2');
    await page.getByTestId('apply-filters').click();
    await expect(page).toHaveURL(/qty=2/);
    await expect(page.getByTestId('open-filters')).toHaveText(text.one);
    await expect(page.getByTestId('listing')).toHaveCount(1);
    // The split listing serves 2; the picker offers it at once.
    await expect(splitRow(page).getByTestId('pick-quantity')).toHaveValue(/^lst_\w+,lst_\w+$/);
    await axe(page, `filtered (${lang}, 390)`);

    // Buying 2 of it from the picker: checkout with two of its listings, 2 tickets.
    await page.goto(withLang(marketUrl, lang));
    const picked = splitRow(page).getByTestId('pick-quantity');
    await picked.selectOption({ label: '2' });
    await splitRow(page).getByTestId('buy').click();
    await expect(page).toHaveURL(/\/checkout\?.*listings=lst_\w+%2Clst_\w+/);
    await expect(page.getByTestId('checkout-breakdown')).toContainText(text.count);
    await expect(page.getByTestId('checkout-total')).toContainText(lang === 'en' ? '€84.00' : '84,00 €');
  });
}

test(
  'the buy page is axe-clean and without sideways scroll at 390 and 1366 px, in English and Spanish',
  PRESENTATION,
  async ({ page }) => {
    for (const lang of ['en', 'es'] as const) {
      for (const width of [390, 1366]) {
        await page.setViewportSize({ width, height: 844 });
        await page.goto(withLang(marketUrl, lang));
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await axe(page, `buy page (${lang}, ${width})`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        if (width === 1366) {
          // Wide: the offers and the side column (trust, about) side by side.
          const offers = await page.getByTestId('market-listings').boundingBox();
          const aside = await page.getByTestId('buy-trust').boundingBox();
          expect(aside!.x).toBeGreaterThan(offers!.x + offers!.width);
          expect(aside!.y).toBeLessThan(offers!.y + offers!.height);
        }
      }
    }
    await page.goto(withLang(marketUrl, 'en'));
    await shotsEnEs(page, 'buy-page');
  },
);

test('fans without a session share one cacheable page of an address, its scripts allowed by hash; a hold shows at once', async ({
  request,
}) => {
  // Node's fetch keeps no cookies: every request is an anonymous fan's first (server/http/shared-page-render.ts).
  const get = async (extra = '') => {
    const res = await fetch(`${baseURL}${marketUrl}${extra}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(
      'public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=60',
    );
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const policy = res.headers.get('content-security-policy') ?? '';
    // No nonce: Next.js's inline scripts are allowed by their hashes, its files by 'self'.
    expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]{44}')+;/);
    expect(policy).not.toContain('nonce-');
    const body = await res.text();
    return {
      policy,
      body,
      id: res.headers.get('x-request-id'),
      offers: body.split('data-testid="listing"').length - 1,
    };
  };
  const fans = await Promise.all([get(), get(), get('&utm_source=newsletter&fbclid=x')]);
  // One page for everyone asking for the address (a shared link's parameters included): the same bytes.
  expect(new Set(fans.map((f) => f.body)).size).toBe(1);
  expect(new Set(fans.map((f) => f.policy)).size).toBe(1);
  expect(new Set(fans.map((f) => f.id)).size).toBe(3);
  expect(fans.map((f) => f.offers)).toEqual([2, 2, 2]);
  expect(fans[0].body).toContain(fanListing);

  // A buyer holds the fan's listing: the very next page leaves it off (the hold forgets the shared pages).
  await buyIntention(request, partnerKey, [fanListing], `bpg-buyer-${RUN}@fans.test`);
  const after = await get();
  expect(after.offers).toBe(1);
  expect(after.body).not.toContain(fanListing);
});

test('an event image sent over http is asked over https, and one that fails shows a placeholder, not a broken icon', async ({
  page,
  request,
}) => {
  const { apiKey } = await createPartner(`Image Partner ${RUN}`);
  const ref = `BPG-IMG-${RUN}`;
  // Nothing listens on port 9 of this machine: the image fails, over http or https.
  const show = {
    ...eventShow('1', '2027-06-12T21:30:00+02:00', 'Night one', EUR_STANDING),
    images: [{ url: 'http://127.0.0.1:9/poster.jpg' }],
  };
  await pushEvent(request, apiKey, {
    ref,
    title: `Image Night ${RUN}`,
    description: '<p>Pictured.</p>',
    location: { city: 'Madrid', venueName: 'Sala Norte', timeZone: 'Europe/Madrid' },
    shows: [show],
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(withParams(await buyPageAddress(request, apiKey, ref, RETURN_TO), { lang: 'en' }));
  const image = page.getByTestId('event-head').locator('img');
  await expect(image).toHaveAttribute('src', 'https://127.0.0.1:9/poster.jpg');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 0)).toBe(true);
  // The failed image keeps its box, covered by the placeholder the page draws for it.
  expect(await image.evaluate((img) => getComputedStyle(img, '::after').backgroundImage)).toContain(
    'data:image/svg+xml',
  );
  const box = await image.boundingBox();
  expect([Math.round(box!.width), Math.round(box!.height)]).toEqual([96, 54]);
  await shot(page, 'buy-page-image-failed-390');
});
