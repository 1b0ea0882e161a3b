import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from './fixtures';
import {
  axe,
  baseURL,
  buyIntention,
  createPartner,
  listTicket,
  payWithTestCard,
  pushCappedEurEvent,
  RUN,
  setUp,
  shot,
  signIn,
  syncedTicket,
  syncTickets,
} from './helpers';

const NAME = `Money Partner ${RUN}`;
const REF = `MONEY-${RUN}`;
const SELLER = `money-seller-${RUN}@fans.test`;
const BUYER = `money-buyer-${RUN}@fans.test`;

async function screenshots(page: Page, name: string) {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('staff reconcile a partner’s week to the cent, see what is owed to sellers and export its purchases', async ({
  page,
  request,
}) => {
  const { partnerId, apiKey } = await createPartner(NAME);
  const paymentIds: string[] = [];

  await test.step('two tickets are bought through the real flow, with a 10 % buyer fee', async () => {
    await setUp('market-terms', { partnerId, buyerFeePercent: 10 });
    await pushCappedEurEvent(request, apiKey, { ref: REF, title: `Money Night ${RUN}`, description: 'd' });
    await syncTickets(
      request,
      apiKey,
      ['M1', 'M2'].map((ticketId) => syncedTicket(REF, ticketId, SELLER, { price: 40 })),
    );
    for (const [ticketId, price] of [
      ['M1', '45'],
      ['M2', '40'],
    ]) {
      const { listingId } = await listTicket({ partnerId, sellerEmail: SELLER, ticketId, price });
      const { paymentUrl } = await buyIntention(request, apiKey, [listingId], BUYER);
      paymentIds.push(new URL(paymentUrl).pathname.split('/').pop() ?? '');
      await page.goto(paymentUrl.replace(/^https?:\/\/[^/]+/, ''));
      await payWithTestCard(page, 'Bea Buyer');
      await expect(page.getByTestId('purchase-success')).toContainText(BUYER);
    }
  });

  await test.step('the partner’s page leads staff to its money page', async () => {
    await page.goto(`/dashboard/partners/${partnerId}`);
    await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
    await signIn(page);
    await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${partnerId}$`));
    await page.getByRole('link', { name: 'Money and exports' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/money\\?partner=${partnerId}$`));
    await expect(page.getByRole('link', { name: 'Money', exact: true })).toHaveAttribute('aria-current', 'page');
  });

  await test.step('this week balances to the cent and the payouts owed are shown', async () => {
    const total = page.getByTestId('money-total');
    await expect(total).toHaveCount(1);
    // 49.50 + 44.00 captured = 85.00 to the seller + 8.50 Encore's buyer fee; nothing refunded.
    await expect(total).toContainText(NAME);
    await expect(total.locator('td').nth(1)).toHaveText('2');
    await expect(total.locator('td').nth(2)).toHaveText('93.50 EUR');
    await expect(total.locator('td').nth(3)).toHaveText('85.00 EUR');
    await expect(total.locator('td').nth(4)).toHaveText('8.50 EUR');
    await expect(total.locator('td').nth(5)).toHaveText('0.00 EUR');
    await expect(total.locator('td').nth(6)).toHaveText('0.00 EUR');
    await expect(page.getByTestId('money-difference')).toHaveText('0.00 EUR Balanced');
    await expect(page.getByText('Balances to the cent')).toBeVisible();
    await expect(page.getByText('Every one of the 2 captured payments balances.')).toBeVisible();
    const owed = page.getByTestId('payout-state');
    await expect(owed).toHaveCount(1);
    // The show is in 2027: both payouts are owed, due after this week.
    await expect(owed).toContainText('Scheduled later');
    await expect(owed.locator('td').nth(2)).toHaveText('2');
    await expect(owed.locator('td').nth(3)).toHaveText('85.00 EUR');
    await axe(page, 'money page');
    await screenshots(page, 'ops-money');
  });

  await test.step('the purchases CSV of the week holds both payments', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download purchases CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^purchases-${partnerId}-\\d{4}-\\d{2}-\\d{2}-`));
    const lines = (await readFile(await download.path(), 'utf8')).split('\r\n').filter(Boolean);
    // UTF-8's byte-order mark first (a spreadsheet program reads accents right), then the header.
    expect(lines[0]).toBe(
      '\uFEFFpaymentId,intentionId,paidAt,buyerEmail,purchaseStatus,paymentStatus,listingIds,subtotal,buyerFee,total,captured,refunded,currency,refundReason',
    );
    expect(lines).toHaveLength(3);
    for (const id of paymentIds) {
      const line = lines.find((l) => l.startsWith(`${id},`));
      expect(line, id).toContain(`,${BUYER},COMPLETED,paid,`);
    }
    expect(
      lines
        .map((l) => l.split(',').slice(-5, -2).join(' '))
        .slice(1)
        .sort(),
    ).toEqual(['44 44 0', '49.5 49.5 0']);
  });

  await test.step('the export answers bad requests clearly', async () => {
    const exportUrl = (kind: string, query = 'from=2026-01-05&to=2026-01-11', partner = partnerId) =>
      `/dashboard/partners/${partner}/exports/${kind}?${query}`;
    const anonymous = await fetch(`${baseURL}${exportUrl('payouts')}`);
    expect(anonymous.status).toBe(401);
    const staff = page.request;
    const unknownKind = await staff.get(exportUrl('invoices'));
    expect([unknownKind.status(), await unknownKind.text()]).toEqual([
      404,
      'No such export: invoices. Exports: listings, purchases, payouts, refunds.',
    ]);
    const badDate = await staff.get(exportUrl('refunds', 'from=2026-13-01&to=2026-01-11'));
    expect([badDate.status(), await badDate.text()]).toEqual([400, 'from is not a calendar date']);
    const noTo = await staff.get(exportUrl('refunds', 'from=2026-01-05'));
    expect([noTo.status(), await noTo.text()]).toEqual([400, 'to must be a date (YYYY-MM-DD)']);
    const unknownPartner = await staff.get(exportUrl('refunds', undefined, 'ptr_doesnotexist'));
    expect(unknownPartner.status()).toBe(404);
    const empty = await staff.get(exportUrl('payouts'));
    expect([empty.status(), await empty.text()]).toEqual([
      200,
      '\uFEFFpayoutId,createdAt,status,sellerEmail,amount,currency,dueAt,paidAt,listingId,intentionId,paymentId\r\n',
    ]);
  });

  await test.step('a bad date on the page is named on its field', async () => {
    await page.goto(`/dashboard/money?from=2026-02-30&to=2026-03-01&partner=${partnerId}`);
    await expect(page.getByText('The period was not read')).toBeVisible();
    await expect(page.getByText('from is not a calendar date', { exact: true })).toBeVisible();
    await axe(page, 'money page with a bad date');
  });
});
