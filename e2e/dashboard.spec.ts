import { expect, test } from './fixtures';
import { Receiver, RUN, hydrated, shot, signIn } from './helpers';

/*
 * The API calls below are seconds apart (the page waits for the key's "last used" in between): each on a
 * connection of its own, so none reuses a keep-alive socket the server is closing after its 5 s idle
 * timeout (an ECONNRESET that says nothing about the key).
 */
const FRESH = { connection: 'close' };

test.describe('access control', () => {
  test('the tRPC endpoint refuses unauthenticated calls', async ({ request }) => {
    const list = await request.get('/api/trpc/partners.list?input=' + encodeURIComponent(JSON.stringify({ json: {} })));
    expect(list.status()).toBe(401);
    const bare = await request.get('/api/trpc/partners.list');
    expect(bare.status()).toBe(401);
    const create = await request.post('/api/trpc/partners.create', { data: { json: { name: `Nope ${RUN}` } } });
    expect(create.status()).toBe(401);
    const body = await create.json();
    expect(body.error.json.data.code).toBe('UNAUTHORIZED');
  });

  test('an anonymous visit to the dashboard goes to sign-in and back after it', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fdashboard/);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

    await page.goto('/dashboard/partners/new');
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fdashboard%2Fpartners%2Fnew$/);
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard\/partners\/new$/);
    await expect(page.getByRole('heading', { name: 'New partner' })).toBeVisible();
  });

  test('the setup page is closed once a staff member exists', async ({ page }) => {
    await page.goto('/setup');
    await expect(page).toHaveURL(/\/signin/);
  });
});

test('dashboard links prefetch their page when pointed at, not when they scroll into view', async ({ page }) => {
  const prefetched: string[] = [];
  page.on('request', (r) => {
    if (r.headers()['next-router-prefetch']) prefetched.push(new URL(r.url()).pathname);
  });
  await page.goto('/dashboard/partners');
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Partners', level: 1 })).toBeVisible();
  await hydrated(page, 'nav a[href="/dashboard/staff"]');
  // The nav and the list are on screen, every link of them hydrated: none asked the server for its page.
  await page.waitForLoadState('networkidle');
  expect(prefetched).toEqual([]);

  // Pointing at a link prefetches its page (that page alone); a click then opens it.
  const staff = page.locator('nav a[href="/dashboard/staff"]');
  const asked = page.waitForRequest(
    (r) => !!r.headers()['next-router-prefetch'] && r.url().includes('/dashboard/staff'),
  );
  await staff.hover();
  await asked;
  expect(new Set(prefetched)).toEqual(new Set(['/dashboard/staff']));
  await staff.click();
  await expect(page).toHaveURL(/\/dashboard\/staff$/);
});

test('staff manage a partner and its API keys', async ({ page, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const partnerName = `E2E Partner ${RUN}`;
  let partnerId = '';
  let secret = '';
  let prefix = '';

  await test.step('a wrong password shows a readable error', async () => {
    await page.goto('/dashboard/partners');
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fdashboard%2Fpartners/);
    await signIn(page, 'not-the-password');
    // (Next.js keeps an empty role="alert" route announcer on every page, hence the filter.)
    await expect(page.getByRole('alert').filter({ hasText: 'Wrong e-mail or password' })).toBeVisible();
    await expect(page).toHaveURL(/\/signin/);
    await shot(page, '01-signin-error');
  });

  await test.step('the admin signs in and lands on the partner list', async () => {
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard\/partners$/);
    await expect(page.getByRole('heading', { name: 'Partners', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Partners', exact: true })).toHaveAttribute('aria-current', 'page');
  });

  await test.step('creating a partner shows its two keys once', async () => {
    await page.getByRole('link', { name: 'New partner' }).click();
    await expect(page).toHaveURL(/\/dashboard\/partners\/new$/);
    // A click before React took over the form is replayed once it is live (the form's action).
    // Empty name: the server's message appears beside the field.
    await page.getByRole('button', { name: 'Create partner' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();

    const name = page.getByLabel('Partner name');
    await name.fill(partnerName);
    await name.press('Enter');
    await expect(page.getByRole('heading', { name: `Partner “${partnerName}” created` })).toBeVisible();
    await expect(page.getByText("You won't see them again")).toBeVisible();
    const secrets = page.getByTestId('secret-value');
    await expect(secrets).toHaveCount(2);
    await expect(secrets.nth(0)).toHaveText(/^sk_live_[A-Za-z0-9]{32}$/);
    await expect(secrets.nth(1)).toHaveText(/^sk_ch_[A-Za-z0-9]{32}$/);
    const apiKey = (await secrets.nth(0).textContent()) ?? '';

    const copy = page.getByRole('button', { name: 'Copy API key' });
    await expect(copy).toBeVisible();
    await expect(page.getByRole('button', { name: 'Copy Channels API key' })).toBeVisible();
    await copy.click();
    await expect(copy).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);
    await shot(page, '02-partner-created');

    await page.getByRole('link', { name: 'Open partner' }).click();
    await expect(page).toHaveURL(/\/dashboard\/partners\/ptr_\w+$/);
    partnerId = page.url().split('/').pop() ?? '';
    await expect(page.getByRole('heading', { name: partnerName, level: 1 })).toBeVisible();
    // The initial keys are listed by prefix only.
    await expect(page.getByTestId('secret-value')).toHaveCount(0);
    await expect(page.getByText(apiKey.slice(0, 14) + '…')).toBeVisible();
  });

  const partnerKeys = page.getByTestId('keys-partner');

  await test.step('a new key with a label is shown once', async () => {
    await partnerKeys.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Label')).toBeFocused();
    await dialog.getByLabel('Label').fill(`ci-${RUN}`);
    await dialog.getByLabel('Label').press('Enter');
    await expect(dialog).toBeHidden();

    const shown = partnerKeys.getByTestId('secret-value');
    await expect(shown).toHaveText(/^sk_live_/);
    secret = (await shown.textContent()) ?? '';
    prefix = secret.slice(0, 'sk_live_'.length + 6);
    await expect(partnerKeys.getByText("You won't see it again")).toBeVisible();
    await expect(partnerKeys.locator(`tr[data-key-prefix="${prefix}"]`)).toContainText(`ci-${RUN}`);
    await shot(page, '03-key-created');
  });

  await test.step('after a reload the secret is gone but the prefix stays', async () => {
    await page.reload();
    await expect(page.getByRole('heading', { name: partnerName, level: 1 })).toBeVisible();
    await expect(page.getByTestId('secret-value')).toHaveCount(0);
    await expect(page.getByText(secret)).toHaveCount(0);
    const row = partnerKeys.locator(`tr[data-key-prefix="${prefix}"]`);
    await expect(row).toContainText(`${prefix}…`);
    await expect(row).toContainText('Active');
    expect(await page.content()).not.toContain(secret);
  });

  await test.step('the new key authenticates on the partner API', async () => {
    const me = await request.get('/v1/me', { headers: { Authorization: secret, ...FRESH } });
    expect(me.status()).toBe(200);
    const body = await me.json();
    expect(body.data.partnerId).toBe(partnerId);
    expect(body.errors).toBeNull();
  });

  await test.step('revoking asks first; cancel and Escape keep the key', async () => {
    const row = partnerKeys.locator(`tr[data-key-prefix="${prefix}"]`);
    // "Last used" from the call above: written within a couple of seconds (the call itself writes nothing).
    await expect(async () => {
      await page.reload();
      await expect(row.getByRole('cell', { name: 'Never' })).toHaveCount(0, { timeout: 500 });
    }).toPass({ timeout: 15_000 });

    await row.getByRole('button', { name: `Revoke ${prefix}…` }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toBeVisible();
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await shot(page, '04-revoke-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();

    await row.getByRole('button', { name: `Revoke ${prefix}…` }).click();
    await expect(confirm).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();

    await page.reload();
    await expect(row).toContainText('Active');
    const still = await request.get('/v1/me', { headers: { Authorization: secret, ...FRESH } });
    expect(still.status()).toBe(200);
  });

  await test.step('confirming revokes the key; the API refuses it', async () => {
    const row = partnerKeys.locator(`tr[data-key-prefix="${prefix}"]`);
    await row.getByRole('button', { name: `Revoke ${prefix}…` }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await expect(confirm).toBeHidden();
    await expect(row).toContainText('Revoked');
    await expect(row.getByRole('button', { name: /Revoke/ })).toHaveCount(0);

    const me = await request.get('/v1/me', { headers: { Authorization: secret, ...FRESH } });
    expect(me.status()).toBe(401);
    const body = await me.json();
    expect(body.status).toBe(401);
    expect(body.data).toBeNull();
    expect(typeof body.errors).toBe('object');
    expect(body.errors).not.toBeNull();
    expect(typeof body.errors.message).toBe('string');
  });

  await test.step('channels: the initial key belongs to a default channel; staff create a channel and its keys', async () => {
    const summary = page.getByTestId('channels');
    await expect(summary.getByTestId('channel-rows').locator('tr')).toHaveCount(1);
    await expect(summary.getByTestId('channel-rows')).toContainText('Default channel');
    await shot(page, 'partner-page');
    await summary.getByRole('link', { name: 'Manage channels' }).click();
    await expect(page.getByRole('heading', { name: 'Channels', level: 1 })).toBeVisible();

    const channels = page.getByTestId('channels');
    await channels.getByRole('button', { name: 'Create channel' }).click();
    const create = page.getByRole('dialog', { name: 'Create channel' });
    await create.getByRole('button', { name: 'Create channel' }).click();
    await expect(create.getByText('Name is required')).toBeVisible();
    await create.getByLabel('Name').fill('Resale Hub');
    await create.getByLabel('Webhook URL').fill('ftp://hub.example.com/hooks');
    await create.getByRole('button', { name: 'Create channel' }).click();
    await expect(create.getByText('Partner URLs must use https')).toBeVisible();
    await create.getByLabel('Webhook URL').fill('');
    await create.getByRole('button', { name: 'Create channel' }).click();
    await expect(channels.getByTestId('secret-value')).toHaveText(/^whsec_/);
    await channels.getByRole('button', { name: 'I have copied it' }).click();
    await expect(channels.getByTestId('channel-rows').locator('tr')).toHaveCount(2);

    await channels.getByRole('link', { name: 'Resale Hub' }).click();
    await expect(page.getByRole('heading', { name: 'Resale Hub', level: 1 })).toBeVisible();
    const channelId = page.url().split('/').pop() ?? '';
    const keys = page.getByTestId(`keys-channel-${channelId}`);
    await expect(keys.getByText('No Channels API keys')).toBeVisible();
    await keys.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Channels API key' });
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(keys.getByTestId('secret-value')).toHaveText(/^sk_ch_[A-Za-z0-9]{32}$/);
    const channelsKey = (await keys.getByTestId('secret-value').textContent()) ?? '';
    const me = await request.get('/v1/channels/me', { headers: { Authorization: channelsKey } });
    expect(me.status()).toBe(200);
    expect((await me.json()).data).toMatchObject({ channelId, channelName: 'Resale Hub' });
    await keys.getByRole('button', { name: 'I have copied it' }).click();
    await expect(keys.getByTestId('secret-value')).toHaveCount(0);
    await expect(keys.locator('tbody tr')).toHaveCount(1);
    await expect(page.getByText('No listings yet')).toBeVisible();

    // Its webhooks: held without a URL; once staff set one, a test message reaches the channel.
    const hooks = page.getByTestId('channel-webhooks');
    await expect(hooks.getByText('No webhook URL')).toBeVisible();
    const receiver = await new Receiver().start();
    try {
      await page.getByTestId('channel-details').getByRole('button', { name: 'Edit' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit channel' });
      await edit.getByLabel('Webhook URL').fill(receiver.url);
      await edit.getByRole('button', { name: 'Save channel' }).click();
      await expect(edit).toHaveCount(0);
      await expect(page.getByTestId('channel-details')).toContainText(receiver.url);
      await expect(hooks.getByText('No webhook URL')).toHaveCount(0);
      await hooks.getByRole('button', { name: 'Send test message' }).click();
      await expect(hooks.getByRole('status')).toHaveText('Test message queued.');
      await expect
        .poll(() => receiver.bodies.find((b) => b.action === 'test.ping')?.data.channelId, { timeout: 30_000 })
        .toBe(channelId);
      await expect(hooks.getByTestId('channel-webhook-rows')).toContainText('Delivered', { timeout: 15_000 });
    } finally {
      await receiver.stop();
    }
    await shot(page, 'channel-page');
    await page.goto(`/dashboard/partners/${partnerId}`);
  });

  await test.step('a default primary sales fee is checked, saved, kept and removed after confirming', async () => {
    const fee = page.getByTestId('sales-fee');
    await expect(fee.getByText('No default fee set')).toBeVisible();
    await fee.getByLabel('Fee type').selectOption('PERCENTAGE');
    await fee.getByLabel('Value (%)').fill('120');
    await fee.getByRole('button', { name: 'Save fee' }).click();
    await expect(fee.getByText('A percentage is at most 100')).toBeVisible();
    await fee.getByLabel('Value (%)').fill('7.5');
    await fee.getByLabel('Value (%)').press('Enter');
    await expect(fee.getByRole('status')).toHaveText('Saved.');
    await expect(fee.getByText('Current default: 7.5%.')).toBeVisible();
    await page.reload();
    await expect(fee.getByText('Current default: 7.5%.')).toBeVisible();

    await hydrated(page, '[data-testid="sales-fee"] form');
    await fee.getByRole('button', { name: 'Remove default fee' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Remove the default fee?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(fee.getByText('Current default: 7.5%.')).toBeVisible();
    await fee.getByRole('button', { name: 'Remove default fee' }).click();
    await dialog.getByRole('button', { name: 'Remove fee' }).click();
    await expect(fee.getByText('No default fee set')).toBeVisible();
  });

  await test.step('the partner list finds the partner by name and paginates', async () => {
    await page.getByRole('link', { name: 'Partners', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\/partners$/);
    await expect(page.getByRole('navigation', { name: 'Pagination' })).toBeVisible();
    const search = page.getByRole('searchbox', { name: 'Search partners by name' });
    await search.fill(partnerName);
    await search.press('Enter');
    await expect(page).toHaveURL(/[?&]q=E2E\+Partner/);
    const table = page.getByRole('table', { name: 'Partners' });
    await expect(table.getByRole('link', { name: partnerName })).toBeVisible();
    await expect(table.locator('tbody tr')).toHaveCount(1);
    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    await expect(pagination).toContainText('1–1 of 1 partner');
    await expect(pagination.getByText('← Previous')).toBeVisible();
    await expect(pagination.getByText('Next →')).toBeVisible();
    await shot(page, '05-partner-search');

    await page.goto(`/dashboard/partners?q=${encodeURIComponent(`no such partner ${RUN}`)}`);
    await expect(page.getByText(/No partners match/)).toBeVisible();

    // A page past the end (an old bookmark) offers the way back to the first page, keeping the search.
    await page.goto(`/dashboard/partners?q=${encodeURIComponent(partnerName)}&page=50`);
    await expect(page.getByText('Nothing on this page')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText('Page 50 of 1');
    await page.getByRole('link', { name: 'Go to the first page' }).click();
    await expect(page).toHaveURL(/\/dashboard\/partners\?q=E2E\+Partner[^&]*$/);
    await expect(table.getByRole('link', { name: partnerName })).toBeVisible();
  });

  await test.step('the overview counts partners', async () => {
    await page.getByRole('link', { name: 'Overview' }).click();
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
    await expect(page.getByTestId('partner-count')).toHaveText(/^[1-9]\d*$/);
    await shot(page, '06-overview');
  });
});
