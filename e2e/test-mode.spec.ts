import { expect, type Page, test } from './fixtures';
import { axe, call, createPartner, hydrated, pushUsdEvent, RUN, screenshot, signIn } from './helpers';

/*
 * Test mode, through HTTP against the server under test: a partner's test key (sk_test_…)
 * opens the same API on a data space of its own that the live key never sees (and the reverse); a fan
 * page reached through test data wears a "Test mode" ribbon, live pages none; staff wipe the test data
 * from the partner's dashboard page behind a confirmation, and the live data stays.
 */

const REF = `TM-${RUN}`;
const RETURN_TO = 'https://tickets.partner.example/events';

async function buyingPage(request: Parameters<typeof call>[0], key: string, ref: string): Promise<string> {
  const q = `externalReferenceEventId=${ref}&showId=1&returnTo=${encodeURIComponent(RETURN_TO)}`;
  const res = await call(request, key, 'GET', `/v1/marketplace/buyingflow/url/entrypoint?${q}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const url = new URL(res.body.data as string);
  return `${url.pathname}${url.search}`;
}

/** Screenshots of the page now open at a phone's and a laptop's width, into the test's output folder. */
async function ribbonShots(page: Page, name: string) {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 844 });
    await screenshot(page, test.info().outputPath(`${name}-${width}.png`));
  }
}

test("a test key's data is a 404 for the live key, and the reverse; /v1/me says the mode @database-flow", async ({
  request,
}) => {
  const p = await createPartner(`E2E test mode ${RUN}`);
  expect(p.testApiKey).toMatch(/^sk_test_/);
  expect(p.testChannelsApiKey).toMatch(/^sk_test_ch_/);
  const me = await call(request, p.testApiKey, 'GET', '/v1/me');
  expect(me.body.data).toMatchObject({ partnerId: p.testPartnerId, mode: 'test', keyKind: 'partner' });
  expect((await call(request, p.apiKey, 'GET', '/v1/me')).body.data).toMatchObject({ mode: 'live' });

  await pushUsdEvent(request, p.testApiKey, `${REF}-test`, 'Test-only night');
  await pushUsdEvent(request, p.apiKey, `${REF}-live`, 'Live-only night');
  for (const [owner, other, ref] of [
    [p.testApiKey, p.apiKey, `${REF}-test`],
    [p.apiKey, p.testApiKey, `${REF}-live`],
  ]) {
    // The event exists for its owner…
    const own = await call(request, owner, 'PUT', '/v1/events', { externalReferenceId: ref, title: 'Renamed' });
    expect(own.status).toBe(200);
    // …and is a 404 for the other mode's key, on every call that names it.
    const update = await call(request, other, 'PUT', '/v1/events', { externalReferenceId: ref, title: 'x' });
    expect(update.status).toBe(404);
    expect(update.body.errors.code).toBe('NOT_FOUND');
    const cancel = await call(request, other, 'POST', `/v1/events/${ref}/cancellation`);
    expect(cancel.status).toBe(404);
    const url = await call(
      request,
      other,
      'GET',
      `/v1/marketplace/buyingflow/url/entrypoint?externalReferenceEventId=${ref}&showId=1&returnTo=${encodeURIComponent(RETURN_TO)}`,
    );
    expect(url.status).toBe(404);
  }
});

test('a fan page reached through test data shows the Test mode ribbon, in English and Spanish; live pages none', async ({
  page,
  request,
}) => {
  const p = await createPartner(`E2E ribbon ${RUN}`);
  await pushUsdEvent(request, p.testApiKey, `${REF}-ribbon`, 'Sandbox Night');
  await pushUsdEvent(request, p.apiKey, `${REF}-ribbon`, 'Real Night');
  const testPage = await buyingPage(request, p.testApiKey, `${REF}-ribbon`);
  const livePage = await buyingPage(request, p.apiKey, `${REF}-ribbon`);
  expect(testPage).not.toBe(livePage);

  const en = new URL(testPage, 'http://x');
  en.searchParams.set('lang', 'en');
  await page.goto(`${en.pathname}${en.search}`);
  await expect(page.getByRole('heading', { name: 'Sandbox Night' })).toBeVisible();
  const ribbon = page.getByTestId('test-mode-ribbon');
  await expect(ribbon).toBeVisible();
  await expect(ribbon).toHaveText(/Test mode.*nothing here is real/i);
  await expect(page.getByRole('note', { name: 'Test mode' })).toBeVisible();
  await axe(page, 'test-mode ribbon (en)');
  await ribbonShots(page, 'test-mode-ribbon-en');

  en.searchParams.set('lang', 'es');
  await page.goto(`${en.pathname}${en.search}`);
  await expect(page.getByRole('note', { name: 'Modo de prueba' })).toHaveText(/Modo de prueba.*no se mueve dinero/);
  await ribbonShots(page, 'test-mode-ribbon-es');

  await page.goto(livePage);
  await expect(page.getByRole('heading', { name: 'Real Night' })).toBeVisible();
  await expect(page.getByTestId('test-mode-ribbon')).toHaveCount(0);
});

test('staff wipe a partner’s test data from its page, behind a confirmation; live data stays', async ({
  page,
  request,
}) => {
  const p = await createPartner(`E2E wipe ${RUN}`);
  await pushUsdEvent(request, p.testApiKey, `${REF}-wipe`, 'To be wiped');
  await pushUsdEvent(request, p.apiKey, `${REF}-wipe`, 'Stays live');

  await page.goto(`/dashboard/partners/${p.partnerId}#test-mode`);
  await signIn(page);
  await hydrated(page, '[data-testid="test-mode"]');
  const section = page.getByTestId('test-mode');
  await expect(section).toContainText(p.testPartnerId);
  await expect(page.getByTestId('keys-test')).toContainText('sk_test_');

  await section.getByRole('button', { name: 'Wipe test data' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Wipe all test data?' });
  await expect(dialog).toBeVisible();
  // Cancelling wipes nothing.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(
    (await call(request, p.testApiKey, 'PUT', '/v1/events', { externalReferenceId: `${REF}-wipe`, title: 'Again' }))
      .status,
  ).toBe(200);

  await section.getByRole('button', { name: 'Wipe test data' }).click();
  await dialog.getByRole('button', { name: 'Wipe test data' }).click();
  await expect(page.getByTestId('wipe-result')).toContainText('1 event, 0 tickets, 0 listings');

  // The test key still works, on an empty space; the live event is untouched.
  const gone = await call(request, p.testApiKey, 'PUT', '/v1/events', {
    externalReferenceId: `${REF}-wipe`,
    title: 'Again',
  });
  expect(gone.status).toBe(404);
  expect((await call(request, p.testApiKey, 'GET', '/v1/me')).status).toBe(200);
  const kept = await call(request, p.apiKey, 'PUT', '/v1/events', {
    externalReferenceId: `${REF}-wipe`,
    title: 'Again',
  });
  expect(kept.status).toBe(200);

  // The twin's own pages: marked as test data, with the way back to the live partner.
  await section.getByRole('link', { name: 'Open test data' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${p.testPartnerId}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Test mode');
  await expect(page.getByTestId('live-partner-link')).toHaveAttribute('href', `/dashboard/partners/${p.partnerId}`);
});
