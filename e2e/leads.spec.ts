import { expect, test } from './fixtures';
import { axe, call, createPartner, hydrated, listTicket, pushUsdEvent, RUN, shot, signIn } from './helpers';

/*
 * Leads end to end: the partner sends leads, a listing appears and the show's wishlist is mailed (read in
 * the staff mailbox), the fan unsubscribes from the mail's link (Spanish, phone width), and staff see
 * the leads per event, the funnel and the CSV.
 */

const REF = `LDS-${RUN}`;
const SELLER = `seller-${RUN}@fans.test`;
const WISH = `wish-${RUN}@fans.test`;
const CART = `cart-${RUN}@fans.test`;

test('leads: wishlist mail with unsubscribe, the staff funnel and the CSV export', async ({ page, request }) => {
  const { partnerId, apiKey } = await createPartner(`Leads ${RUN}`);
  await pushUsdEvent(request, apiKey, REF, `Leads night ${RUN}`);
  const ticket = `LT-${RUN}`;
  expect(
    (
      await call(request, apiKey, 'POST', '/v1/sync/tickets', [
        {
          externalReferenceEventId: REF,
          showId: '1',
          ticketId: ticket,
          buyer: { email: SELLER },
          ticketAccess: { type: 'OTHER', locator: 'C' },
          ticketOptionId: 'GA',
        },
      ])
    ).status,
  ).toBe(200);
  const leads = await call(request, apiKey, 'POST', '/v1/marketdata/ticket-leads/bulk', [
    { type: 'WISHLIST', externalReferenceEventId: REF, showId: '1', buyer: { email: WISH } },
    { type: 'ABANDONED_CART', externalReferenceEventId: REF, showId: '1', buyer: { email: CART }, price: 50 },
  ]);
  expect(leads.body).toEqual({ status: 200, data: true, errors: null });
  await listTicket({ partnerId, sellerEmail: SELLER, ticketId: ticket, price: '45' });

  let unsubscribe = '';
  await test.step('the wishlist is mailed; staff read it in the mailbox', async () => {
    await page.goto(`/dashboard/mailbox?q=${encodeURIComponent(WISH)}`);
    await signIn(page);
    const row = page.getByRole('row').filter({ hasText: WISH }).first();
    await expect(row).toContainText(`Tickets for Leads night ${RUN} are on sale`);
    await row.getByRole('link', { name: `Tickets for Leads night ${RUN} are on sale` }).click();
    const text = (await page.getByTestId('mail-text').textContent()) ?? '';
    unsubscribe = /(http:\/\/[^\s]+\/unsubscribe\/lnt_[0-9a-f]{32})/.exec(text)![1];
    expect(text).toContain('45.00');
  });

  await test.step('the fan unsubscribes from the link, in Spanish on a phone', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${new URL(unsubscribe).pathname}?lang=es`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('¿Dejar de recibir avisos de esta función?');
    await expect(page.locator('main')).toContainText(`Leads night ${RUN}`);
    await axe(page, 'unsubscribe');
    await shot(page, 'unsubscribe-es');
    await page.getByTestId('unsubscribe').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      `Listo: no recibirás más avisos sobre Leads night ${RUN}.`,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await test.step('staff see the leads per event, the funnel and download the CSV', async () => {
    await page.goto(`/dashboard/partners/${partnerId}/leads`);
    await expect(page.getByRole('heading', { name: 'Leads', level: 1 })).toBeVisible();
    await page.getByRole('table', { name: 'Leads by event' }).getByRole('link', { name: REF }).click();
    await expect(page).toHaveURL(new RegExp(`event=${REF}`));
    const stages = page.getByTestId('funnel-stage');
    await expect(stages).toHaveCount(3);
    await expect(stages.nth(0)).toContainText('1Wishlist');
    await expect(stages.nth(1)).toContainText('1Abandoned cart');
    await expect(stages.nth(2)).toContainText('0Bought on resale');
    await expect(page.getByTestId('lead-row').filter({ hasText: WISH })).toContainText('Unsubscribed');
    await axe(page, 'leads');
    await shot(page, 'leads');
    await hydrated(page, 'a');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: `Download CSV (${REF})` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`leads-${partnerId}-${REF}.csv`);
    const csv = await (await download.createReadStream()).toArray();
    const body = Buffer.concat(csv).toString('utf8');
    // UTF-8's byte-order mark first, so a spreadsheet program reads accents right; then the header.
    expect(body.split('\r\n')[0]).toMatch(/^\uFEFFtype,externalReferenceEventId,showId,buyerEmail/);
    expect(body).toContain(`WISHLIST,${REF},1,${WISH}`);
    expect(body).toContain(`ABANDONED_CART,${REF},1,${CART}`);
  });
});
