import { expect, test } from './fixtures';
import {
  buyIntention,
  call,
  createPartner,
  hydrated,
  listTicket,
  payWithTestCard,
  RUN,
  shot,
  signIn,
  syncedTicket,
} from './helpers';

/*
 * A partner's market in the dashboard: terms, listings with filters, a purchase paid on the sandbox
 * checkout and refunded by staff behind a reason, the seller's payout cancelled. The partner comes from
 * the CLI, its catalogue and tickets from the partner API, the listing from a fixture script (fans list
 * in the selling flow).
 */

const REF_A = `MKT-A-${RUN}`;
const REF_B = `MKT-B-${RUN}`;
const SELLER = `seller-${RUN}@fans.test`;
const BUYER = `buyer-${RUN}@fans.test`;

const event = (ref: string) => ({
  title: `Market ${ref}`,
  description: 'Resale night',
  externalReferenceId: ref,
  location: { city: 'Lima', venueName: 'Estadio Nacional' },
  configuration: {},
  shows: [
    {
      title: 'Night',
      showId: '1',
      date: '2027-09-10T21:00:00-03:00',
      images: [],
      configuration: {},
      ticketOptions: [{ title: 'General', ticketId: 'GA', description: 'Standing', currency: 'USD', price: 50 }],
    },
  ],
});

test('staff set market terms, filter listings and refund a paid purchase behind a reason @database-flow', async ({
  page,
  request,
}) => {
  const { partnerId, apiKey } = await createPartner(`Market ${RUN}`);
  for (const ref of [REF_A, REF_B]) {
    const pushed = await call(request, apiKey, 'POST', '/v1/events', event(ref));
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
  }
  const tickets = [
    [REF_A, `MA-${RUN}`],
    [REF_B, `MB-${RUN}`],
  ].map(([ref, ticketId]) => syncedTicket(ref, ticketId, SELLER));
  expect((await call(request, apiKey, 'POST', '/v1/sync/tickets', tickets)).status).toBe(200);
  const list = async (ticket: string, price: string): Promise<string> =>
    (await listTicket({ partnerId, sellerEmail: SELLER, ticketId: ticket, price })).listingId;
  const sold = await list(`MA-${RUN}`, '80');
  const onSale = await list(`MB-${RUN}`, '60');
  const intention = await buyIntention(request, apiKey, [sold], BUYER);

  await test.step('the buyer pays on the sandbox checkout', async () => {
    await page.goto(new URL(intention.paymentUrl).pathname);
    await payWithTestCard(page);
    await page.waitForURL(/\/checkout\//);
  });

  await test.step('the partner page has a Market terms section; bad values are named at their field', async () => {
    await page.goto(`/dashboard/partners/${partnerId}#market`);
    await signIn(page);
    await expect(
      page.getByRole('navigation', { name: 'Partner sections' }).getByRole('link', { name: 'Market' }),
    ).toBeVisible();
    const terms = page.getByTestId('market-terms');
    await terms.getByLabel('Buyer fee (%)').fill('150');
    await terms.getByRole('button', { name: 'Save terms' }).click();
    await expect(terms.getByText('At most 100')).toBeVisible();
    await expect(terms.getByLabel('Buyer fee (%)')).toBeFocused();
    await terms.getByLabel('Buyer fee (%)').fill('10');
    await terms.getByLabel('Payout delay (days)').fill('3');
    await terms.getByLabel('Payout delay (days)').press('Enter');
    await expect(terms.getByRole('status')).toHaveText('Saved.');
    await page.reload();
    await expect(page.getByTestId('market-terms').getByLabel('Buyer fee (%)')).toHaveValue('10');
  });

  await test.step('listings, newest first, filtered by status and by event', async () => {
    await page.getByTestId('market-terms').getByRole('link', { name: 'Open the market' }).click();
    await expect(page.getByRole('heading', { name: 'Market', level: 1 })).toBeVisible();
    const rows = page.getByRole('table', { name: 'Listings' }).locator('tbody tr');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toHaveAttribute('data-listing-id', onSale);
    await page.getByLabel('Status').selectOption('SOLD');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/status=SOLD/);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute('data-listing-id', sold);
    await expect(rows.first()).toContainText('80.00 USD');
    await page.getByRole('link', { name: 'Clear filters' }).click();
    // The cleared page must be the one filled in (not the filtered one still on screen).
    await expect(page).not.toHaveURL(/status=/);
    await expect(rows).toHaveCount(2);
    await page.getByLabel('Event').fill(REF_B);
    await page.getByLabel('Event').press('Enter');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute('data-listing-id', onSale);
    await page.getByLabel('Event').fill('no-such-event');
    await page.getByLabel('Event').press('Enter');
    await expect(page.getByText('No listings match these filters')).toBeVisible();
    await shot(page, 'market-listings');
  });

  await test.step('a purchase is refunded behind a reason; its payout is cancelled', async () => {
    await page.getByRole('link', { name: 'Purchases' }).click();
    const row = page.locator(`tr[data-purchase-id="${intention.id}"]`);
    await expect(row).toContainText(BUYER);
    await expect(row).toContainText('Paid');
    await hydrated(page, `tr[data-purchase-id="${intention.id}"] button`);
    await row.getByRole('button', { name: `Refund ${intention.id}` }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('Refund 80.00 USD');
    await expect(dialog.getByLabel('Reason')).toBeFocused();
    await dialog.getByLabel('Reason').press('Enter');
    await expect(dialog.getByText('Say why the purchase is refunded')).toBeVisible();
    await dialog.getByLabel('Reason').fill('Buyer cannot attend');
    await shot(page, 'market-refund-dialog');
    await dialog.getByLabel('Reason').press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'the partner is notified' })).toBeVisible();
    await expect(row).toContainText('Refunded: Buyer cannot attend');
    // The purchase's status is no longer Completed: Refunded, by whom and when.
    await expect(row.getByRole('cell').nth(1)).toContainText('Refunded');
    await expect(row.getByRole('cell').nth(1)).not.toContainText('Completed');
    await expect(row.getByTestId('refund-reason')).toHaveText(
      /^Refunded by staff · \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC$/,
    );
    await expect(row.getByRole('button', { name: /Refund/ })).toHaveCount(0);

    await page.getByRole('link', { name: 'Payouts' }).click();
    await page.getByLabel('Status').selectOption('CANCELLED');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByRole('table', { name: 'Payouts' }).locator('tbody tr')).toHaveCount(1);
    await expect(page.getByRole('table', { name: 'Payouts' })).toContainText(SELLER);
  });
});
