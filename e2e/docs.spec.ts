import { expect, test } from './fixtures';
import { PRESENTATION, shot } from './helpers';

// The API reference must be readable on a phone: 390 px wide, no sideways page scroll.
test.use({ viewport: { width: 390, height: 844 } });

test(
  'the API reference at 390 px: no horizontal scroll, examples and curl lines shown',
  PRESENTATION,
  async ({ page }) => {
    await page.goto('/docs');
    await expect(page.getByRole('heading', { level: 1, name: 'Encore partner API' })).toBeVisible();

    // Wide content (code, tables) scrolls inside its own box, never the page.
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);

    const op = page.locator('section#createEvent');
    const curl = op.getByLabel('curl for createEvent');
    await curl.scrollIntoViewIfNeeded();
    await expect(curl).toContainText("curl -X POST '");
    await expect(curl).toContainText('/v1/events');
    await expect(curl).toContainText('Authorization: $ENCORE_KEY');
    await expect(op.getByLabel('Request example for createEvent')).toContainText(
      '"externalReferenceId": "evt-2026-0042"',
    );
    await expect(op.getByLabel('Response example for createEvent')).toContainText('"showRescheduled": false');

    // The curl block is wider than the phone, so it must scroll inside itself.
    const box = await curl.evaluate((el) => ({
      scroll: el.scrollWidth,
      client: el.clientWidth,
      overflow: getComputedStyle(el).overflowX,
    }));
    expect(box.scroll).toBeGreaterThan(box.client);
    expect(box.overflow).toBe('auto');

    // The anchor-shaped ticket example and the other guide sections.
    await expect(page.getByLabel('Request example for syncTickets')).toContainText('"nominalTicket"');
    await expect(page.getByLabel('Example 429 answer')).toContainText('"RATE_LIMITED"');
    await expect(page.getByLabel('Verifying a webhook in Node')).toContainText('timingSafeEqual');
    await expect(page.getByLabel('Verification answer')).toContainText('"userEmail"');
    await expect(page.getByRole('heading', { name: 'Versioning and changelog' })).toBeVisible();
    await shot(page, 'docs-390');
  },
);

test('the document behind it carries the same examples', async ({ request }) => {
  const res = await request.get('/v1/openapi.json');
  expect(res.status()).toBe(200);
  const doc = await res.json();
  const op = doc.paths['/v1/events'].post;
  expect(op.requestBody.content['application/json'].examples.default.value.externalReferenceId).toBe('evt-2026-0042');
  expect(op.responses['200'].content['application/json'].examples.default.value.status).toBe(200);
  expect(op['x-curl']).toMatch(/^curl -X POST '/);
});
