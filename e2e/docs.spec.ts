import { expect, type Page, test } from './fixtures';
import { axe, hydrated, PRESENTATION, shot } from './helpers';

// The API reference must be readable on a phone: 390 px wide, no sideways page scroll.
test.use({ viewport: { width: 390, height: 844 } });

/** Wide content (code, tables) scrolls inside its own box, never the page. */
async function noSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, page.url()).toBeLessThanOrEqual(widths.client);
}

test(
  'the API reference at 390 px: no horizontal scroll, examples and curl lines shown',
  PRESENTATION,
  async ({ page }) => {
    await page.goto('/docs');
    await expect(page.getByRole('heading', { level: 1, name: 'Encore partner API' })).toBeVisible();
    await noSidewaysScroll(page);

    // The guide sections stay on the overview.
    await expect(page.getByLabel('Example 429 answer', { exact: true })).toContainText('"RATE_LIMITED"');
    await expect(page.getByLabel('Verifying a webhook in Node', { exact: true })).toContainText('timingSafeEqual');
    await expect(page.getByLabel('Verification answer', { exact: true })).toContainText('"userEmail"');
    await expect(page.getByRole('heading', { name: 'Versioning and changelog' })).toBeVisible();
    await shot(page, 'docs-390');

    // Each operation is one link away, on a page of its own.
    await page.getByRole('link', { name: /^POST \/v1\/events Create an event/ }).click();
    await expect(page).toHaveURL(/\/docs\/operations\/createEvent$/);
    await expect(page.getByRole('heading', { level: 1, name: 'POST /v1/events' })).toBeVisible();
    await noSidewaysScroll(page);

    const op = page.locator('section#createEvent');
    const curl = op.getByLabel('curl for createEvent', { exact: true });
    await expect(curl).toContainText("curl -X POST '");
    await expect(curl).toContainText('/v1/events');
    await expect(curl).toContainText('Authorization: $ENCORE_KEY');
    await expect(op.getByLabel('Request example for createEvent', { exact: true })).toContainText(
      '"externalReferenceId": "evt-2026-0042"',
    );
    await expect(op.getByLabel('Response example for createEvent', { exact: true })).toContainText(
      '"showRescheduled": false',
    );

    // The curl block is wider than the phone, so it must scroll inside itself.
    const box = await curl.evaluate((el) => ({
      scroll: el.scrollWidth,
      client: el.clientWidth,
      overflow: getComputedStyle(el).overflowX,
    }));
    expect(box.scroll).toBeGreaterThan(box.client);
    expect(box.overflow).toBe('auto');
    // Fields and parameters are cards on a phone: still axe-clean.
    await axe(page, 'an operation at 390 px');
    await shot(page, 'docs-operation-390');

    // The anchor-shaped ticket example.
    await page.goto('/docs/operations/syncTickets');
    await expect(page.getByLabel('Request example for syncTickets', { exact: true })).toContainText('"nominalTicket"');
    await noSidewaysScroll(page);
  },
);

test('the wide reference: the menu beside the page, the current operation marked', PRESENTATION, async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 844 });
  await page.goto('/docs');
  const menu = page.getByRole('navigation', { name: 'API reference' });
  await expect(menu).toBeInViewport();
  await noSidewaysScroll(page);
  await axe(page, 'the overview');
  await shot(page, 'docs-1366');

  await page.goto('/docs/operations/putInventory');
  await expect(
    menu.getByRole('link', { name: 'PUT /v1/marketdata/events/{externalReferenceId}/inventory', exact: true }),
  ).toHaveAttribute('aria-current', 'page');
  await expect(menu).toBeInViewport();
  await noSidewaysScroll(page);
  await axe(page, 'an operation');
  await shot(page, 'docs-operation-1366');
  // Its neighbours in the index's order, and the way back to its tag.
  await expect(page.getByRole('link', { name: /^Previous/ })).toHaveAttribute('href', /\/docs\/operations\/\w+$/);
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Market data' }).click();
  await expect(page).toHaveURL(/\/docs#tag-market-data$/);
  await expect(page.getByRole('heading', { level: 3, name: 'Market data' })).toBeInViewport();
});

test('every page of the reference is at most 200 KB of HTML; an unknown operation is a 404', async ({ request }) => {
  const doc = await (await request.get('/v1/openapi.json')).json();
  const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((methods) =>
    Object.values(methods).map((op) => op.operationId),
  );
  expect(ids.length).toBeGreaterThan(30);
  const sizes: [string, number][] = [];
  for (const url of ['/docs', ...ids.map((id) => `/docs/operations/${id}`)]) {
    const res = await request.get(url);
    expect(res.status(), url).toBe(200);
    // The document as the server sent it, uncompressed.
    sizes.push([url, (await res.body()).byteLength]);
  }
  sizes.sort((a, b) => b[1] - a[1]);
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  console.log(
    `docs HTML: /docs ${kb(sizes.find(([u]) => u === '/docs')![1])}; ${ids.length} operation pages, largest ` +
      sizes
        .filter(([u]) => u !== '/docs')
        .slice(0, 3)
        .map(([u, n]) => `${u} ${kb(n)}`)
        .join(', '),
  );
  for (const [url, bytes] of sizes) expect(bytes, url).toBeLessThanOrEqual(200_000);

  const unknown = await request.get('/docs/operations/noSuchOperation');
  expect(unknown.status()).toBe(404);
});

test('the operations search filters as you type and works from the keyboard', async ({ page }) => {
  await page.goto('/docs#operations');
  const search = page.getByRole('searchbox', { name: 'Search operations' });
  await hydrated(page, '#operation-search');
  const results = page.locator('#operation-results');
  const count = page.locator('#operation-search-count');
  const all = await results.getByRole('link').count();
  await expect(count).toHaveText(`${all} operations.`);

  await search.fill('inventory');
  await expect(
    results.getByRole('link', { name: /^PUT \/v1\/marketdata\/events\/\{externalReferenceId\}\/inventory Report/ }),
  ).toBeVisible();
  await expect(results.getByRole('link', { name: /^POST \/v1\/events / })).toHaveCount(0);
  const matched = await results.getByRole('link').count();
  expect(matched).toBeGreaterThan(0);
  expect(matched).toBeLessThan(all);
  await expect(count).toHaveText(`${matched} of ${all} operations match.`);

  // By path and method, by operationId, by tag; every word must match.
  await search.fill('post /v1/events');
  await expect(results.getByRole('link', { name: /^POST \/v1\/events Create/ })).toBeVisible();
  await expect(results.getByRole('link', { name: /^PUT \/v1\/events / })).toHaveCount(0);
  await search.fill('syncTickets');
  await expect(results.getByRole('link')).toHaveCount(1);
  await search.fill('channels listing');
  await expect(results.getByRole('heading', { level: 3 })).toHaveText(['Channels']);
  await search.fill('no such thing');
  await expect(results.getByRole('link')).toHaveCount(0);
  await expect(count).toHaveText(`0 of ${all} operations match.`);

  // Escape empties the box; ↓ goes to the results, ↑ back; Enter in the box opens the first result.
  await search.press('Escape');
  await expect(search).toHaveValue('');
  await expect(results.getByRole('link')).toHaveCount(all);
  await search.fill('admit');
  await search.press('ArrowDown');
  await expect(results.getByRole('link').first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(results.getByRole('link').nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(search).toBeFocused();
  const first = await results.getByRole('link').first().getAttribute('href');
  await search.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${first}$`));
});

test('without JavaScript: the whole index, and the search as a form the server answers', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto('/docs');
  const results = page.locator('#operation-results');
  const all = await results.getByRole('link').count();
  expect(all).toBeGreaterThan(30);
  const search = page.getByRole('searchbox', { name: 'Search operations' });
  await search.fill('inventory');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/docs\?q=inventory#operations$/);
  await expect(search).toHaveValue('inventory');
  await expect(
    results.getByRole('link', { name: /^PUT \/v1\/marketdata\/events\/\{externalReferenceId\}\/inventory Report/ }),
  ).toBeVisible();
  expect(await results.getByRole('link').count()).toBeLessThan(all);
  await context.close();
});

test('the old in-page addresses of operations still lead to them', async ({ page, browser }) => {
  // /docs#createEvent was the operation's section when the reference was one page: now its own page.
  await page.goto('/docs#createEvent');
  await expect(page).toHaveURL(/\/docs\/operations\/createEvent$/);
  await expect(page.locator('section#createEvent')).toBeVisible();
  // The guide's anchors stay where they were.
  await page.goto('/docs#errors');
  await expect(page).toHaveURL(/\/docs#errors$/);

  // Without JavaScript the address lands on the operation's entry in the index.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const noScript = await context.newPage();
  await noScript.goto('/docs#putInventory');
  await expect(noScript.locator('li#putInventory').getByRole('link')).toHaveAttribute(
    'href',
    '/docs/operations/putInventory',
  );
  await context.close();
});

test('a code block is copied by its button, from the keyboard, and says so', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/docs/operations/createEvent');
  const copy = page.getByRole('button', { name: 'Copy curl for createEvent' });
  await hydrated(page, 'section#createEvent button');
  await copy.focus();
  await page.keyboard.press('Enter');
  await expect(copy).toHaveText('Copied');
  // Said to a screen reader too: the text changes inside a live region.
  await expect(copy.locator('[aria-live="polite"]')).toHaveText('Copied');
  const shown = await page.getByLabel('curl for createEvent', { exact: true }).innerText();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
  expect(shown).toMatch(/^curl -X POST '/);
  await expect(copy).toHaveText('Copy', { timeout: 5_000 });

  await page.getByRole('button', { name: 'Copy Response example for createEvent' }).click();
  expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText())).status).toBe(200);
});

test('the document behind it carries the same examples', async ({ request }) => {
  const res = await request.get('/v1/openapi.json');
  expect(res.status()).toBe(200);
  const doc = await res.json();
  const op = doc.paths['/v1/events'].post;
  expect(op.requestBody.content['application/json'].examples.default.value.externalReferenceId).toBe('evt-2026-0042');
  expect(op.responses['200'].content['application/json'].examples.default.value.status).toBe(200);
  expect(op['x-curl']).toMatch(/^curl -X POST '/);
});
