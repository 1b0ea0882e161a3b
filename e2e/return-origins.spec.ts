import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from './fixtures';
import { baseURL, call, createPartner, hydrated, pushUsdEvent, RUN, setUp, signIn } from './helpers';

/*
 * A partner's allowed return origins, set by staff in the dashboard,
 * decide where a fan's back link may lead (another origin: 400 on the partner API, no back link on the
 * page) and who may frame the buy, resale entry and sell pages. Checkout, payment and the dashboard are
 * never framed.
 */

const REF = `RO-${RUN}`;
const ALLOWED = 'https://tickets.partner.example';
const EVIL = 'https://evil.example/phish';

/** A site on loopback that frames the URL it is given in `?src=` (the partner's site embedding Encore). */
let framer: http.Server;
let framerOrigin = '';
test.beforeAll(async () => {
  framer = http.createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>Partner site</title><iframe src="${src.replace(/"/g, '&quot;')}"></iframe>`);
  });
  await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
  framerOrigin = `http://127.0.0.1:${(framer.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  framer?.closeAllConnections();
  await new Promise<void>((resolve) => framer?.close(() => resolve()));
});

function headersOf(res: { headers(): Record<string, string> }) {
  const h = res.headers();
  return {
    framing: /frame-ancestors ([^;]+)/.exec(h['content-security-policy'] ?? '')?.[1],
    xfo: h['x-frame-options'],
  };
}

async function saveOrigins(page: Page, text: string) {
  const form = page.getByRole('form', { name: 'Allowed return origins' });
  await form.getByLabel('Allowed return origins').fill(text);
  await form.getByRole('button', { name: 'Save return origins' }).click();
  return form;
}

// The framed checkout's refusal is provoked on purpose; any other violation still fails the test.
test.use({
  allowedCspViolations: [
    /^Framing '[^']*' violates the following Content Security Policy directive: "frame-ancestors 'none'"/,
  ],
});

test("staff set a partner's return origins: other returnTo refused and not shown, framing only by them", async ({
  page,
  request,
  browser,
}) => {
  const { partnerId, apiKey } = await createPartner(`E2E Origins ${RUN}`);
  await pushUsdEvent(request, apiKey, REF, `Origins ${RUN}`);
  const ticket = { externalReferenceEventId: REF, showId: '1', ticketOptionId: 'GA', ticketId: `T-${RUN}` };
  const synced = await call(request, apiKey, 'POST', '/v1/sync/tickets', [
    { ...ticket, buyer: { email: `ro-${RUN}@fans.test` }, ticketAccess: { type: 'OTHER', locator: 'C' } },
  ]);
  expect(synced.status, JSON.stringify(synced.body)).toBe(200);
  const entry = (returnTo: string) =>
    call(
      request,
      apiKey,
      'GET',
      `/v1/marketplace/buyingflow/url/entrypoint?externalReferenceEventId=${REF}&showId=1&returnTo=${encodeURIComponent(returnTo)}`,
    );
  const sell = await call(request, apiKey, 'GET', `/v1/marketplace/sellingflow/url/entrypoint?ticketId=T-${RUN}`);
  const evilEntry = await entry(EVIL);
  expect(evilEntry.status).toBe(200);
  const market = new URL(evilEntry.body.data).pathname;
  const embeddable = [market, new URL(sell.body.data).pathname, `/resale/${partnerId}`];

  await test.step('no origins yet: no back link to another site, a warning on the partner page, no framing', async () => {
    await page.goto(evilEntry.body.data);
    await expect(page.getByRole('heading', { name: `Origins ${RUN}` })).toBeVisible();
    await expect(page.getByTestId('return-to')).toHaveCount(0);
    // Its support page names its own site: the back link leads there instead (once the page, shared for a
    // moment, is drawn again).
    await setUp('partner-site', { partnerId, supportUrl: `${ALLOWED}/help` });
    await expect(async () => {
      await page.goto(evilEntry.body.data);
      await expect(page.getByTestId('return-to')).toHaveAttribute('href', `${ALLOWED}/`, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    for (const path of embeddable) {
      expect(headersOf(await request.get(path)), path).toEqual({ framing: "'none'", xfo: 'DENY' });
    }
    await page.goto(`/dashboard/partners/${partnerId}`);
    await signIn(page);
    await expect(page.getByTestId('return-origins-warning')).toContainText('set your allowed origins');
  });

  await test.step('the editor refuses a bad origin naming it, then saves the list; the warning goes', async () => {
    await hydrated(page, 'form[aria-label="Allowed return origins"]');
    const form = await saveOrigins(page, `${ALLOWED}\nhttps://tickets.partner.example/path`);
    await expect(form.locator('.field-error')).toContainText('https://tickets.partner.example/path');
    await expect(form.getByLabel('Allowed return origins')).toHaveAttribute('aria-invalid', 'true');
    await saveOrigins(page, `${ALLOWED}/\n${framerOrigin}`);
    await expect(form.getByText('Saved.')).toBeVisible();
    await expect(form.getByLabel('Allowed return origins')).toHaveValue(`${ALLOWED}\n${framerOrigin}`);
    await expect(page.getByTestId('return-origins-warning')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('return-origins-warning')).toHaveCount(0);
  });

  await test.step('another origin: a 400 naming returnTo, and no back link to it on the page', async () => {
    const refused = await entry(EVIL);
    expect(refused.status).toBe(400);
    expect(refused.body.errors.details[0]).toMatchObject({ path: 'returnTo', in: 'query' });
    await page.goto(evilEntry.body.data);
    await expect(page.getByRole('heading', { name: `Origins ${RUN}` })).toBeVisible();
    await expect(page.getByTestId('return-to')).toHaveCount(0);
    const allowed = await entry(`${ALLOWED}/my-tickets`);
    expect(allowed.status).toBe(200);
    await page.goto(allowed.body.data);
    await expect(page.getByTestId('return-to')).toHaveAttribute('href', `${ALLOWED}/my-tickets`);
  });

  await test.step('the embeddable pages may be framed by the origins only; checkout, pay and dashboard never', async () => {
    for (const path of embeddable) {
      expect(headersOf(await request.get(path)), path).toEqual({
        framing: `${ALLOWED} ${framerOrigin}`,
        xfo: undefined,
      });
    }
    for (const path of ['/checkout?listings=lst_none', '/checkout/bi_none', '/pay/pay_none', '/dashboard']) {
      expect(headersOf(await request.get(path, { maxRedirects: 0 })), path).toEqual({ framing: "'none'", xfo: 'DENY' });
    }
    // In a browser: the partner's site frames the buy page; the checkout in a frame is refused. The refusal is
    // a CSP report in the console, which is the point here (allowed below), not a page's fault.
    const context = await browser.newContext();
    const refusals: string[] = [];
    context.on('console', (m) => {
      if (/frame-ancestors/.test(m.text())) refusals.push(m.text());
    });
    const site = await context.newPage();
    await site.goto(`${framerOrigin}/?src=${encodeURIComponent(`${baseURL}${market}`)}`);
    await expect(site.frameLocator('iframe').getByRole('heading', { name: `Origins ${RUN}` })).toBeVisible();
    expect(refusals).toEqual([]);
    await site.goto(`${framerOrigin}/?src=${encodeURIComponent(`${baseURL}/checkout?listings=lst_none`)}`);
    await expect.poll(() => refusals.length).toBeGreaterThan(0);
    await context.close();
  });
});
