import { type APIRequestContext, expect, type Page, test } from './fixtures';
import {
  axe,
  baseURL,
  call,
  createPartner,
  listTicket,
  pageShot,
  pushUsdEvent,
  RUN,
  setUp,
  shot,
  shotsEnEs,
  svgIconsOnly,
  eventShow,
  PRESENTATION,
} from './helpers';

/*
 * The sandbox's hosted checkout in a real browser: paying with the test cards (succeeds, declined,
 * second step), field errors, and the paid state; in Spanish too (with the expired-link page). Partner and payments come from the CLIs, against
 * the database the server under test uses.
 */

let partnerId: string;
test.beforeAll(async () => {
  partnerId = (await createPartner(`Tickets Lima ${RUN}`)).partnerId;
});

function newPayment(extra: { successUrl?: string } = {}, amount = '45.50') {
  return setUp<{ paymentId: string; url: string }>('payment', {
    partnerId,
    amount,
    currency: 'EUR',
    description: '2 × General admission',
    email: `fan-${RUN}@fans.test`,
    ...extra,
  });
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry date').fill('12 / 34');
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Ada Fan');
}

test.use({ viewport: { width: 390, height: 844 } });

test('4242 4242 4242 4242 pays, by keyboard, and lands on the success URL; the paid checkout says so @database-flow', async ({
  page,
}) => {
  const success = `${baseURL}/market/evt_demo`;
  const { paymentId, url } = await newPayment({ successUrl: success });
  expect(url).toBe(`${baseURL}/pay/${paymentId}`);
  await page.goto(`/pay/${paymentId}`);
  await expect(page.getByRole('heading', { name: 'Pay with card' })).toBeVisible();
  await expect(page.getByTestId('amount')).toHaveText('€45.50');
  await expect(page.getByText('2 × General admission')).toBeVisible();
  await expect(page.getByText(`Tickets Lima ${RUN}`).first()).toBeVisible();
  // A browser that did not make the order sees the buyer's e-mail masked (components/market/order-access.ts).
  await expect(page.getByLabel('Email')).toHaveValue('f•••@f•••.test');
  await shot(page, 'payments-checkout-mobile');

  // Keyboard only: the fields in order, Enter submits.
  await page.getByLabel('Card number').focus();
  await page.keyboard.type('4242 4242 4242 4242');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Expiry date')).toBeFocused();
  await page.keyboard.type('12 / 34');
  await page.keyboard.press('Tab');
  await page.keyboard.type('123');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Name on card')).toBeFocused();
  await page.keyboard.type('Ada Fan');
  await page.keyboard.press('Enter');

  await page.waitForURL(success);
  await page.goto(`/pay/${paymentId}`);
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Continue' })).toHaveAttribute('href', success);
  await svgIconsOnly(page.locator('.co-state'));
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  // The Continue link is drawn as a button: white on the brand colour, not the fan pages' link colour.
  await axe(page, 'payment received');
  await shot(page, 'payments-paid');
  await shotsEnEs(page, 'icons-payment-paid');
});

test('4000 0000 0000 0002 is declined with a clear message; the payment stays payable', async ({ page }) => {
  const { paymentId } = await newPayment();
  await page.goto(`/pay/${paymentId}`);
  await fillCard(page, '4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Pay €45.50' }).click();
  await expect(page.locator('.co-alert')).toContainText('Card declined');
  await expect(page.locator('.co-alert')).toContainText('You have not been charged');
  await shot(page, 'payments-declined');

  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay €45.50' }).click();
  // Without a success URL of its own, the payment leads back to its page, now paid.
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
});

test('4000 0027 6000 3184 needs a second step: failing it leaves the payment payable, completing it pays', async ({
  page,
}) => {
  const { paymentId } = await newPayment();
  await page.goto(`/pay/${paymentId}`);
  await fillCard(page, '4000 0027 6000 3184');
  await page.getByRole('button', { name: 'Pay €45.50' }).click();
  await expect(page.getByRole('heading', { name: 'Confirm it’s you' })).toBeVisible();
  await expect(page.getByText('Your bank asks you to confirm a payment of €45.50')).toBeVisible();
  await shot(page, 'payments-authenticate');
  await page.getByRole('button', { name: 'Fail authentication' }).click();
  await expect(page.locator('.co-alert')).toContainText('Authentication failed');

  await fillCard(page, '4000 0027 6000 3184');
  await page.getByRole('button', { name: 'Pay €45.50' }).click();
  await page.getByRole('button', { name: 'Complete authentication' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
});

test('a bad card number is named on its field', async ({ page }) => {
  const { paymentId } = await newPayment();
  await page.goto(`/pay/${paymentId}`);
  await fillCard(page, '4242 4242 4242 4241');
  await page.getByRole('button', { name: 'Pay €45.50' }).click();
  const number = page.getByLabel('Card number');
  await expect(number).toHaveAttribute('aria-invalid', 'true');
  await expect(number).toHaveAccessibleDescription('Enter a valid card number.');
  await expect(page.locator('.co-alert')).toContainText('Check your card details');
});

test('an unknown payment is a 404', async ({ page }) => {
  const res = await page.goto('/pay/pay_doesnotexist');
  expect(res?.status()).toBe(404);
});

/** Axe and a full-page screenshot at 390 px and at 1366 px. */
async function checkWidths(page: Page, name: string) {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await axe(page, `${name} at ${width}px`);
    await pageShot(page, `${name}-${width}.png`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

test('in Spanish (?lang=es): labels, a declined card, money as 12,50 €, and the expired-link page', async ({
  page,
}) => {
  const { paymentId } = await newPayment({}, '12.50');
  await page.goto(`/pay/${paymentId}?lang=es`);
  await expect(page.locator('.mk')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { name: 'Pagar con tarjeta' })).toBeVisible();
  await expect(page.getByTestId('amount')).toHaveText(/^12,50\s€$/);
  await expect(page.getByText(`Pagar a Tickets Lima ${RUN}`)).toBeVisible();
  await expect(page.getByText('Total a pagar')).toBeVisible();
  await expect(page.getByLabel('Correo electrónico')).toHaveValue('f•••@f•••.test');
  await checkWidths(page, 'payments-es-checkout');

  // The card is declined; the form comes back (without `lang` in the URL: the cookie keeps Spanish).
  await page.getByLabel('Número de tarjeta').fill('4000 0000 0000 0002');
  await page.getByLabel('Fecha de caducidad').fill('12 / 34');
  await page.getByLabel('Código de seguridad').fill('123');
  await page.getByLabel('Nombre en la tarjeta').fill('Ada Fan');
  await page.getByRole('button', { name: /^Pagar 12,50\s€$/ }).click();
  await expect(page).toHaveURL(/error=declined/);
  await expect(page.locator('.co-alert')).toContainText('Tarjeta rechazada');
  await expect(page.locator('.co-alert')).toContainText(
    'Tu tarjeta ha sido rechazada. No se te ha cobrado nada: prueba con otra tarjeta.',
  );
  await checkWidths(page, 'payments-es-declined');

  // A bad number is named on its field, in Spanish.
  await page.getByLabel('Número de tarjeta').fill('4242 4242 4242 4241');
  await page.getByLabel('Fecha de caducidad').fill('12 / 34');
  await page.getByLabel('Código de seguridad').fill('123');
  await page.getByLabel('Nombre en la tarjeta').fill('Ada Fan');
  await page.getByRole('button', { name: /^Pagar 12,50\s€$/ }).click();
  await expect(page.getByLabel('Número de tarjeta')).toHaveAccessibleDescription(
    'Introduce un número de tarjeta válido.',
  );
  await expect(page.locator('.co-alert')).toContainText('Revisa los datos de tu tarjeta');

  // The expired-link page sits under /auth but gets the fan's language: from `lang`, then the cookie.
  await page.goto(`/auth/expired?lang=es&partner=${partnerId}`);
  await expect(page.getByRole('main')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { name: 'Este enlace ha caducado' })).toBeVisible();
  await expect(page.getByText(`vuelve a la web o la app de Tickets Lima ${RUN}`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Envíame un enlace de acceso' })).toBeVisible();
  await checkWidths(page, 'expired-es');
  await page.goto('/auth/expired');
  await expect(page.getByRole('heading', { name: 'Este enlace ha caducado' })).toBeVisible();
  await expect(page.getByText('vuelve a la web o la app de tu proveedor de entradas')).toBeVisible();
  await page.goto('/auth/expired?lang=en');
  await expect(page.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
});

/** A resale purchase held for a buyer: one seated ticket at 60 € plus a 10 % service fee; its payment page. */
async function resalePayment(request: APIRequestContext, name: string) {
  const { partnerId: pid, apiKey } = await createPartner(`${name} ${RUN}`);
  await setUp('market-terms', { partnerId: pid, buyerFeePercent: 10 });
  const ref = `pay-evt-${RUN}`;
  const option = { title: 'Platea', ticketId: 'PLATEA', description: 'Sentado', currency: 'EUR', price: 50 };
  await pushUsdEvent(
    request,
    apiKey,
    ref,
    `Noche de tango ${RUN}`,
    [{ ...eventShow('1', '2027-09-10T21:00:00-05:00', 'Primera noche'), ticketOptions: [option] }],
    { venueName: 'Teatro Colón', city: 'Lima', timeZone: 'America/Lima' },
  );
  const seller = `seller-${RUN}@fans.test`;
  const synced = await call(request, apiKey, 'POST', '/v1/sync/tickets', [
    {
      externalReferenceEventId: ref,
      showId: '1',
      ticketId: `seat-${RUN}`,
      ticketOptionId: 'PLATEA',
      buyer: { email: seller },
      ticketAccess: { type: 'OTHER', locator: 'CODE-seat' },
      props: { seating: { section: 'B', row: '5', seat: '11' } },
    },
  ]);
  expect(synced.body?.data?.imported, JSON.stringify(synced.body)).toBe(1);
  const { listingId } = await listTicket({ partnerId: pid, sellerEmail: seller, ticketId: `seat-${RUN}`, price: '60' });
  const held = await call(request, apiKey, 'POST', '/v1/marketplace/buyingflow/buyIntention', {
    items: [listingId],
    user: `buyer-${RUN}@fans.test`,
  });
  expect(held.status, JSON.stringify(held.body)).toBe(200);
  return new URL(held.body.data.paymentUrl).pathname;
}

test('a resale payment in Spanish: event, date and venue, seats, the fee split, the total and the hold’s countdown; at zero the way back', async ({
  page,
  request,
}) => {
  const path = await resalePayment(request, 'Sala Lima');
  await page.clock.install();
  await page.goto(`${path}?lang=es`);
  const summary = page.locator('.co-summary');
  await expect(page.getByTestId('order-event')).toHaveText(`Noche de tango ${RUN}`);
  // 21:00 in Lima, the venue's time zone, in Spanish.
  await expect(page.getByTestId('order-when')).toHaveText(/^vie, 10 sept 2027, 21:00 · Teatro Colón · Lima$/);
  await expect(page.getByTestId('order-line')).toContainText('Platea · 1 entrada');
  await expect(page.getByTestId('order-seats')).toHaveText('Sector B · Fila 5 · Asiento 11');
  await expect(page.getByTestId('order-line')).toContainText('Precio de reventa: 60,00 € por entrada');
  await expect(page.getByTestId('order-line')).toContainText('Cargo de servicio (Encore): 6,00 € por entrada');
  const split = page.getByTestId('order-split');
  await expect(split).toContainText(/Precio de reventa \(1 entrada\)\s*60,00\s€/);
  await expect(split).toContainText(/Cargos de servicio \(Encore\)\s*6,00\s€/);
  await expect(page.getByTestId('order-total')).toHaveText(/^66,00\s€ EUR$/);
  await expect(page.getByTestId('amount')).toHaveText(/^66,00\s€$/);
  // No ids, no English.
  await expect(summary).not.toContainText('PLATEA');
  await expect(summary).not.toContainText('resale');
  const timer = page.getByTestId('hold-timer');
  await expect(timer).toContainText('Entradas reservadas para ti durante');
  await expect(timer.getByRole('timer')).toHaveText(/^(09|10):\d\d$/);
  await expect(summary).toContainText('Si no pagas a tiempo, las entradas vuelven a ponerse a la venta.');
  await checkWidths(page, 'payments-es-resale');

  // At zero: the tickets are back on sale, and the page leads back to them.
  await page.clock.fastForward('10:30');
  await expect(page.getByTestId('hold-expired')).toContainText('las entradas vuelven a estar a la venta');
  await expect(page.getByTestId('hold-back')).toHaveText('Volver a las entradas a la venta');
  await expect(page.getByTestId('hold-back')).toHaveAttribute('href', /^\/market\/[^?]+\?show=/);
  await expect(summary.getByText('Si no pagas a tiempo')).toBeHidden();
  // Nothing left to pay: the card form is gone (the server refuses a late payment all the same).
  await expect(page.getByTestId('card-section')).toBeHidden();
  await checkWidths(page, 'payments-es-resale-expired');
});

test(
  'a resale payment in English and Spanish at 390 and 1366 px (screenshots)',
  PRESENTATION,
  async ({ page, request }) => {
    const path = await resalePayment(request, 'Sala Quito');
    await page.goto(path);
    await expect(page.getByTestId('order-seats')).toHaveText('Section B · Row 5 · Seat 11');
    await expect(page.getByTestId('order-split')).toContainText('Service fee (Encore)');
    await shotsEnEs(page, 'payments-resale');
  },
);
