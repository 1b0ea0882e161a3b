import { expect, type Page, test } from './fixtures';
import { axe, call, createPartner, listTicket, pushUsdEvent, RUN, shot, shotsEnEs, withParams } from './helpers';

/*
 * Every dead end has a way forward. A not-found page under a partner's address
 * wears that partner's brand and links to its sign-in, which works; the root not-found speaks the fan's
 * language; /me signed out offers the sign-in of the partner the fan last used (else says how to get
 * here), as does the expired-link page; the sell page of tickets that cannot be sold says why beside
 * each one; the meta description is in the page's language. Axe at 390 and 1366 px.
 */

const NAME = `Dead End Partner ${RUN}`;
const REF = `DEAD-${RUN}`;
const FAN = `dead-end-${RUN}@fans.test`;

async function axeBoth(page: Page, what: string) {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 844 });
    await axe(page, `${what} at ${width}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), what).toBe(true);
  }
}

/** The page now open in English and Spanish at 390 and 1366 px, each once `testId` is shown (it streams). */
async function shotsWhenShown(page: Page, name: string, testId: string) {
  const here = new URL(page.url());
  for (const lang of ['en', 'es']) {
    here.searchParams.set('lang', lang);
    await page.goto(`${here.pathname}${here.search}`);
    await expect(page.getByTestId(testId).first()).toBeVisible();
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: 844 });
      await shot(page, `${name}-${lang}-${width}`);
    }
  }
}

async function setUpPartner(request: Parameters<typeof pushUsdEvent>[0]) {
  const { partnerId, apiKey } = await createPartner(NAME);
  await pushUsdEvent(request, apiKey, REF, `Dead End Night ${RUN}`);
  const ticket = (ticketId: string) => ({
    externalReferenceEventId: REF,
    showId: '1',
    ticketId,
    orderId: `ORD-${RUN}`,
    buyer: { email: FAN },
    ticketAccess: { type: 'OTHER', locator: `CODE-${ticketId}` },
    ticketOptionId: 'GA',
    price: 50,
  });
  const synced = await call(request, apiKey, 'POST', '/v1/sync/tickets', [
    ticket(`L-${RUN}`),
    ticket(`A-${RUN}`),
    ticket(`D-${RUN}`),
  ]);
  expect(synced.status, JSON.stringify(synced.body)).toBe(200);
  const sellUrl = (await call(request, apiKey, 'GET', `/v1/marketplace/sellingflow/url/entrypoint?ticketId=L-${RUN}`))
    .body.data as string;
  const ticketPk = new URL(sellUrl).pathname.split('/')[2];
  const token = async () =>
    (await call(request, apiKey, 'GET', `/v1/auth/oneTimeToken?user=${encodeURIComponent(FAN)}`)).body.data as string;
  return { partnerId, apiKey, sellUrl, ticketPk, token };
}

test('a partner page that is not found wears its brand and leads to a sign-in that works', async ({
  page,
  request,
}) => {
  const { partnerId, ticketPk } = await setUpPartner(request);

  // A sell page's "done" step without its listing: the fan pages' not-found, in the ticket's partner's brand.
  // (Answered 200: the page streams before it finds nothing, and Next.js then marks it noindex.)
  await page.goto(`/sell/${ticketPk}/done?lang=en`);
  await expect(page.getByTestId('not-found')).toBeVisible();
  await expect(page.getByTestId('partner-brand')).toContainText(NAME);
  const signIn = page.getByTestId('way-forward-signin');
  await expect(signIn).toHaveText('Sign in with e-mail');
  await expect(signIn).toHaveAttribute(
    'href',
    `/login?partner=${partnerId}&next=${encodeURIComponent(`/resale/${partnerId}`)}`,
  );
  await axeBoth(page, 'branded not-found');
  await shotsEnEs(page, 'dead-ends-not-found');
  await page.goto(`/sell/${ticketPk}/done?lang=en`);
  await page.getByTestId('way-forward-signin').click();
  await expect(page.getByRole('heading', { level: 1, name: `Sign in to ${NAME}` })).toBeVisible();
  await expect(page.getByLabel('E-mail')).toBeVisible();

  // An address no page answers, under the partner's resale entry: the root not-found, in Spanish, branded.
  const root = await page.goto(`/resale/${partnerId}/nada?lang=es`);
  expect(root?.status()).toBe(404);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('No encontramos esa página');
  await expect(page.getByTestId('partner-brand')).toContainText(NAME);
  await expect(page.getByTestId('way-forward-signin')).toHaveText('Iniciar sesión con tu correo');
  await axeBoth(page, 'root not-found, branded, Spanish');
});

test('an unknown address: the root not-found in the fan language, with how to get to their tickets', async ({
  page,
}) => {
  const res = await page.goto(`/nada-${RUN}?lang=es`);
  expect(res?.status()).toBe(404);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('No encontramos esa página');
  await expect(page.getByTestId('way-forward-generic')).toContainText('abre el enlace de reventa');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /^Revende y compra entradas/);
  await axeBoth(page, 'root not-found, Spanish');
  await shotsEnEs(page, 'dead-ends-root-not-found');
  await page.goto(`/nowhere-${RUN}?lang=en`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText("We can't find that page");
  // Staff addresses keep the English Encore page.
  await page.goto(`/dashboard/nowhere-${RUN}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('/me signed out offers the sign-in of the partner last used; the expired page keeps its brand', async ({
  page,
  request,
}) => {
  const { partnerId, token } = await setUpPartner(request);
  // Never signed in: how to get here, no partner to name.
  await page.goto('/me?lang=es');
  await expect(page.getByTestId('me-signed-out')).toContainText('No has iniciado sesión.');
  await expect(page.getByTestId('way-forward-generic')).toBeVisible();
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /^Revende y compra entradas/);
  await axeBoth(page, '/me signed out, no partner');

  // Signed in with the partner, then signed out: /me names it and links to its sign-in.
  await page.goto(`/resale/${partnerId}?lang=en&token=${await token()}`);
  await expect(page.getByText(`Your tickets, checked with ${NAME} just now.`)).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/resale'));
  await page.goto('/me?lang=es');
  await expect(page.getByTestId('me-signed-out')).toBeVisible();
  await expect(page.getByTestId('partner-brand')).toContainText(NAME);
  await expect(page.getByTestId('way-forward-signin')).toHaveAttribute(
    'href',
    new RegExp(`^/login\\?partner=${partnerId}&`),
  );
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /^Revende y compra entradas/);
  await axeBoth(page, '/me signed out, branded');
  await shotsEnEs(page, 'dead-ends-me-signed-out');

  // An unknown link's expired page, without ?partner=: the partner last signed in with.
  await page.goto('/auth/expired?lang=en');
  await expect(page.getByTestId('partner-brand')).toContainText(NAME);
  await expect(page.getByTestId('expired-login')).toHaveAttribute('href', new RegExp(`partner=${partnerId}`));
});

test('the sell page says beside each ticket why it cannot be sold', async ({ page, request }) => {
  const { partnerId, apiKey, sellUrl, token } = await setUpPartner(request);
  const { listingId } = await listTicket({ partnerId, sellerEmail: FAN, ticketId: `L-${RUN}`, price: '50' });
  expect((await call(request, apiKey, 'POST', `/v1/tickets/A-${RUN}/eventAdmission`)).status).toBe(200);
  expect((await call(request, apiKey, 'DELETE', `/v1/tickets/D-${RUN}`)).status).toBe(200);

  await page.goto(withParams(sellUrl, { order: '1', lang: 'en', token: await token() }));
  await expect(page.getByTestId('sell-ticket')).toHaveCount(3);
  const reasons = (id: string) => page.locator(`[data-ticket="${id}-${RUN}"]`).getByTestId('sell-reasons');
  await expect(reasons('L')).toHaveText('This ticket is already on sale. View listing');
  await expect(reasons('L').getByTestId('reason-listing')).toHaveAttribute('href', `/listing/${listingId}`);
  await expect(reasons('A')).toHaveText('This ticket was already used for entry.');
  await expect(reasons('D')).toHaveText('This ticket is no longer valid.');
  await expect(page.getByTestId('nothing-to-sell')).toBeVisible();
  await axeBoth(page, 'sell page, nothing sellable');

  await page.goto(`${new URL(page.url()).pathname}?order=1&lang=es`);
  await expect(reasons('L')).toHaveText('Esta entrada ya está en venta. Ver publicación');
  await expect(reasons('A')).toHaveText('Esta entrada ya se usó para entrar.');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /^Revende y compra entradas/);
  await axeBoth(page, 'sell page, nothing sellable, Spanish');
  await shotsWhenShown(page, 'dead-ends-unsellable', 'sell-reasons');
});
