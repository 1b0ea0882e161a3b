import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from './fixtures';
import { call, hydrated, RUN, createPartnerOnDashboard } from './helpers';

const REF_A = `SUP-A-${RUN}`;
const REF_B = `SUP-B-${RUN}`;
const EMAIL = `support-${RUN}@fans.test`;

const event = (ref: string, description: string) => ({
  title: `Support ${ref}`,
  description,
  externalReferenceId: ref,
  location: { city: 'Lima', venueName: 'Estadio Nacional' },
  configuration: {},
  shows: [
    {
      title: 'Night',
      showId: `${ref}-S`,
      date: '2027-09-10T21:00:00-03:00',
      images: [],
      configuration: {},
      ticketOptions: [{ title: 'General', ticketId: 'GA', description: 'Standing', currency: 'USD', price: 50 }],
    },
  ],
});

const ticket = (ref: string, ticketId: string, extra: Record<string, unknown> = {}) => ({
  externalReferenceEventId: ref,
  ticketId,
  buyer: { email: EMAIL },
  ticketAccess: { type: 'OTHER', locator: `CODE-${ticketId}` },
  ticketOptionId: 'GA',
  ...extra,
});

/** Console errors and page errors (hydration mismatches surface as these). */
function watchConsole(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`${page.url()}: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/status of 404/.test(msg.text())) errors.push(`${page.url()}: ${msg.text()}`);
  });
  return errors;
}

let receiver: http.Server;
let receiverUrl = '';
test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
test.afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

test('support finds tickets, reads their history, batches, webhook headers and safe descriptions', async ({
  page,
  request,
}) => {
  let partnerId = '';
  let apiKey = '';
  const errors = watchConsole(page);

  await test.step('sign in, create a partner; the favicon is served', async () => {
    ({ partnerId, apiKey } = await createPartnerOnDashboard(page, `E2E Support ${RUN}`));
    const icon = await request.get('/icon.svg');
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toContain('image/svg+xml');
    await expect(page.locator('link[rel="icon"]')).toHaveCount(1);
  });

  await test.step('the partner page has an in-page navigation to its sections', async () => {
    const nav = page.getByRole('navigation', { name: 'Partner sections' });
    for (const label of ['Keys', 'Integration', 'Fees', 'Webhooks', 'Catalogue', 'Settings']) {
      await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
    }
    // Every section has loaded (no skeleton left): a section above still loading would grow after the jump
    // and push the target out of view, which is the page settling, not the navigation failing.
    await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
    await nav.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await expect(page).toHaveURL(/#webhooks$/);
    await expect(page.getByTestId('webhooks')).toBeInViewport();
    await expect(nav).toBeInViewport(); // sticky
    for (const id of ['keys', 'integration', 'fees', 'webhooks', 'catalogue']) {
      await expect(page.locator(`#${id}`)).toHaveCount(1);
    }
  });

  await test.step('the partner pushes two events; the description renders sanitised', async () => {
    const description = `<b>Bold night</b><script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2">`;
    expect((await call(request, apiKey, 'POST', '/v1/events', event(REF_A, description))).status).toBe(200);
    expect((await call(request, apiKey, 'POST', '/v1/events', event(REF_B, 'Plain'))).status).toBe(200);
    await page.goto(`/dashboard/partners/${partnerId}/events`);
    await page.getByRole('link', { name: `Support ${REF_A}` }).click();
    const desc = page.getByTestId('event-description');
    await expect(desc.locator('b')).toHaveText('Bold night');
    expect(await desc.locator('b').evaluate((el) => getComputedStyle(el).fontWeight)).toMatch(/^(700|bold)$/);
    await expect(desc.locator('script, img')).toHaveCount(0);
    await expect(desc).not.toContainText('<b>');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  await test.step('a ticket page shows the ids, owner and history after import, PUT and admission', async () => {
    const sync = await call(request, apiKey, 'POST', '/v1/sync/tickets', [
      ticket(REF_A, `TA-${RUN}`),
      ticket(REF_B, `TB-${RUN}`),
    ]);
    expect(sync.status).toBe(200);
    const put = await call(request, apiKey, 'PUT', `/v1/tickets/TA-${RUN}`, {
      ticketAccess: { type: 'OTHER', locator: 'NEW-CODE' },
    });
    expect(put.status).toBe(200);
    expect((await call(request, apiKey, 'POST', `/v1/tickets/TA-${RUN}/eventAdmission`)).status).toBe(200);

    await page.goto(`/dashboard/partners/${partnerId}`);
    await hydrated(page, 'form[role="search"]');
    const box = page.getByRole('searchbox', { name: 'Find a ticket' });
    await box.fill(`TA-${RUN}`);
    await box.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/tickets\\?q=TA-${RUN}$`));
    await page.getByRole('link', { name: `TA-${RUN}` }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`TA-${RUN}`);
    const ids = page.getByTestId('ticket-ids');
    await expect(ids).toContainText(REF_A);
    await expect(ids).toContainText(`${REF_A}-S`);
    await expect(ids).toContainText('GA');
    await expect(page.getByTestId('ticket-buyer')).toContainText(EMAIL);
    await expect(page.getByTestId('secure-view-link')).toHaveAttribute('href', /\/t\/[0-9a-f]{64}$/);
    const history = page.getByTestId('ticket-history').locator('tr');
    await expect(history).toHaveCount(3);
    await expect(history.nth(0)).toContainText('Imported');
    await expect(history.nth(1)).toContainText('Updated');
    await expect(history.nth(2)).toContainText('Admitted');
    await expect(history.nth(2)).toContainText('UTC');
  });

  await test.step('search by buyer e-mail finds the tickets of both events', async () => {
    await page.goto(`/dashboard/partners/${partnerId}/tickets?q=${encodeURIComponent(EMAIL.toUpperCase())}`);
    const rows = page.getByRole('table', { name: 'Tickets found' }).locator('tbody tr');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(REF_A);
    await expect(rows.nth(1)).toContainText(REF_B);
  });

  await test.step('a batch whose tickets all fail says Failed; the ticket page links a batch it came from', async () => {
    const bad = await call(request, apiKey, 'POST', '/v1/tickets', [
      ticket(REF_A, `BAD1-${RUN}`, { ticketOptionId: 'NOPE' }),
      ticket(REF_A, `BAD2-${RUN}`, { ticketOptionId: 'NOPE' }),
    ]);
    expect(bad.status).toBe(200);
    const good = await call(request, apiKey, 'POST', '/v1/tickets', [ticket(REF_B, `OK-${RUN}`)]);
    for (const id of [bad.body.data.batchId, good.body.data.batchId]) {
      await expect
        .poll(async () => (await call(request, apiKey, 'GET', `/v1/tickets/batches/${id}`)).body.data.status, {
          timeout: 20_000,
        })
        .toBe('completed');
    }
    await page.goto(`/dashboard/partners/${partnerId}/batches/${bad.body.data.batchId}`);
    // The Progress card's status badge: red "Failed", not an amber "Completed".
    const badge = page.locator('.card-actions .badge');
    await expect(badge).toHaveText('Failed');
    await expect(badge).toHaveClass(/badge-danger/);

    await page.goto(`/dashboard/partners/${partnerId}/tickets?q=OK-${RUN}`);
    await page.getByRole('link', { name: `OK-${RUN}` }).click();
    await page.getByTestId('ticket-batch').click();
    await expect(page).toHaveURL(new RegExp(`/batches/${good.body.data.batchId}$`));
  });

  await test.step('the webhook message page shows the headers sent, signature included, without hydration errors', async () => {
    await page.goto(`/dashboard/partners/${partnerId}#webhooks`);
    const section = page.getByTestId('webhooks');
    await hydrated(page, '[data-testid="webhooks"] form');
    await section.getByLabel('Receiver URL').fill(receiverUrl);
    await section.getByRole('button', { name: 'Create endpoint' }).click();
    await section.getByRole('button', { name: 'I have copied it' }).click();
    await section.getByRole('button', { name: 'Send test message' }).click();
    await expect(section.getByText('Test message queued')).toBeVisible();
    errors.length = 0;
    await page.goto(`/dashboard/partners/${partnerId}/webhooks`);
    const row = page.locator('tr[data-message-id]').first();
    await expect(async () => {
      await page.reload();
      await expect(row).toContainText('Delivered', { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await row.getByRole('link').first().click();
    await expect(page).toHaveURL(/\/webhooks\/msg_\w+$/);
    const headers = page.getByTestId('attempt-headers').first();
    await headers.locator('summary').click();
    await expect(headers).toContainText(/webhook-signature: v1,\S+/);
    await expect(headers).toContainText(/webhook-id: msg_\w+/);
    await page.reload();
    await hydrated(page, 'main');
    await expect(page.getByTestId('attempt-headers').first()).toBeVisible();
    expect(errors.filter((e) => /hydrat|did not match|Minified React error #418/i.test(e))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
