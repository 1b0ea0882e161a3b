import { expect, test } from './fixtures';
import { axe, call, createPartner, hydrated, listTicket, pushUsdEvent, RUN, setUp, shot, eventShow } from './helpers';

/*
 * A shared listing leads somewhere: an anonymous fan in Spanish on a phone opens
 * the link a seller shares and sees the event, the date at the venue, the seats and the price with fees,
 * and Buy takes them to the checkout of that listing; the partner's public sale URL is the ticket's own
 * listing while listed and the event's market with a note when not. The selling flow takes the partner's
 * returnTo and shows the way back on every step: sell page, done page, the listing's page.
 */

const SELLER = `share-seller-${RUN}@fans.test`;
const RETURN_TO = 'https://tickets.example/my-tickets';

async function sharedMarket(request: Parameters<typeof pushUsdEvent>[0], name: string, ref: string) {
  const partner = await createPartner(name);
  // A buyer's fee of 10% + 1.00 per ticket: the shared page shows the price the buyer pays.
  await setUp('market-terms', { partnerId: partner.partnerId, buyerFeePercent: 10, buyerFeeFixed: 1 });
  await pushUsdEvent(
    request,
    partner.apiKey,
    ref,
    `Gran Concierto ${RUN}`,
    [eventShow('1', '2027-09-10T21:00:00-03:00')],
    {
      venueName: 'Estadio Luna',
      address: 'Av. Corrientes 1000',
      timeZone: 'America/Argentina/Buenos_Aires',
    },
  );
  const tickets = ['A', 'B', 'C'].map((s, i) => ({
    externalReferenceEventId: ref,
    showId: '1',
    ticketId: `${s}-${ref}`,
    buyer: { email: SELLER },
    ticketAccess: { type: 'OTHER', locator: `CODE-${s}` },
    ticketOptionId: 'GA',
    price: 50,
    props: { seating: { section: 'B', row: '4', seat: String(12 + i) } },
  }));
  const synced = await call(request, partner.apiKey, 'POST', '/v1/sync/tickets', tickets);
  expect(synced.status, JSON.stringify(synced.body)).toBe(200);
  return partner;
}

test('an anonymous fan in Spanish on a phone opens a shared listing and buys it @database-flow', async ({
  browser,
  request,
}) => {
  const ref = `SHARE-${RUN}`;
  const name = `Share Partner ${RUN}`;
  const { partnerId, apiKey } = await sharedMarket(request, name, ref);
  const saleUrl = async (ticketId: string) =>
    (await call(request, apiKey, 'GET', `/v1/events/tickets/salePublicUrl?ticketId=${ticketId}&lang=es`)).body
      .data as string;
  // The partner asked for the public sale URL of C before it was listed: the market, naming the ticket.
  const earlyC = new URL(await saleUrl(`C-${ref}`));
  expect(earlyC.pathname).toMatch(/^\/market\/evt_/);
  const { listingId } = await listTicket({ partnerId, sellerEmail: SELLER, ticketId: `A-${ref}`, price: '50' });
  await listTicket({ partnerId, sellerEmail: SELLER, ticketId: `C-${ref}`, price: '55' });

  // Listed: the public sale URL is the ticket's own listing page.
  const sale = new URL(await saleUrl(`A-${ref}`));
  expect(sale.pathname).toBe(`/listing/${listingId}`);

  const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 390, height: 844 } });
  const fan = await context.newPage();
  // The link the seller shares carries no language: the fan's browser says Spanish.
  await fan.goto(`/listing/${listingId}`);
  await expect(fan.locator('html')).toHaveAttribute('lang', 'es');
  await expect(fan.getByTestId('partner-brand')).toContainText(name);
  await expect(fan.getByTestId('event-title')).toHaveText(`Gran Concierto ${RUN}`);
  await expect(fan.getByTestId('show-date')).toHaveText('vie, 10 sept 2027, 21:00');
  await expect(fan.getByTestId('show-venue')).toHaveText('Estadio Luna · Av. Corrientes 1000');
  await expect(fan.getByTestId('listing-seat')).toHaveText('Sector B · Fila 4 · Asiento 12');
  await expect(fan.getByTestId('listing-price')).toContainText('56,00 US$');
  await expect(fan.getByTestId('listing-price')).toContainText('cargos incluidos');
  await expect(fan.getByTestId('listing-fees')).toContainText('50,00 US$ + 6,00 US$ de cargos por entrada');
  await expect(fan).toHaveTitle(/Entradas en venta/);
  const overflow = await fan.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await axe(fan, 'shared listing (es, 390)');
  await fan.setViewportSize({ width: 1366, height: 900 });
  await axe(fan, 'shared listing (es, 1366)');
  await fan.setViewportSize({ width: 390, height: 844 });

  await fan.getByTestId('buy').click();
  await expect(fan).toHaveURL(new RegExp(`/checkout\\?listings=${listingId}$`));
  await expect(fan.getByTestId('checkout-total')).toHaveText('56,00 US$');

  // A market URL handed out before C was listed now leads to C's listing.
  await fan.goto(`${earlyC.pathname}${earlyC.search}`);
  await expect(fan).toHaveURL(/\/listing\/lst_/);
  await expect(fan.getByTestId('listing-seat')).toHaveText('Sector B · Fila 4 · Asiento 14');

  // Not listed: the event's market, saying this ticket is not on sale, with the show's other offers.
  const notListed = new URL(await saleUrl(`B-${ref}`));
  expect(notListed.pathname).toMatch(/^\/market\/evt_/);
  await fan.goto(`${notListed.pathname}${notListed.search}`);
  await expect(fan.getByTestId('ticket-not-on-sale')).toHaveText(
    'Esta entrada no está en venta. Abajo tienes otras entradas de esta función.',
  );
  await expect(fan.getByTestId('listing')).toHaveCount(2);
  await axe(fan, 'market naming a ticket not on sale');
  await shot(fan, 'shared-not-on-sale-es-390');

  // Taken off sale by the partner: the shared link says so and leads to the event's market.
  const removed = await call(request, apiKey, 'DELETE', `/v1/marketplace/items/ticket/A-${ref}`);
  expect(removed.status, JSON.stringify(removed.body)).toBe(200);
  await fan.goto(`/listing/${listingId}`);
  await expect(fan.getByTestId('buy')).toHaveCount(0);
  await expect(fan.getByTestId('listing-unavailable')).toContainText('El vendedor retiró estas entradas de la venta.');
  await axe(fan, 'shared listing off sale');
  await shot(fan, 'shared-listing-off-sale-es-390');
  await fan.getByTestId('to-market').click();
  await expect(fan).toHaveURL(/\/market\/evt_[^?]+\?show=shw_/);
  await context.close();

  // The screenshots people look at: the shared listing in both languages at both widths (each once the
  // streamed page has replaced its loading state).
  const page = await browser.newPage();
  const relisted = await listTicket({ partnerId, sellerEmail: SELLER, ticketId: `A-${ref}`, price: '50' });
  for (const lang of ['en', 'es'] as const) {
    await page.goto(`/listing/${relisted.listingId}?lang=${lang}`);
    await expect(page.getByTestId('buy')).toBeVisible();
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: 844 });
      await shot(page, `shared-listing-${lang}-${width}`);
    }
  }
  await page.close();
});

test("the selling flow carries the partner's returnTo as a back link on every step", async ({ page, request }) => {
  const ref = `SHRT-${RUN}`;
  const name = `Return Seller ${RUN}`;
  const { apiKey, partnerId } = await sharedMarket(request, name, ref);
  // No return origins: the back link is kept because it is on the partner's own site (its support page's).
  await setUp('partner-site', { partnerId, supportUrl: 'https://tickets.example/help' });
  const entry = await call(
    request,
    apiKey,
    'GET',
    `/v1/marketplace/sellingflow/url/entrypoint?ticketId=A-${ref}&lang=en&returnTo=${encodeURIComponent(RETURN_TO)}`,
  );
  expect(entry.status, JSON.stringify(entry.body)).toBe(200);
  const sellUrl = new URL(entry.body.data as string);
  expect(sellUrl.searchParams.get('returnTo')).toBe(RETURN_TO);
  const token = (await call(request, apiKey, 'GET', `/v1/auth/oneTimeToken?user=${encodeURIComponent(SELLER)}`)).body
    .data as string;
  await page.goto(`${sellUrl.pathname}${sellUrl.search}&token=${token}`);
  const back = page.getByTestId('return-to');
  await expect(back).toHaveText(`← Back to ${name}`);
  await expect(back).toHaveAttribute('href', RETURN_TO);

  await hydrated(page, '[data-testid="price-input"]');
  await page.getByTestId('price-input').fill('50');
  await page.getByRole('button', { name: 'List my ticket' }).click();
  await expect(page.getByTestId('sell-done')).toBeVisible();
  await expect(back).toHaveAttribute('href', RETURN_TO);
  // The share link is the listing's own page, not the whole market.
  await expect(page.getByTestId('share-url')).toHaveValue(/\/listing\/lst_[A-Za-z0-9]+$/);
  await axe(page, 'done page with returnTo');

  await page.getByTestId('to-listing').click();
  await expect(page.getByTestId('listing-seller')).toBeVisible();
  await expect(back).toHaveText(`← Back to ${name}`);
  await expect(back).toHaveAttribute('href', RETURN_TO);
  await axe(page, 'listing page with returnTo');

  // Managing the listing keeps it too: a new price, taking it off sale (its own confirmation page), relisting.
  await hydrated(page, '[data-testid="reprice-form"] [data-testid="price-input"]');
  await page.getByTestId('reprice-form').getByTestId('price-input').fill('52');
  await page.getByTestId('reprice-form').getByRole('button', { name: 'Save new price' }).click();
  await expect(page.getByTestId('listing-done')).toBeVisible();
  await expect(back).toHaveAttribute('href', RETURN_TO);
  await page.getByTestId('unlist-link').click();
  await expect(page.getByTestId('unlist-confirm')).toBeVisible();
  await expect(back).toHaveAttribute('href', RETURN_TO);
  await hydrated(page, '[data-testid="unlist-form"]');
  await page.getByTestId('unlist-form').getByRole('button').click();
  await expect(page.getByTestId('relist-form')).toBeVisible();
  await expect(back).toHaveAttribute('href', RETURN_TO);
  await hydrated(page, '[data-testid="relist-form"]');
  await page.getByTestId('relist-form').getByRole('button').click();
  await expect(page.getByTestId('reprice-form')).toBeVisible();
  await expect(back).toHaveAttribute('href', RETURN_TO);
});
