import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from './fixtures';
import { baseURL, hydrated, partnerCreateCli, pushUsdEvent, RUN, signIn } from './helpers';

/*
 * A partner's publishable keys, printed by `npm run partner:create`, shown whole on its
 * dashboard page and rotated there; in a real browser, a page of another site calls the buy access layer with
 * the key (CORS preflight and all) from an allowed origin only, and never with a secret key.
 */

const REF = `PK-${RUN}`;

/** Two partner sites on loopback (two ports, two origins): blank pages a test runs `fetch` in. */
const sites: http.Server[] = [];
const origins: string[] = [];
test.beforeAll(async () => {
  for (let i = 0; i < 2; i++) {
    const site = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Partner site</title><p>Partner site</p>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    sites.push(site);
    origins.push(`http://127.0.0.1:${(site.address() as AddressInfo).port}`);
  }
});
test.afterAll(async () => {
  for (const site of sites) {
    site.closeAllConnections();
    await new Promise<void>((resolve) => site.close(() => resolve()));
  }
});

/** The buy access layer fetched by the page (its own origin) with `key`: the status, or the browser's refusal. */
function widgetCall(page: Page, key: string) {
  const url = `${baseURL}/v1/wrapper/accesslayer?type=buy&eventId=${encodeURIComponent(REF)}&showId=1`;
  return page.evaluate(
    async ([u, k]) => {
      try {
        const res = await fetch(u, { headers: { Authorization: k } });
        const body = (await res.json()) as { data: { market?: unknown } | null };
        return { status: res.status, market: Boolean(body.data?.market) };
      } catch (e) {
        return { refused: String(e) };
      }
    },
    [url, key] as const,
  );
}

/** The publishable keys' section as staff see it, for a person to look at (none with E2E_SHOTS=0, like every shot). */
async function keysShot(page: Page) {
  if (process.env.E2E_SHOTS === '0') return;
  await page.getByTestId('publishable-keys').screenshot({ path: test.info().outputPath('publishable-keys.png') });
}

test('publishable keys: printed, shown whole, held to the widget origins in a browser, rotated', async ({
  page,
  request,
  browser,
}) => {
  const created = partnerCreateCli(`E2E Publishable ${RUN}`);
  expect(created.publishableKey).toMatch(/^pk_live_[A-Za-z0-9]{32}$/);
  expect(created.testPublishableKey).toMatch(/^pk_test_[A-Za-z0-9]{32}$/);
  await pushUsdEvent(request, created.apiKey, REF, `Publishable ${RUN}`);

  const context = await browser.newContext();
  const [shop, other] = [await context.newPage(), await context.newPage()];
  await shop.goto(origins[0]);
  await other.goto(origins[1]);

  await test.step('no widget origins: any site’s page reads the buy layer with the key; a secret key never', async () => {
    expect(await widgetCall(shop, created.publishableKey)).toEqual({ status: 200, market: true });
    expect(await widgetCall(other, created.publishableKey)).toEqual({ status: 200, market: true });
    expect(await widgetCall(shop, created.apiKey)).toMatchObject({
      refused: expect.stringContaining('Failed to fetch'),
    });
  });

  await test.step('the partner page shows both keys whole, warns, and staff set the widget origins', async () => {
    await page.goto(`/dashboard/partners/${created.partnerId}`);
    await signIn(page);
    const keys = page.getByTestId('publishable-keys');
    await expect(keys.getByTestId('publishable-key-live')).toContainText(created.publishableKey);
    await expect(keys.getByTestId('publishable-key-test')).toContainText(created.testPublishableKey);
    await expect(page.getByTestId('widget-origins-warning')).toContainText('Any origin may show this partner');
    const form = page.getByRole('form', { name: 'Allowed widget origins' });
    await form.getByLabel('Allowed widget origins').fill(`${origins[0]}/`);
    await form.getByRole('button', { name: 'Save widget origins' }).click();
    await expect(form.getByText('Saved.')).toBeVisible();
    await expect(form.getByLabel('Allowed widget origins')).toHaveValue(origins[0]);
    await expect(page.getByTestId('widget-origins-warning')).toHaveCount(0);
  });

  await test.step('only the allowed site’s page may use the key now', async () => {
    expect(await widgetCall(shop, created.publishableKey)).toEqual({ status: 200, market: true });
    expect(await widgetCall(other, created.publishableKey)).toMatchObject({ refused: expect.any(String) });
  });

  await test.step('rotate: a new key is shown, the old one is refused (the widget reads the 401)', async () => {
    const row = page.getByTestId('publishable-key-live');
    await hydrated(page, '[data-testid="publishable-keys"] button');
    await row.getByRole('button', { name: /^Rotate pk_live_/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate key' }).click();
    await expect(row).not.toContainText(created.publishableKey);
    const rotated = (await row.getByTestId('publishable-key-value').textContent()) ?? '';
    expect(rotated).toMatch(/^pk_live_[A-Za-z0-9]{32}$/);
    expect(await widgetCall(shop, created.publishableKey)).toEqual({ status: 401, market: false });
    expect(await widgetCall(shop, rotated)).toEqual({ status: 200, market: true });
    await expect(page.getByTestId('publishable-key-test')).toContainText(created.testPublishableKey);
    await keysShot(page);
  });
  await context.close();
});
