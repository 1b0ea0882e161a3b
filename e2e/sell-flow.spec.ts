import { expect, type Page, test } from './fixtures';
import {
  axe,
  baseURL,
  call,
  createPartner,
  listTicket,
  pageShot,
  RUN,
  shotsEnEs,
  svgIconsOnly,
  VerificationServer,
  capResalePrices,
  eventShow,
  pointVerification,
  pushEvent,
  syncedTicket,
  syncTickets,
  withParams,
} from './helpers';

/*
 * The selling pages as a fan uses them: the partner hands the seller a selling-flow URL with a one-time
 * token; the seller sees the payout, is refused a price above the cap with the allowed range, lists
 * within it and gets a share link; on another listing changes the price and takes it off sale behind a
 * confirmation, then gives its ticket to a friend (P2P, confirmed); sells two tickets of an order at
 * once; and finds every ticket on the partner's static resale entry page, in English and Spanish. Axe checks each page; screenshots at phone and desktop size.
 * The first partner has no verification endpoint (the pushed buyer e-mail is the owner); the second
 * answers the verification PULL from a real HTTP server in this process.
 */

const REF = `SELL-${RUN}`;
const SELLER = `seller-${RUN}@fans.test`;
const NAME = `Sell Partner ${RUN}`;

async function shots(page: Page, name: string) {
  for (const [w, h] of [
    [390, 844],
    [1366, 900],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await pageShot(page, `${name}-${w}.png`);
  }
}

test('a seller lists within the cap, manages a listing, sells an order and finds every ticket @database-flow', async ({
  page,
  browser,
  request,
}) => {
  // A long flow (several pages, a webhook delivered by the worker): more than the default minute under load.
  test.setTimeout(150_000);
  const { partnerId, apiKey } = await createPartner(NAME);
  await pushEvent(request, apiKey, {
    ref: REF,
    title: `Gran Concierto ${RUN}`,
    description: 'Resale night',
    location: { city: 'Lima', venueName: 'Estadio Nacional', timeZone: 'America/Lima' },
    shows: [eventShow('1', '2027-09-10T21:00:00-05:00', 'Night one')],
  });
  await capResalePrices(request, apiKey, REF);
  const ticket = (ticketId: string, extra: Record<string, unknown> = {}) =>
    syncedTicket(REF, ticketId, SELLER, {
      price: 50,
      props: { seating: { section: 'A', row: '3', seat: ticketId.slice(1, 2) } },
      ...extra,
    });
  const ORDER = `ORD-${RUN}`;
  await syncTickets(request, apiKey, [
    ticket(`S1-${RUN}`),
    ticket(`S2-${RUN}`),
    ticket(`S3-${RUN}`),
    ticket(`O1-${RUN}`, { orderId: ORDER }),
    ticket(`O2-${RUN}`, { orderId: ORDER }),
  ]);

  // Not signed in: the selling flow explains and links to the e-mail sign-in for this partner.
  const sellUrl = (await call(request, apiKey, 'GET', `/v1/marketplace/sellingflow/url/entrypoint?ticketId=S1-${RUN}`))
    .body.data as string;
  const anon = await browser.newPage();
  await anon.goto(sellUrl);
  await expect(anon.getByTestId('partner-brand')).toContainText(NAME);
  const signInLink = anon.getByTestId('signin-prompt').getByRole('link');
  await expect(signInLink).toHaveAttribute('href', new RegExp(`^/login\\?partner=${partnerId}&next=%2Fsell%2F`));
  await anon.goto('/listing/lst_doesnotexist');
  await expect(anon.getByTestId('not-found')).toBeVisible();
  await anon.close();

  // The partner hands the seller the selling-flow URL with a one-time token.
  const token = (await call(request, apiKey, 'GET', `/v1/auth/oneTimeToken?user=${encodeURIComponent(SELLER)}`)).body
    .data as string;
  await page.goto(withParams(sellUrl, { token }));
  await expect(page).not.toHaveURL(/token=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sell your ticket' })).toBeVisible();
  await expect(page.getByTestId('sell-ticket')).toContainText('General · Section A · Row 3 · Seat 1');
  await expect(page.getByTestId('sell-status')).toHaveText('Can be sold');
  await expect(page.getByTestId('price-range')).toHaveText('Allowed: $25.00 to $60.00 per ticket.');
  await expect(page.getByTestId('payout-preview')).toHaveText('$50.00');
  await expect(page.getByTestId('payout-setup')).toBeVisible();
  await page.getByTestId('price-input').fill('70');
  await expect(page.getByTestId('payout-preview')).toHaveText('$70.00');
  await axe(page, 'sell page');
  await shots(page, 'sell');

  // Above the cap: refused next to the field, with the allowed range.
  await page.getByRole('button', { name: 'List my ticket' }).click();
  await expect(page.getByTestId('price-error')).toHaveText('This price is above the maximum allowed.');
  await expect(page.getByTestId('price-range')).toHaveText('Allowed: $25.00 to $60.00 per ticket.');
  await page.getByTestId('price-input').fill('55');
  await page.getByRole('button', { name: 'List my ticket' }).click();
  await expect(page.getByTestId('sell-done')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your ticket is on sale' })).toBeVisible();
  // The share link is the listing's own page (anyone sees it and buys it), not the whole market.
  await expect(page.getByTestId('share-url')).toHaveValue(new RegExp(`^${baseURL}/listing/lst_[A-Za-z0-9]+$`));
  await axe(page, 'done page');
  await shots(page, 'sell-done');
  await page.getByTestId('to-listing').click();
  await expect(page.getByTestId('listing-status')).toHaveText('On sale');
  await expect(page.getByTestId('listing-price')).toHaveText('$55.00');

  // Payout set-up from the listing page: the provider's onboarding (the sandbox's form) sends the seller back.
  await page.getByTestId('payout-setup').getByRole('button', { name: 'Set up payouts' }).click();
  await expect(page).toHaveURL(/\/pay\/payouts\//);
  const payoutPage = page.url();
  await page.getByLabel('Account holder').fill('Ana Seller');
  await page.getByLabel('IBAN').fill('NL00 BANK 0123 4567 89');
  await page.getByRole('button', { name: 'Save payout details' }).click();
  await expect(page.getByTestId('listing-seller')).toContainText('Payouts are set up.');
  await expect(page.getByTestId('payout-setup')).toHaveCount(0);
  await page.goto(payoutPage);
  await expect(page.getByRole('heading', { name: 'Payouts are set up' })).toBeVisible();
  await svgIconsOnly(page.locator('.co-state'));
  await shotsEnEs(page, 'icons-payouts-active');

  // Another listing: change its price (within the range), then take it off sale behind a confirmation.
  const other = (await listTicket({ partnerId, sellerEmail: SELLER, ticketId: `S2-${RUN}`, price: '50' }))
    .listingId as string;
  await page.goto(`/listing/${other}`);
  await expect(page.getByTestId('listing-seller')).toBeVisible();
  const reprice = page.getByTestId('reprice-form');
  await reprice.getByTestId('price-input').fill('61');
  await reprice.getByRole('button', { name: 'Save new price' }).click();
  await expect(reprice.getByTestId('price-error')).toHaveText('This price is above the maximum allowed.');
  await reprice.getByTestId('price-input').fill('52');
  await reprice.getByRole('button', { name: 'Save new price' }).click();
  await expect(page.getByTestId('listing-done')).toHaveText('The new price is saved.');
  await expect(page.getByTestId('listing-price')).toHaveText('$52.00');
  await expect(page.getByTestId('transfer')).toContainText('does not allow transferring');
  await axe(page, 'listing page');
  await shots(page, 'listing');
  await page.getByTestId('unlist-link').click();
  await expect(page.getByTestId('unlist-confirm')).toBeVisible();
  await axe(page, 'unlist confirmation');
  await page.getByRole('button', { name: 'Yes, take off sale' }).click();
  await expect(page.getByTestId('listing-done')).toHaveText('Your listing is off sale.');
  await expect(page.getByTestId('listing-status')).toHaveText('Off sale');

  // Where the partner allows it, the tickets of a listing off sale go to a friend, confirmed first.
  const p2p = await call(request, apiKey, 'POST', '/v1/events/rules', [
    { externalReferenceEventId: REF, ruleType: 'PRICE_LIMITS', rules: { minPercentOfFace: 50, maxPercentOfFace: 120 } },
    { externalReferenceEventId: REF, ruleType: 'P2P_TRANSFER', rules: { allowed: true } },
  ]);
  expect(p2p.status, JSON.stringify(p2p.body)).toBe(200);
  await page.goto(`/listing/${other}`);
  const transfer = page.getByTestId('transfer-form');
  await transfer.getByLabel('Their e-mail').fill(`friend-${RUN}@fans.test`);
  await transfer.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('transfer-confirm')).toContainText(`friend-${RUN}@fans.test`);
  await axe(page, 'transfer confirmation');
  await page.getByRole('button', { name: 'Yes, transfer' }).click();
  await expect(page.getByTestId('listing-done')).toHaveText('Your tickets were transferred.');
  await expect(page.getByTestId('no-longer-yours')).toBeVisible();
  await expect(page.getByTestId('relist-form')).toHaveCount(0);

  // The order sale: both tickets of the order, listed at once as one pack.
  const orderUrl = (
    await call(request, apiKey, 'GET', `/v1/marketplace/sellingflow/url/order/entrypoint?orderId=${ORDER}`)
  ).body.data as string;
  await page.goto(orderUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'Sell tickets from your order' })).toBeVisible();
  await expect(page.getByRole('checkbox')).toHaveCount(2);
  await page.getByTestId('price-input').fill('50');
  await expect(page.getByTestId('payout-preview')).toContainText('$100.00');
  await page.getByRole('button', { name: 'List 2 tickets' }).click();
  await expect(page.getByRole('heading', { name: 'Your 2 tickets are on sale' })).toBeVisible();

  // The static entry page (from GET /v1/me): every ticket with its sell status.
  const me = await call(request, apiKey, 'GET', '/v1/me');
  expect(me.body.data.resaleEntryUrl).toBe(`${baseURL}/resale/${partnerId}`);
  await page.goto(me.body.data.resaleEntryUrl);
  const entry = page.getByTestId('entry-tickets');
  await expect(entry.getByTestId('sell-ticket')).toHaveCount(4);
  const status = (id: string) => entry.locator(`[data-ticket="${id}-${RUN}"]`).getByTestId('sell-status');
  await expect(status('S1')).toHaveText('On sale');
  await expect(entry.locator(`[data-ticket="S2-${RUN}"]`)).toHaveCount(0); // given to the friend
  await expect(status('S3')).toHaveText('Can be sold');
  await expect(status('O1')).toHaveText('On sale');
  await expect(status('O2')).toHaveText('On sale');
  await expect(entry.locator(`[data-ticket="S3-${RUN}"]`).getByRole('link', { name: 'Sell' })).toHaveAttribute(
    'href',
    /^\/sell\/tkt_/,
  );
  await axe(page, 'entry page');
  await shots(page, 'entry');

  // /me sends a signed-in fan to their partner's entry page.
  await page.goto('/me');
  await expect(page).toHaveURL(new RegExp(`/resale/${partnerId}$`));

  // Spanish.
  await page.goto(`/resale/${partnerId}?lang=es`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Revende tus entradas de ${NAME}`);
  await expect(status('S1')).toHaveText('En venta');
  await page.locator(`[data-ticket="S3-${RUN}"]`).getByRole('link', { name: 'Vender' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Vende tu entrada' })).toBeVisible();
  await expect(page.getByTestId('price-range')).toContainText('Permitido: de 25,00');
  await axe(page, 'sell page (es)');
  await shots(page, 'sell-es');
});

test("the entry page lists the tickets the partner's verification endpoint reports, asked live", async ({
  page,
  browser,
  request,
}) => {
  const verification = await new VerificationServer().start();
  try {
    const ref = `PULL-${RUN}`;
    const fan = `pull-${RUN}@fans.test`;
    const { partnerId, apiKey } = await createPartner(`Pull Partner ${RUN}`);
    await pushEvent(request, apiKey, {
      ref,
      title: `Pull Fest ${RUN}`,
      description: 'd',
      location: { timeZone: 'Europe/Madrid' },
      shows: [
        eventShow('1', '2027-07-01T20:00:00+02:00', 'Day one', {
          title: 'Pit',
          ticketId: 'GA',
          description: 'd',
          currency: 'USD',
          price: 50,
        }),
      ],
    });
    const ids = [`PA-${RUN}`, `PB-${RUN}`, `PC-${RUN}`];
    const synced = await call(
      request,
      apiKey,
      'POST',
      '/v1/sync/tickets',
      ids.map((ticketId) => ({
        externalReferenceEventId: ref,
        showId: '1',
        ticketId,
        // The pushed buyer is someone else: only the partner's answer makes the fan the owner.
        buyer: { email: `original-${RUN}@fans.test` },
        ticketAccess: { type: 'OTHER', locator: ticketId },
        ticketOptionId: 'GA',
        price: 50,
      })),
    );
    expect(synced.status).toBe(200);
    verification.owned.set(fan, [
      { ticketId: ids[0], externalReferenceEventId: ref, showId: '1' },
      { ticketId: ids[2], externalReferenceEventId: ref, showId: '1' },
    ]);

    // Staff point the partner at its verification endpoint.
    await pointVerification(browser, partnerId, verification.url);

    const token = (await call(request, apiKey, 'GET', `/v1/auth/oneTimeToken?user=${encodeURIComponent(fan)}`)).body
      .data as string;
    const before = verification.asked.length;
    await page.goto(`/resale/${partnerId}?token=${token}`);
    const entry = page.getByTestId('entry-tickets');
    await expect(entry.getByTestId('sell-ticket')).toHaveCount(2);
    await expect(entry.locator(`[data-ticket="${ids[0]}"]`).getByTestId('sell-status')).toHaveText('Can be sold');
    await expect(entry.locator(`[data-ticket="${ids[2]}"]`)).toBeVisible();
    await expect(entry.locator(`[data-ticket="${ids[1]}"]`)).toHaveCount(0);
    expect(verification.asked.length).toBeGreaterThan(before);

    // A ticket the partner does not report as the fan's: the selling flow says so.
    const sellB = (await call(request, apiKey, 'GET', `/v1/marketplace/sellingflow/url/entrypoint?ticketId=${ids[1]}`))
      .body.data as string;
    await page.goto(sellB);
    await expect(page.getByTestId('sell-status')).toHaveText("Can't be sold");
    await expect(page.getByTestId('sell-reasons')).toHaveText(
      `Pull Partner ${RUN} does not show this ticket as yours.`,
    );
    await expect(page.getByTestId('nothing-to-sell')).toBeVisible();
    await axe(page, 'sell page, not owned');
  } finally {
    await verification.stop();
  }
});
