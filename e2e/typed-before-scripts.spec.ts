import { type Browser, expect, type Page, test } from './fixtures';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  call,
  capResalePrices,
  createPartner,
  eventShow,
  holdScripts,
  isLive,
  listTicket,
  pushEvent,
  pushUsdEvent,
  RUN,
  signIn,
  syncedTicket,
  syncTickets,
  withParams,
} from './helpers';

/*
 * What a person types before the page's scripts arrive is what is sent (as on a slow phone or a train):
 * each form family is loaded with the page's script files held back, typed into while it is still the
 * server's HTML (checked: React has not made it live), then the scripts are let through and the form is
 * sent; the test asserts what the submission did. A submit made before the scripts arrive is replayed once
 * they do. Without JavaScript, the fan forms work as plain forms; the staff forms say they need it.
 */

/** Opens `path` with the scripts held; returns the function that lets them through. */
async function openHeld(page: Page, path: string, form: string) {
  const release = await holdScripts(page);
  await page.goto(path, { waitUntil: 'domcontentloaded' });
  await expect(page.locator(form).first()).toBeVisible();
  expect(await isLive(page, form), 'the form is still the server-rendered HTML while typing').toBe(false);
  return release;
}

/** Lets the scripts through and waits until React has made the form live. */
async function goLive(page: Page, release: () => Promise<void>, form: string) {
  await release();
  await expect.poll(() => isLive(page, form)).toBe(true);
}

async function staffPage(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/signin');
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

test('staff sign-in: typed before the scripts, sent after; Enter pressed before them is replayed', async ({
  browser,
}) => {
  for (const enterEarly of [false, true]) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const release = await openHeld(page, '/signin', 'form');
    await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    if (enterEarly) {
      await page.getByLabel('Password').press('Enter');
      // Nothing navigated: the submit waits for the form to be live.
      await expect(page).toHaveURL(/\/signin$/);
      await release();
    } else {
      await goLive(page, release, 'form');
      await page.getByLabel('Password').press('Enter');
    }
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.locator('.sidebar-user')).toHaveText(ADMIN_EMAIL);
    await context.close();
  }
});

test('staff accounts: an invitation accepted and a password changed with what was typed before the scripts', async ({
  browser,
}) => {
  const admin = await staffPage(browser);
  const email = `typed-invitee-${RUN}@encore.test`;
  const password = 'typed-early-password-1';

  // The invitation form, typed into before it is live.
  let release = await openHeld(admin, '/dashboard/staff', 'form[aria-label="Invite a staff member"]');
  const invitations = admin.getByTestId('staff-invitations');
  await invitations.getByLabel('E-mail').fill(email);
  await goLive(admin, release, 'form[aria-label="Invite a staff member"]');
  await invitations.getByRole('button', { name: 'Invite' }).click();
  const link = (await invitations.getByTestId('secret-value').textContent()) ?? '';
  expect(link).toMatch(/\/invite\/[A-Za-z0-9]{32}$/);
  await admin.context().close();

  // The invitee's account form (name and the password twice), typed early.
  const context = await browser.newContext();
  const invitee = await context.newPage();
  release = await openHeld(invitee, new URL(link).pathname, 'form');
  await invitee.getByLabel('Name').fill('Early Typist');
  await invitee.getByLabel('Password', { exact: true }).fill(password);
  await invitee.getByLabel('Repeat password').fill(password);
  await goLive(invitee, release, 'form');
  await invitee.getByRole('button', { name: 'Create account' }).click();
  await expect(invitee).toHaveURL(/\/dashboard$/);
  await expect(invitee.locator('.sidebar-user')).toHaveText(email);

  // Their own password, changed with both fields typed early: every session ends, the new one signs in.
  release = await openHeld(invitee, '/dashboard/staff', 'form[aria-label="Change your password"]');
  const form = invitee.getByTestId('staff-password');
  await form.getByLabel('Current password').fill(password);
  await form.getByLabel('New password').fill('typed-early-password-2');
  await goLive(invitee, release, 'form[aria-label="Change your password"]');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(invitee).toHaveURL(/\/signin/);
  await invitee.getByLabel('E-mail').fill(email);
  await invitee.getByLabel('Password').fill('typed-early-password-2');
  await invitee.getByLabel('Password').press('Enter');
  await expect(invitee).toHaveURL(/\/dashboard$/);
  await context.close();
});

test('staff forms: new partner, rename, return origins, webhook, protection and fee keep what was typed early', async ({
  browser,
  request,
}) => {
  const page = await staffPage(browser);
  const name = `Typed early ${RUN}`;

  let release = await openHeld(page, '/dashboard/partners/new', 'form');
  await page.getByLabel('Partner name').fill(name);
  await goLive(page, release, 'form');
  await page.getByLabel('Partner name').press('Enter');
  await expect(page.getByRole('heading', { name: `Partner “${name}” created` })).toBeVisible();
  const apiKey = (await page.getByTestId('secret-value').first().textContent()) ?? '';
  await page.getByRole('link', { name: 'Open partner' }).click();
  await expect(page).toHaveURL(/\/dashboard\/partners\/ptr_\w+$/);
  const partnerPath = new URL(page.url()).pathname;

  // One load of the partner's page, every form typed into before it is live, then each sent.
  release = await openHeld(page, partnerPath, '[data-testid="webhooks"] form');
  const settings = page.getByTestId('partner-settings');
  const renamed = `Renamed early ${RUN}`;
  await settings.getByRole('textbox', { name: 'Name' }).fill(renamed);
  const origins = page.getByRole('textbox', { name: /^Allowed return origins/ });
  await origins.fill('https://tickets.early.example\nhttps://shop.early.example');
  const webhooks = page.getByTestId('webhooks');
  await webhooks.getByLabel('Receiver URL').fill('https://hooks.early.example/encore');
  const protection = page.getByTestId('partner-protection');
  await protection.getByLabel('Unlock (hours before the show)').fill('9');
  await protection.getByLabel('Reissue after resale').selectOption('yes');
  const fee = page.getByTestId('sales-fee');
  await fee.getByLabel('Fee type').selectOption('FIXED');
  await fee.getByRole('spinbutton').fill('2.5');
  await goLive(page, release, '[data-testid="webhooks"] form');

  await settings.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('heading', { name: renamed, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Save return origins' }).click();
  await expect(page.getByRole('form', { name: 'Allowed return origins' }).getByRole('status')).toHaveText('Saved.');
  await webhooks.getByRole('button', { name: 'Create endpoint' }).click();
  await expect(webhooks.getByTestId('secret-value')).toHaveText(/^whsec_/);
  await protection.getByRole('button', { name: 'Save protection' }).click();
  await expect(protection.getByRole('status')).toHaveText('Saved.');
  await fee.getByRole('button', { name: 'Save fee' }).click();
  await expect(fee.getByText('Current default: 2.5 in each ticket’s currency.')).toBeVisible();

  // What was stored is what was typed.
  const me = await request.get('/v1/me', { headers: { authorization: `Bearer ${apiKey}` } });
  expect((await me.json()).data.name).toBe(renamed);
  await page.reload();
  await expect(origins).toHaveValue('https://tickets.early.example\nhttps://shop.early.example');
  await expect(webhooks.getByLabel('Receiver URL')).toHaveValue('https://hooks.early.example/encore');
  await expect(protection.getByLabel('Unlock (hours before the show)')).toHaveValue('9');
  await expect(protection.getByLabel('Reissue after resale')).toHaveValue('yes');
  await page.context().close();
});

test('staff forms: a rule chosen and a search typed before the scripts', async ({ browser, request }) => {
  const { partnerId, apiKey } = await createPartner(`Typed rules ${RUN}`);
  const ref = `TYPED-RULES-${RUN}`;
  await pushUsdEvent(request, apiKey, ref, `Typed rules night ${RUN}`);
  const page = await staffPage(browser);

  const release = await openHeld(
    page,
    `/dashboard/partners/${partnerId}/rules?event=${ref}`,
    '[data-testid="rule-form"]',
  );
  const form = page.getByTestId('rule-form');
  await form.getByLabel('Rule type').selectOption('RESALE_ENABLED');
  await form.getByLabel('Resale').selectOption('yes');
  await goLive(page, release, '[data-testid="rule-form"]');
  await form.getByRole('button', { name: 'Review rule' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Resale on');
  await dialog.getByRole('button', { name: 'Set rule' }).click();
  await expect(page.getByRole('status')).toHaveText('Staff rule saved.');

  // The support search is a plain GET form: what was typed goes to the results page, live or not.
  const fan = `typed-search-${RUN}@fans.test`;
  const held = await openHeld(page, '/dashboard', 'form[role="search"]');
  const box = page.getByRole('search', { name: 'Support search' });
  await box.getByLabel('Search', { exact: true }).fill(fan);
  await box.getByLabel('Search', { exact: true }).press('Enter');
  await expect(page).toHaveURL(new RegExp(`/dashboard/search\\?q=${encodeURIComponent(fan)}`));
  await held();
  await page.context().close();
});

/** A partner with a capped event, its tickets owned by `seller`, and a live listing for the buyers. */
async function fanMarket(request: Parameters<typeof call>[0], seller: string) {
  const { partnerId, apiKey } = await createPartner(`Typed fans ${RUN}`);
  const ref = `TYPED-FANS-${RUN}`;
  await pushEvent(request, apiKey, {
    ref,
    title: `Typed fans night ${RUN}`,
    description: 'Fans typing early',
    location: { city: 'Lima', venueName: 'Estadio Nacional', timeZone: 'America/Lima' },
    shows: [eventShow('1', '2027-09-10T21:00:00-05:00', 'Night one')],
  });
  await capResalePrices(request, apiKey, ref);
  const ticketIds = ['T1', 'T2', 'T3', 'T4', 'L1', 'L2'].map((t) => `${t}-${RUN}`);
  await syncTickets(
    request,
    apiKey,
    ticketIds.map((id) => syncedTicket(ref, id, seller, { price: 50 })),
  );
  return { partnerId, apiKey, ticketIds };
}

async function sellUrl(request: Parameters<typeof call>[0], apiKey: string, ticketId: string, seller: string) {
  const url = (await call(request, apiKey, 'GET', `/v1/marketplace/sellingflow/url/entrypoint?ticketId=${ticketId}`))
    .body.data as string;
  const token = (await call(request, apiKey, 'GET', `/v1/auth/oneTimeToken?user=${encodeURIComponent(seller)}`)).body
    .data as string;
  return withParams(url, { token });
}

test('fan forms: sign-in, sell, checkout and pay keep what was typed before the scripts @database-flow', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const seller = `typed-seller-${RUN}@fans.test`;
  const { partnerId, apiKey, ticketIds } = await fanMarket(request, seller);
  const context = await browser.newContext();
  const page = await context.newPage();

  await test.step('fan sign-in', async () => {
    const email = `typed-login-${RUN}@fans.test`;
    const release = await openHeld(page, `/login?partner=${partnerId}&lang=en`, '[data-testid="login-form"]');
    await page.getByLabel('E-mail').fill(email);
    await goLive(page, release, '[data-testid="login-form"]');
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await expect(page.getByRole('status')).toContainText(`If ${email} can sign in here`);
  });

  await test.step('sell: the price typed early is the price listed, and the payout follows it', async () => {
    const release = await openHeld(
      page,
      await sellUrl(request, apiKey, ticketIds[0], seller),
      '[data-testid="sell-form"]',
    );
    await page.getByTestId('price-input').fill('41');
    await goLive(page, release, '[data-testid="sell-form"]');
    await expect(page.getByTestId('payout-preview')).toHaveText('$41.00');
    await page.getByRole('button', { name: 'List my ticket' }).click();
    await expect(page.getByTestId('sell-done')).toBeVisible();
    await page.getByTestId('to-listing').click();
    await expect(page.getByTestId('listing-price')).toHaveText('$41.00');
  });

  await test.step('a refused price stays in the field to be corrected', async () => {
    const release = await openHeld(
      page,
      await sellUrl(request, apiKey, ticketIds[1], seller),
      '[data-testid="sell-form"]',
    );
    await page.getByTestId('price-input').fill('75');
    await goLive(page, release, '[data-testid="sell-form"]');
    await page.getByRole('button', { name: 'List my ticket' }).click();
    await expect(page.getByTestId('price-error')).toHaveText('This price is above the maximum allowed.');
    await expect(page.getByTestId('price-input')).toHaveValue('75');
    await expect(page.getByTestId('payout-preview')).toHaveText('$75.00');
  });

  await test.step('checkout and pay', async () => {
    const { listingId } = await listTicket({ partnerId, sellerEmail: seller, ticketId: ticketIds[4], price: '50' });
    const buyer = `typed-buyer-${RUN}@fans.test`;
    const buyerPage = await browser.newPage();
    let release = await openHeld(buyerPage, `/checkout?listings=${listingId}&lang=en`, '[data-testid="checkout-form"]');
    await buyerPage.getByLabel('E-mail for your tickets').fill(buyer);
    await goLive(buyerPage, release, '[data-testid="checkout-form"]');
    await buyerPage.getByTestId('pay').click();
    await buyerPage.waitForURL(/\/pay\/pay_/);
    const payPath = new URL(buyerPage.url()).pathname;
    // The payment page again, its scripts held: the card typed early pays.
    release = await openHeld(buyerPage, payPath, 'form.co-form');
    await buyerPage.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buyerPage.getByLabel('Expiry date').fill('12 / 34');
    await buyerPage.getByLabel('Security code').fill('123');
    await buyerPage.getByLabel('Name on card').fill('Early Fan');
    await release();
    await buyerPage.getByLabel('Name on card').press('Enter');
    await buyerPage.waitForURL(/\/checkout\/bi_/);
    await expect(buyerPage.getByTestId('purchase-success')).toContainText(buyer);
    await buyerPage.close();
  });
  await context.close();
});

test.describe('without JavaScript', () => {
  // A staff form submitted without scripts has React's placeholder action, which the policy blocks.
  test.use({
    allowedCspViolations: [/Sending form data to 'javascript:throw new Error\('React form unexpectedly submitted/],
  });

  test('without JavaScript: fan sign-in, sell, checkout and pay work as plain forms; staff forms say they need it @database-flow', async ({
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const seller = `nojs-seller-${RUN}@fans.test`;
    const { partnerId, apiKey, ticketIds } = await fanMarket(request, seller);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();

    await page.goto('/signin');
    await expect(page.getByTestId('needs-javascript')).toHaveText(
      'This form needs JavaScript. Turn it on in your browser and reload the page.',
    );
    // A staff form submitted anyway goes nowhere: no password in an address, no page load.
    await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await expect(page).toHaveURL(/\/signin$/);

    const email = `nojs-login-${RUN}@fans.test`;
    await page.goto(`/login?partner=${partnerId}&lang=en`);
    await expect(page.getByTestId('needs-javascript')).toHaveCount(0);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await expect(page.getByRole('status')).toContainText(`If ${email} can sign in here`);

    await page.goto(await sellUrl(request, apiKey, ticketIds[2], seller));
    await page.getByTestId('price-input').fill('75');
    await page.getByRole('button', { name: 'List my ticket' }).click();
    await expect(page.getByTestId('price-error')).toHaveText('This price is above the maximum allowed.');
    await expect(page.getByTestId('price-input')).toHaveValue('75');
    await page.getByTestId('price-input').fill('44');
    await page.getByRole('button', { name: 'List my ticket' }).click();
    await expect(page.getByTestId('sell-done')).toBeVisible();
    await page.getByTestId('to-listing').click();
    await expect(page.getByTestId('listing-price')).toHaveText('$44.00');

    const { listingId } = await listTicket({ partnerId, sellerEmail: seller, ticketId: ticketIds[5], price: '50' });
    const buyer = `nojs-buyer-${RUN}@fans.test`;
    const buyerContext = await browser.newContext({ javaScriptEnabled: false });
    const buyerPage = await buyerContext.newPage();
    await buyerPage.goto(`/checkout?listings=${listingId}&lang=en`);
    await buyerPage.getByLabel('E-mail for your tickets').fill(buyer);
    await buyerPage.getByTestId('pay').click();
    await buyerPage.waitForURL(/\/pay\/pay_/);
    await buyerPage.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buyerPage.getByLabel('Expiry date').fill('12 / 34');
    await buyerPage.getByLabel('Security code').fill('123');
    await buyerPage.getByLabel('Name on card').fill('No Script Fan');
    await buyerPage.getByLabel('Name on card').press('Enter');
    await buyerPage.waitForURL(/\/checkout\/bi_/);
    await expect(buyerPage.getByTestId('purchase-success')).toContainText(buyer);
    await buyerContext.close();
    await context.close();
  });
});
