import { expect, test } from './fixtures';
import {
  axe,
  call,
  createPartner,
  listTicket,
  payWithTestCard,
  pushCappedEurEvent,
  RUN,
  shot,
  signIn,
  syncedTicket,
} from './helpers';

/*
 * The dashboard's overview answers "how is the market doing?": a fan buys one ticket of
 * partner A through the real pages; staff open the overview, filter by A (and its event) and read the
 * sale; filtered by partner B (nothing sold) the figures change to the empty state. The database is
 * shared with other spec files, so the unfiltered figures are only checked to include the sale.
 */

test.use({ viewport: { width: 1366, height: 900 } });

test('staff read the market’s figures, filtered by partner and event', async ({ page, request, browser }) => {
  const SELLER = `ovw-seller-${RUN}@fans.test`;
  const BUYER = `ovw-buyer-${RUN}@fans.test`;
  const a = await createPartner(`Overview A ${RUN}`);
  const b = await createPartner(`Overview B ${RUN}`);
  const ref = `OVW-${RUN}`;
  await pushCappedEurEvent(request, a.apiKey, { ref, title: `Overview night ${RUN}`, description: 'A night.' });
  await pushCappedEurEvent(request, b.apiKey, { ref, title: `Other night ${RUN}`, description: 'Another.' });
  const ticketId = `OVW-T1-${RUN}`;
  const synced = await call(request, a.apiKey, 'POST', '/v1/sync/tickets', [
    syncedTicket(ref, ticketId, SELLER, { ticketAccess: { type: 'OTHER', locator: 'CODE-1' } }),
  ]);
  expect(synced.body?.data?.imported, JSON.stringify(synced.body)).toBe(1);
  await listTicket({ partnerId: a.partnerId, sellerEmail: SELLER, ticketId, price: '45' });

  await test.step('a fan buys the ticket on the market pages', async () => {
    const entry = await call(
      request,
      a.apiKey,
      'GET',
      `/v1/marketplace/buyingflow/url/entrypoint?externalReferenceEventId=${ref}&showId=1&returnTo=https%3A%2F%2Fpartner.example%2Fback`,
    );
    const u = new URL(entry.body.data as string);
    const fan = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await fan.goto(`${u.pathname}${u.search}&lang=en`);
    await fan.getByTestId('buy').first().click();
    await expect(fan).toHaveURL(/\/checkout\?listings=/);
    await fan.getByLabel('E-mail for your tickets').fill(BUYER);
    await fan.getByTestId('pay').click();
    await fan.waitForURL(/\/pay\/pay_/);
    await payWithTestCard(fan);
    await fan.waitForURL(/\/checkout\/bi_/);
    await expect(fan.getByTestId('purchase-success')).toBeVisible();
    await fan.context().close();
  });

  await test.step('staff sign in and see the sale in the last 30 days', async () => {
    await page.goto('/dashboard');
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
    await expect(page.getByTestId('partner-count')).toHaveText(/^[1-9]\d*$/);
    await expect(page.getByLabel('From', { exact: true })).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
    // Every partner's sales: at least this one.
    expect(Number((await page.getByTestId('overview-tickets').textContent())?.replace(/,/g, ''))).toBeGreaterThan(0);
    await expect(page.getByTestId('overview-gmv')).toContainText('EUR');
  });

  await test.step('filtered by partner A: exactly its one sale', async () => {
    await page.getByLabel('Partner', { exact: true }).selectOption(a.partnerId);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(new RegExp(`partner=${a.partnerId}`));
    await expect(page.getByTestId('overview-gmv')).toHaveText('45.00 EUR');
    await expect(page.getByTestId('overview-tickets')).toHaveText('1');
    await expect(page.getByTestId('overview-sell-through')).toHaveText('100.0 %');
    await expect(page.getByTestId('overview-price-to-face')).toHaveText('1.13 ×');
    await expect(page.getByTestId('overview-active')).toHaveText('0');
    await expect(page.getByTestId('overview-refunds')).toHaveText('0.00 EUR');
    // Encore's fees and the partner's apart, as the sale recorded them; no sale from before the split.
    await expect(page.getByTestId('overview-encore-fees')).toContainText('EUR');
    await expect(page.getByTestId('overview-partner-fees')).toContainText('EUR');
    await expect(page.getByTestId('overview-unsplit-fees')).toHaveCount(0);
    await expect(page.getByTestId('chart-tickets')).toBeVisible();
    await expect(page.getByTestId('chart-gmv-eur')).toBeVisible();
    await axe(page, 'overview filtered by partner');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'ops-overview-partner-390');
    await axe(page, 'overview at 390 px');
    await page.setViewportSize({ width: 1366, height: 900 });
    await shot(page, 'ops-overview-partner-1366');
  });

  await test.step('narrowed to the partner’s event: the same sale', async () => {
    await page.getByLabel('Event', { exact: true }).selectOption({ label: `Overview night ${RUN}` });
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/event=evt_/);
    await expect(page.getByTestId('overview-gmv')).toHaveText('45.00 EUR');
    await expect(page.getByTestId('overview-tickets')).toHaveText('1');
  });

  await test.step('filtered by partner B: none of A’s sale, the empty state', async () => {
    await page.goto(`/dashboard?partner=${b.partnerId}`);
    await expect(page.getByText('No sales in this range')).toBeVisible();
    await expect(page.getByTestId('overview-tickets')).toHaveText('0');
    await expect(page.getByTestId('overview-gmv')).toHaveText('—');
    await axe(page, 'overview empty state');
    await shot(page, 'ops-overview-empty-1366');
  });

  await test.step('a backwards range is refused at its field; an unknown partner is a 404', async () => {
    await page.goto(`/dashboard?from=2026-02-10&to=2026-02-01`);
    await expect(page.getByRole('alert').filter({ hasText: 'cannot be shown' })).toContainText(
      'to must be on or after from',
    );
    await expect(page.getByLabel('To', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    const missing = await page.goto('/dashboard?partner=ptr_nobody');
    expect(missing?.status()).toBe(404);
    const garbage = await page.goto('/dashboard?from=yesterday');
    expect(garbage?.status()).toBe(404);
  });
});
