import { createHash } from 'node:crypto';
import { expect, test } from './fixtures';
import {
  axe,
  buyPageAddress,
  call,
  createPartner,
  listTicket,
  pushEurEvent,
  RUN,
  shot,
  shotsEnEs,
  signIn,
  syncedTicket,
  syncTickets,
  withParams,
} from './helpers';

/*
 * The seat map on the buy page: drawn from the event's `seating.svgCode` above the offers, the
 * sections with tickets on sale highlighted with their count and from-price, each focusable and named; a
 * click, Enter or Space filters the offers to the section (`?section=`), "All sections" resets, and the
 * section links work before JavaScript. English and Spanish, 390 and 1366 px, axe-clean; the fixtures' CSP
 * guard watches every page (partner markup must never run).
 */

const REF = `MAP-${RUN}`;
const SELLER = `map-seller-${RUN}@fans.test`;
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 220">' +
  '<g data-section="A" data-label="Grada A"><rect x="10" y="10" width="180" height="90" fill="#e4ecf7"/>' +
  '<circle data-seat="1-1" cx="40" cy="55" r="8" fill="#c9d3e0"/><circle data-seat="1-2" cx="70" cy="55" r="8" fill="#c9d3e0"/></g>' +
  '<rect id="B" x="210" y="10" width="180" height="90" fill="#f3e7da"/>' +
  '<rect data-section="C" data-label="Palco C" x="10" y="120" width="380" height="90" fill="#e9f3e4"/>' +
  '<script>alert(1)</script><rect x="0" y="0" width="1" height="1" onclick="alert(2)"/></svg>';

let address = '';
let partnerKey = '';
let partner = '';
const listings: Record<string, string> = {};

test.beforeAll(async ({ request }) => {
  const { partnerId, apiKey } = await createPartner(`Map Partner ${RUN}`);
  partnerKey = apiKey;
  partner = partnerId;
  await pushEurEvent(request, apiKey, {
    ref: REF,
    title: `Seat map night ${RUN}`,
    description: '<p>A night with a seat map.</p>',
    svg: SVG,
  });
  const seat = (section: string, row: string, s: string) => ({ props: { seating: { section, row, seat: s } } });
  await syncTickets(request, apiKey, [
    syncedTicket(REF, `MAP-A1-${RUN}`, SELLER, { price: 40, ...seat('A', '1', '1') }),
    syncedTicket(REF, `MAP-A2-${RUN}`, SELLER, { price: 40, ...seat('a ', '1', '2') }),
    syncedTicket(REF, `MAP-B1-${RUN}`, SELLER, { price: 40, ...seat('B', '2', '1') }),
    // A section the map does not draw (staff are warned of it).
    syncedTicket(REF, `MAP-P1-${RUN}`, SELLER, { price: 40, ...seat('Pista', '9', '1') }),
  ]);
  for (const [key, price] of [
    ['A1', '45'],
    ['B1', '30'],
  ] as const) {
    ({ listingId: listings[key] } = await listTicket({
      partnerId,
      sellerEmail: SELLER,
      ticketId: `MAP-${key}-${RUN}`,
      price,
    }));
  }
  address = await buyPageAddress(request, apiKey, REF, 'https://tickets.partner.example/map');
});

const offers = (page: import('@playwright/test').Page) => page.getByTestId('market-listings').getByTestId('listing');
/** The drawing: a document of its own in a frame on the page (app/(market)/market/[eventId]/map/route.ts). */
const drawing = (page: import('@playwright/test').Page) => page.getByTestId('seat-map-frame').contentFrame();

for (const width of [390, 1366]) {
  test(`the seat map filters the offers by section, by keyboard and by pointer, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(address);
    await expect(page.getByTestId('seat-map')).toBeVisible();
    await expect(page.getByTestId('seat-map-frame')).toHaveAttribute('title', 'Seat map');
    const map = drawing(page);
    // Sections with tickets on sale: highlighted, drawn inside links named with their count and from-price,
    // opening in the page around the frame.
    const a = map.getByRole('link', { name: /^Grada A,/ });
    const b = map.getByRole('link', { name: /^B,/ });
    const c = map.locator('[data-map-section="c"]');
    await expect(a).toHaveAttribute('aria-label', /^Grada A, 1 ticket from €\d+\.\d\d$/);
    await expect(a).toHaveAttribute('href', /^\/market\/[^/?]+\?.*section=A(&|$)/);
    await expect(a).toHaveAttribute('target', '_parent');
    await expect(b).toHaveAttribute('aria-label', /^B, 1 ticket from €\d+\.\d\d$/);
    await expect(c).toHaveAttribute('aria-label', 'Palco C, no tickets on sale');
    await expect(c).toHaveAttribute('role', 'img');
    await expect(c).not.toHaveAttribute('href', /.*/);
    // The listed seat is marked; the other seat of the section is not on sale.
    await expect(map.locator('[data-seat="1-1"]')).toHaveClass(/buy-map-seat/);
    await expect(map.locator('[data-seat="1-2"]')).not.toHaveClass(/buy-map-seat/);
    // The partner's script and handler are gone.
    expect(await map.locator('svg').innerHTML()).not.toMatch(/<script|onclick/);
    await expect(offers(page)).toHaveCount(2);
    await axe(page, `buy page with a seat map at ${width} px`);
    await shotsEnEs(page, `seat-map-${width}`);

    // Enter on a focused section filters to it; the page has its own address.
    await a.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/[?&]section=A(&|$)/);
    await expect(offers(page)).toHaveCount(1);
    await expect(offers(page).first()).toHaveAttribute('data-listing-id', listings.A1);
    // The offer names its section as the map does ("Grada A"), not by the id tickets carry ("Section A").
    await expect(offers(page).first().getByTestId('listing-seat')).toHaveText('Grada A · Row 1 · Seat 1');
    await expect(drawing(page).getByRole('link', { name: /^Grada A/ })).toHaveAttribute('aria-current', 'true');
    // Space on another.
    await drawing(page).getByRole('link', { name: /^B,/ }).focus();
    await page.keyboard.press(' ');
    await expect(page).toHaveURL(/[?&]section=B(&|$)/);
    await expect(offers(page)).toHaveCount(1);
    await expect(offers(page).first()).toHaveAttribute('data-listing-id', listings.B1);
    // A click on a section, then "All sections" resets.
    await drawing(page)
      .getByRole('link', { name: /^Grada A,/ })
      .click();
    await expect(page).toHaveURL(/[?&]section=A(&|$)/);
    await page.getByTestId('seat-map-sections').getByRole('link', { name: 'All sections' }).click();
    await expect(page).not.toHaveURL(/section=/);
    await expect(offers(page)).toHaveCount(2);
  });
}

test('in Spanish, and before JavaScript: the section links filter the server-rendered page', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(withParams(address, { lang: 'es' }));
  const sections = page.getByTestId('seat-map-sections');
  await expect(sections.getByRole('link', { name: 'Todos los sectores' })).toHaveAttribute('aria-current', 'true');
  // The drawn section is a link in the map itself (no script runs here); the list below holds only the sections
  // on sale the map lacks (none here: Pista has nothing on sale).
  const map = drawing(page);
  await expect(map.getByRole('link', { name: /^Grada A, 1 entrada desde \d+,\d\d €$/ })).toBeVisible();
  await expect(map.locator('html')).toHaveAttribute('lang', 'es');
  await expect(sections.getByRole('link')).toHaveCount(1);
  await map.getByRole('link', { name: /^Grada A/ }).click();
  await expect(page).toHaveURL(/[?&]section=A(&|$)/);
  await expect(page.getByTestId('market-listings').getByTestId('listing')).toHaveCount(1);
  await expect(drawing(page).getByRole('link', { name: /^Grada A,/ })).toHaveAttribute('aria-current', 'true');
  await context.close();
});

test('the map’s own document: framed by its page only, plain HTML with the page’s policy, 404 when there is none', async ({
  request,
}) => {
  const path = new URL(address, 'http://encore.test').pathname;
  const res = await request.get(`${path}/map?lang=es&section=A`);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('text/html');
  // Framed by the buy page (this partner allows no other origin to frame it), never by another site.
  expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'self'");
  expect(res.headers()['x-frame-options']).toBe('SAMEORIGIN');
  const html = await res.text();
  expect(html).toMatch(/^<!doctype html><html lang="es">/);
  expect(html).toContain('aria-current="true"');
  expect(html).not.toMatch(/alert\(/);
  // Its one script and its style are allowed by their hashes (the same bytes for every fan), nothing else.
  const script = /<script>([^<]+)<\/script>/.exec(html)![1];
  expect(res.headers()['content-security-policy']).toContain(
    `script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`,
  );
  for (const missing of ['/market/evt_unknown/map', '/market/evt_unknown/map?lang=xx&section=%E2%82%AC']) {
    const none = await request.get(missing);
    expect(none.status(), missing).toBe(404);
  }
});

test('staff see the map as fans do, each section’s offers, and what does not match', async ({ page }) => {
  const eventPk = new URL(address, 'http://encore.test').pathname.split('/')[2];
  await page.goto(`/dashboard/partners/${partner}/events/${eventPk}`);
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await signIn(page);
  await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${partner}/events/${eventPk}$`));
  const preview = page.getByTestId('seat-map-preview');
  await expect(preview.getByRole('heading', { name: 'Seat map' })).toBeVisible();
  await expect(preview.locator('[data-map-section="a"]')).toHaveAttribute('aria-label', 'Grada A: 1 on sale');
  await expect(preview.locator('[data-map-section="c"]')).toHaveAttribute('aria-label', 'Palco C: 0 on sale');
  const rows = preview.getByTestId('seat-map-sections').getByRole('row');
  // Each section by its label, with the id tickets name it by beneath when that differs.
  await expect(rows).toHaveText([/^Grada AAYes1\D*45\.00/, /^BYes1\D*30\.00/, /^Palco CCYes0—$/, /^PistaNo0—$/]);
  await expect(
    preview.getByRole('status').filter({ hasText: 'Tickets name sections the map does not draw' }),
  ).toContainText('Pista');
  await expect(preview.getByRole('status').filter({ hasText: 'The map draws sections no ticket names' })).toContainText(
    'C',
  );
  expect(await preview.innerHTML()).not.toMatch(/<script|onclick/);
  await axe(page, 'the event page with its seat map');
  await shot(page, 'seat-map-dashboard');
  // On a phone the sections table fits its box (nothing to scroll sideways for); the page's wider tables scroll
  // in keyboard-reachable regions, and the page stays axe-clean.
  await page.setViewportSize({ width: 390, height: 844 });
  const box = preview.getByRole('region', { name: 'Sections of the seat map' });
  expect(
    await box.evaluate((el) => el.scrollWidth - el.clientWidth),
    'sections table overflow at 390 px',
  ).toBeLessThanOrEqual(1);
  await axe(page, 'the event page with its seat map at 390 px');
  await shot(page, 'seat-map-dashboard-390');
});

test('an offer held by a buyer paying is shown as held, with the time left, and cannot be bought', async ({
  page,
  request,
  browser,
}) => {
  const held = await call(request, partnerKey, 'POST', '/v1/marketplace/buyingflow/buyIntention', {
    items: [listings.B1],
    user: `map-buyer-${RUN}@fans.test`,
  });
  expect(held.status, JSON.stringify(held.body)).toBe(200);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(address);
  const box = page.getByTestId('held-offers');
  await expect(box.getByRole('heading', { name: '1 offer on hold' })).toBeVisible();
  await expect(box).toContainText('Someone is paying for this one right now.');
  await expect(box.getByTestId('held-offer')).toHaveCount(1);
  await expect(box.getByTestId('held-offer')).toContainText('Section B');
  // Counted down once the page runs; never a way to buy it, nor its id on the page.
  await expect(box.getByRole('timer')).toHaveText(/^back on sale in (1[0-5]|0\d):\d\d if not bought$/);
  await expect(box.getByRole('button')).toHaveCount(0);
  expect(await page.content()).not.toContain(listings.B1);
  await expect(offers(page)).toHaveCount(1);
  // The map no longer offers section B.
  await expect(drawing(page).locator('[data-map-section="b"]')).toHaveAttribute('aria-label', 'B, no tickets on sale');
  await axe(page, 'buy page with an offer on hold');
  await shotsEnEs(page, 'held-offers-390');
  // The held offer follows the section filter: not under section A, still under B.
  await page.goto(withParams(address, { section: 'A' }));
  await expect(offers(page)).toHaveCount(1);
  await expect(page.getByTestId('held-offers')).toHaveCount(0);
  await page.goto(withParams(address, { section: 'B' }));
  await expect(page.getByTestId('held-offers').getByTestId('held-offer')).toHaveCount(1);

  // Without JavaScript, in Spanish: the hold's end at the venue's clock.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const plain = await context.newPage();
  await plain.goto(withParams(address, { lang: 'es' }));
  await expect(plain.getByTestId('held-offers')).toContainText('1 oferta reservada');
  await expect(plain.getByTestId('held-offer')).toContainText(/reservada hasta las \d{1,2}:\d\d \(hora del recinto\)/);
  await context.close();
});
