import { type APIRequestContext, expect, type Page, test } from './fixtures';
import { axe, call, createPartner, listTicket, pageShot, RUN, setUp, payWithTestCard, PRESENTATION } from './helpers';

/*
 * The buying flow in a real browser: the partner's entry URL, the market with every fee shown, filters and
 * sort, checkout with an e-mail, the sandbox payment, the success page and the bought ticket's secure
 * view; the wishlist of an empty show; Spanish; the branded not-found. Partner, catalogue and tickets come
 * from the CLI and the partner API, listings from a fixture script (fans list in the selling flow).
 */

const REF = `BUY-${RUN}`;
const SELLER = `seller-${RUN}@fans.test`;
const BUYER = `buyer-${RUN}@fans.test`;
const PARTNER = `Boletería ${RUN}`;
const RETURN_TO = 'https://partner.example/events/buy';

const option = (ticketId: string, title: string, price: number) => ({
  title,
  ticketId,
  description: title,
  currency: 'USD',
  price,
});

let apiKey: string;
const listings: Record<string, string> = {};

test.beforeAll(async ({ request }) => {
  const created = await createPartner(PARTNER);
  apiKey = created.apiKey;
  await setUp('market-terms', { partnerId: created.partnerId, buyerFeePercent: 10 });
  // Its own site (its support page's): the back link to RETURN_TO is shown (no return origins set).
  await setUp('partner-site', { partnerId: created.partnerId, supportUrl: 'https://partner.example/help' });
  const pushed = await call(request, apiKey, 'POST', '/v1/events', {
    title: `Noche de rock ${RUN}`,
    description:
      '<p>A <strong>great</strong> night. <a href="https://band.example">The band</a></p><script>window.hacked=1</script><img src=x onerror="window.hacked=2">',
    externalReferenceId: REF,
    location: { city: 'Lima', venueName: 'Estadio Nacional', timeZone: 'America/Lima' },
    configuration: {},
    shows: [
      {
        title: 'First night',
        showId: '1',
        date: '2027-09-10T21:00:00-05:00',
        images: [],
        configuration: {},
        ticketOptions: [option('GA', 'General admission', 50), option('VIP', 'VIP lounge', 120)],
      },
      {
        title: 'Second night',
        showId: '2',
        date: '2027-09-11T21:00:00-05:00',
        images: [],
        configuration: {},
        ticketOptions: [option('GA', 'General admission', 50)],
      },
    ],
  });
  expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
  const tickets = [
    ['GA', 'A', 'cheap'],
    ['GA', 'B', 'mid'],
    ['VIP', 'A', 'vip'],
  ].map(([ticketOptionId, section, name]) => ({
    externalReferenceEventId: REF,
    showId: '1',
    ticketId: `${name}-${RUN}`,
    buyer: { email: SELLER },
    ticketAccess: { type: 'OTHER', locator: `CODE-${name}` },
    ticketOptionId,
    props: { seating: { section, row: '4', seat: name === 'mid' ? '12' : '7' } },
  }));
  const synced = await call(request, apiKey, 'POST', '/v1/sync/tickets', tickets);
  expect(synced.body?.data?.imported, JSON.stringify(synced.body)).toBe(3);
  for (const [name, price] of [
    ['cheap', '60'],
    ['mid', '80'],
    ['vip', '150'],
  ]) {
    listings[name] = (
      await listTicket({ partnerId: created.partnerId, sellerEmail: SELLER, ticketId: `${name}-${RUN}`, price })
    ).listingId;
  }
});

/** The partner's buying-flow entry URL, as a path on the server under test. */
async function entry(request: APIRequestContext, query: Record<string, string>) {
  const q = new URLSearchParams({ externalReferenceEventId: REF, returnTo: RETURN_TO, ...query });
  const res = await call(request, apiKey, 'GET', `/v1/marketplace/buyingflow/url/entrypoint?${q}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const url = new URL(res.body.data);
  return `${url.pathname}${url.search}`;
}

async function screenshots(page: Page, name: string) {
  for (const [label, size] of [
    ['mobile', { width: 390, height: 844 }],
    ['desktop', { width: 1366, height: 900 }],
  ] as const) {
    await page.setViewportSize(size);
    await pageShot(page, `${name}-${label}.png`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

const prices = (page: Page) => page.getByTestId('listing-price');

test.use({ viewport: { width: 390, height: 844 } });

test('a fan finds tickets with every fee shown, filters and sorts, pays and opens the ticket @database-flow', async ({
  page,
  request,
  browser,
}) => {
  await page.goto(await entry(request, { showId: '1', lang: 'en' }));
  await expect(page.getByTestId('event-title')).toHaveText(`Noche de rock ${RUN}`);
  await expect(page.getByTestId('partner-brand')).toContainText(PARTNER);
  await expect(page.getByTestId('return-to')).toHaveAttribute('href', RETURN_TO);
  // The venue's time zone: 21:00 in Lima.
  await expect(page.getByTestId('show-date')).toHaveText('Fri, Sep 10, 2027, 9:00 PM');
  await expect(page.getByTestId('show-venue')).toContainText('Estadio Nacional');
  // The description keeps its formatting and link, never its script.
  await expect(page.locator('.mk-description strong')).toHaveText('great');
  await expect(page.locator('.mk-description a')).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  expect(await page.locator('.mk-description script, .mk-description img').count()).toBe(0);

  // Price per ticket with the 10 % fee, cheapest first; the fee is spelled out.
  await expect(prices(page)).toHaveText([/\$66\.00/, /\$88\.00/, /\$165\.00/]);
  await expect(page.getByTestId('listing-fees').first()).toHaveText('$60.00 + $6.00 fees per ticket');
  await expect(page.getByTestId('listing-seat').first()).toHaveText('Section A · Row 4 · Seat 7');
  await axe(page);
  await screenshots(page, 'buy-market');

  // The filters are in a sheet the fan opens on demand.
  await page.getByTestId('open-filters').click();
  await page.getByLabel('Sort by').selectOption('price_desc');
  await page.getByTestId('apply-filters').click();
  await expect(page).toHaveURL(/sort=price_desc/);
  await expect(prices(page).first()).toContainText('$165.00');
  await page.getByTestId('open-filters').click();
  await page.getByLabel('Ticket type').selectOption('GA');
  await page.getByLabel('Section').selectOption('B');
  await page.getByTestId('apply-filters').click();
  await expect(page).toHaveURL(/zone=B/);
  await expect(prices(page)).toHaveText([/\$88\.00/]);
  await expect(page.getByTestId('return-to')).toHaveAttribute('href', RETURN_TO);

  // The partner's ticketOptionId pre-filters.
  await page.goto(await entry(request, { showId: '1', lang: 'en', ticketOptionId: 'VIP' }));
  await expect(prices(page)).toHaveText([/\$165\.00/]);

  // Buy the cheapest: checkout with every fee and the total, then Pay.
  await page.goto(await entry(request, { showId: '1', lang: 'en' }));
  await page.getByTestId('buy').first().click();
  await expect(page).toHaveURL(new RegExp(`/checkout\\?listings=${listings.cheap}`));
  await expect(page.getByTestId('return-to')).toHaveAttribute('href', RETURN_TO);
  await expect(page.getByTestId('checkout-breakdown')).toContainText('$60.00');
  await expect(page.getByTestId('checkout-breakdown')).toContainText('$6.00');
  await expect(page.getByTestId('checkout-total')).toHaveText('$66.00');
  await page.getByLabel('E-mail for your tickets').fill('not-an-email');
  await page.getByTestId('pay').click();
  await expect(page.getByText('Enter a valid e-mail address.')).toBeVisible();
  await axe(page);
  await screenshots(page, 'buy-checkout');
  await page.getByLabel('E-mail for your tickets').fill(BUYER);
  await page.getByTestId('pay').click();

  // The sandbox payment page, the success card.
  await page.waitForURL(/\/pay\/pay_/);
  await expect(page.getByTestId('amount')).toHaveText('$66.00');
  await payWithTestCard(page);

  await page.waitForURL(/\/checkout\/bi_/);
  await expect(page.getByTestId('purchase-success')).toContainText(BUYER);
  await expect(page.getByTestId('order-total')).toHaveText('$66.00');

  // Anyone else holding the order's address (another browser) sees its status and what was bought, but
  // neither the buyer's e-mail nor the tickets; the payment page likewise masks the e-mail.
  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto(page.url());
  await expect(stranger.getByTestId('order-total')).toHaveText('$66.00');
  await expect(stranger.getByTestId('purchase-success')).toContainText('b•••@f•••.test');
  await expect(stranger.getByTestId('purchase-success')).not.toContainText(BUYER);
  await expect(stranger.getByTestId('ticket-link')).toHaveCount(0);
  await expect(stranger.getByTestId('tickets-by-mail')).toContainText('sent by e-mail to the buyer');
  expect(await stranger.content()).not.toContain(BUYER);
  await stranger.context().close();
  await expect(page.getByTestId('return-to')).toHaveAttribute('href', RETURN_TO);
  await axe(page);
  await screenshots(page, 'buy-success');

  await page.getByTestId('ticket-link').click();
  await expect(page).toHaveURL(/\/t\/[0-9a-f]{64}$/);
  await expect(page.getByTestId('ticket-status')).toHaveText('Valid');
  await expect(page.getByTestId('ticket-seat')).toHaveText('Section A · Row 4 · Seat 7');
  await expect(page.getByTestId('ticket-date')).toHaveText('Fri, Sep 10, 2027, 9:00 PM');
  await expect(page.getByTestId('partner-brand')).toContainText(PARTNER);
  await screenshots(page, 'buy-ticket');

  // Sold: off the market, and its checkout says so.
  await page.goto(await entry(request, { showId: '1', lang: 'en' }));
  await expect(prices(page)).toHaveCount(2);
  await page.goto(`/checkout?listings=${listings.cheap}`);
  await expect(page.getByTestId('checkout-unavailable')).toBeVisible();
});

test('a declined card leaves the hold running: the purchase page counts down and leads back to paying', async ({
  page,
  request,
  browser,
}) => {
  await page.goto(await entry(request, { showId: '1', lang: 'en', ticketOptionId: 'VIP' }));
  await page.getByTestId('buy').click();
  await page.getByLabel('E-mail for your tickets').fill(BUYER);
  await page.getByTestId('pay').click();
  await page.waitForURL(/\/pay\/pay_/);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(BUYER);
  // Another browser with the payment's address: the e-mail masked.
  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto(page.url());
  await expect(stranger.getByLabel('Email', { exact: true })).toHaveValue('b•••@f•••.test');
  await stranger.context().close();
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByLabel('Expiry date').fill('12 / 34');
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Ada Fan');
  await page.getByLabel('Name on card').press('Enter');
  await expect(page.locator('.co-alert')).toContainText('Card declined');
  await page.getByRole('link', { name: 'Cancel and go back' }).click();

  await page.waitForURL(/\/checkout\/bi_/);
  await expect(page.getByTestId('hold-timer')).toContainText(/(09|10):\d\d/);
  await expect(page.getByTestId('return-to')).toHaveAttribute('href', RETURN_TO);
  await expect(page.getByTestId('continue-payment')).toHaveAttribute('href', /\/pay\/pay_/);
  await axe(page);
  await screenshots(page, 'buy-pending');

  // Held: another fan's checkout of it says it is gone and leads back to the market.
  await page.context().clearCookies();
  await page.goto(`/checkout?listings=${listings.vip}`);
  await expect(page.getByTestId('checkout-unavailable')).toContainText('no longer available');
});

test('an empty show offers the wishlist and saves it', async ({ page, request }) => {
  await page.goto(await entry(request, { showId: '2', lang: 'en' }));
  await expect(page.getByTestId('market-empty')).toBeVisible();
  await page.getByLabel('E-mail').fill(`wish-${RUN}@fans.test`);
  await page.getByRole('button', { name: 'Notify me' }).click();
  await expect(page.getByTestId('wishlist-saved')).toContainText(`wish-${RUN}@fans.test`);
  await axe(page);
  await screenshots(page, 'buy-wishlist');
});

test('a fan signed in by the partner buys as themself: no e-mail to type, the wishlist prefilled', async ({
  page,
  request,
}) => {
  const fan = `trusted-${RUN}@fans.test`;
  await page.goto(
    await entry(request, { showId: '2', lang: 'en', 'loginTrust[withMethod]': 'email', 'loginTrust[user]': fan }),
  );
  await expect(page.getByTestId('fan-email')).toContainText(fan);
  await expect(page.getByLabel('E-mail')).toHaveValue(fan);
  await page.goto(`/checkout?listings=${listings.mid}&returnTo=${encodeURIComponent(RETURN_TO)}`);
  await expect(page.getByTestId('buyer-fan')).toContainText(fan);
  await expect(page.getByLabel('E-mail for your tickets')).toHaveCount(0);
  await expect(page.getByTestId('return-to')).toHaveAttribute('href', RETURN_TO);
});

test('Spanish prices and dates', PRESENTATION, async ({ page, request }) => {
  await page.goto(await entry(request, { showId: '1', lang: 'es' }));
  await expect(page.getByRole('heading', { name: 'Entradas a la venta' })).toBeVisible();
  await expect(page.getByTestId('show-date')).toHaveText(/vie, 10 sept 2027, 21:00/);
  // Whatever is still on sale (the other test may have bought the cheapest): Spanish money.
  await expect(prices(page).first()).toHaveText(/^\d+,00\sUS\$/);
  await expect(page.getByTestId('listing-fees').first()).toHaveText(
    /^\d+,00\sUS\$ \+ \d+,00\sUS\$ de cargos por entrada$/,
  );
  await expect(page.getByTestId('return-to')).toHaveText(/Volver a/);
  await screenshots(page, 'buy-market-es');
});

test('an unknown event shows the branded not-found page', async ({ page }) => {
  const res = await page.goto('/market/evt_doesnotexist');
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId('not-found')).toBeVisible();
});
