import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { axe, buyIntention, hydrated, partnerWithListing, payInOwnContext, RUN, shot, signIn } from './helpers';

/*
 * Support search: a fan buys a ticket and is signed in; staff find them by their e-mail from the sidebar
 * box, see the purchase and its payment, refund it behind a reason, resend a mail, end the fan's
 * sessions (the fan's next page is signed out), and land on the same purchase from its listing id and
 * its payment id.
 */

const REF = `SRCH-${RUN}`;
const SELLER = `search-seller-${RUN}@fans.test`;
const BUYER = `search-buyer-${RUN}@fans.test`;
const TICKET = `SR-${RUN}`;

/** Searches from the sidebar box of the page staff are on (a plain GET form). */
async function searchFor(page: Page, q: string) {
  const box = page.getByRole('search', { name: 'Support search' });
  await box.getByLabel('Search', { exact: true }).fill(q);
  await box.getByLabel('Search', { exact: true }).press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/search\?q=/);
}

async function shots(page: Page, name: string) {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `${name}-${width}`);
  }
}

test('staff find a fan by e-mail, refund, resend a mail, end their sessions, and find the purchase by its ids', async ({
  page,
  browser,
  request,
}) => {
  const { partnerId, apiKey, listingId } = await partnerWithListing(request, {
    name: `Search ${RUN}`,
    event: { ref: REF, title: `Search night ${RUN}`, description: 'Support' },
    listing: { seller: SELLER, ticketId: TICKET, price: '44' },
  });
  const intention = await buyIntention(request, apiKey, [listingId], BUYER);
  const intentionId = intention.id;
  const paymentId = new URL(intention.paymentUrl).pathname.split('/').pop()!;

  // The fan pays, and signs in with a one-time token the partner asked for.
  const fanPage = await payInOwnContext(browser, intention.paymentUrl);
  const token = await request.get(`/v1/auth/oneTimeToken?user=${encodeURIComponent(BUYER)}`, {
    headers: { authorization: apiKey },
  });
  expect(token.status()).toBe(200);
  await fanPage.goto(`/me?token=${(await token.json()).data}`);
  await expect(fanPage.getByTestId('fan-email')).toHaveText(`Signed in as ${BUYER}`);

  const purchaseRow = page.locator(`tr[data-purchase-id="${intentionId}"]`);

  await test.step('the sidebar box on any page finds the fan by e-mail, in any case, with the purchase and its payment', async () => {
    await page.goto('/dashboard/partners');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Partners', level: 1 })).toBeVisible();
    await searchFor(page, `  ${BUYER.toUpperCase()} `);
    await expect(page.getByRole('status').filter({ hasText: 'read as an e-mail address' })).toBeVisible();
    await expect(page.getByRole('heading', { name: `Fan ${BUYER}` })).toBeVisible();
    const partnerCard = page.locator(`section[data-partner-id="${partnerId}"]`);
    await expect(partnerCard.getByRole('link', { name: `Search ${RUN}` })).toBeVisible();
    await expect(purchaseRow).toContainText('Completed');
    await expect(purchaseRow).toContainText('Paid');
    await expect(purchaseRow).toContainText(paymentId);
    await expect(purchaseRow).toContainText('44.00 EUR');
    // The bought ticket is the fan's now, and links to its ticket page.
    await expect(partnerCard.getByRole('table', { name: 'Tickets' }).getByRole('link', { name: TICKET })).toBeVisible();
    await expect(partnerCard.getByRole('table', { name: 'Sessions' })).toContainText('Open');
    await axe(page, 'fan search');
    await shots(page, 'ops-search-fan');
  });

  await test.step('a refund asks for a reason, then shows the purchase refunded with it', async () => {
    await hydrated(page, `tr[data-purchase-id="${intentionId}"] button`);
    await purchaseRow.getByRole('button', { name: `Refund ${intentionId}` }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText(`Refund 44.00 EUR to ${BUYER}?`);
    await dialog.getByLabel('Reason').fill('Fan cannot attend');
    await dialog.getByRole('button', { name: 'Refund purchase' }).click();
    await expect(dialog).toBeHidden();
    await expect(purchaseRow).toContainText('Refunded');
    await expect(purchaseRow.getByTestId('refunds')).toContainText('Fan cannot attend');
    await expect(purchaseRow.getByRole('button', { name: /Refund/ })).toHaveCount(0);
  });

  await test.step('a mail is resent behind a confirmation and appears in the mailbox', async () => {
    await page.reload();
    const mails = page.getByRole('table', { name: 'Mails' }).locator('tbody tr');
    const confirmation = mails.filter({ hasText: 'purchaseConfirmation' });
    await expect(confirmation).toHaveCount(1);
    const before = await mails.count();
    const subject = (await confirmation.getByRole('link').textContent()) ?? '';
    await hydrated(page, 'table[aria-label="Mails"] button');
    await confirmation.getByRole('button', { name: /^Resend / }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText(`Send “${subject}” to ${BUYER} again?`);
    await dialog.getByRole('button', { name: 'Resend mail' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Queued again as' })).toBeVisible();
    await expect(mails).toHaveCount(before + 1);
    await page.goto(`/dashboard/mailbox?q=${encodeURIComponent(BUYER)}`);
    // The original and its copy (the refund's mail is another subject).
    await expect(page.getByRole('link', { name: subject, exact: true })).toHaveCount(2);
  });

  await test.step("ending the fan's sessions signs them out on their next page", async () => {
    await page.goBack();
    const partnerCard = page.locator(`section[data-partner-id="${partnerId}"]`);
    await hydrated(page, `section[data-partner-id="${partnerId}"] .card-actions button`);
    await partnerCard.getByRole('button', { name: `End sessions at Search ${RUN}` }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText(`Sign ${BUYER} out at Search ${RUN}?`);
    await dialog.getByRole('button', { name: 'End sessions' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Ended 1 session.' })).toBeVisible();
    await expect(partnerCard.getByRole('table', { name: 'Sessions' })).toContainText('Ended');
    await fanPage.goto('/me');
    await expect(fanPage.getByText('You are not signed in.')).toBeVisible();
    await fanPage.context().close();
  });

  await test.step('the listing id and the payment id land on the same purchase', async () => {
    for (const q of [listingId, paymentId, intentionId]) {
      await searchFor(page, q);
      await expect(page.locator(`section[data-partner-id="${partnerId}"]`)).toBeVisible();
      await expect(purchaseRow).toContainText('Refunded');
      await expect(purchaseRow).toContainText(paymentId);
    }
    await searchFor(page, TICKET);
    await expect(page.getByRole('status').filter({ hasText: 'ticket id or order id' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Tickets' }).getByRole('link', { name: TICKET })).toBeVisible();
    await axe(page, 'id search');
    await shots(page, 'ops-search-id');
  });

  await test.step('blank, over-long and unknown searches answer with a message, never an error page', async () => {
    const blank = await page.goto('/dashboard/search?q=%20%20');
    expect(blank?.status()).toBe(200);
    await expect(page.locator('.alert-error')).toContainText('Type an e-mail address or an id to search for');
    await page.goto(`/dashboard/search?q=${'x'.repeat(300)}`);
    await expect(page.locator('.alert-error')).toContainText('At most 254 characters');
    await page.goto(`/dashboard/search?q=nobody-${RUN}%40fans.test`);
    await expect(page.getByText(`Nothing found for “nobody-${RUN}@fans.test”`)).toBeVisible();
    await expect(page.getByText('Searched as an e-mail address')).toBeVisible();
  });
});
