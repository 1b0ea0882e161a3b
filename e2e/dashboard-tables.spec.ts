import { expect, test } from './fixtures';
import {
  axe,
  call,
  createPartner,
  listTicket,
  payWithTestCard,
  pointWebhooks,
  pushCappedEurEvent,
  Receiver,
  RUN,
  shot,
  signIn,
  PRESENTATION,
  syncedTicket,
} from './helpers';
import { expectTablesFit, LAPTOP, tableFitProblems } from './table-fit';

/*
 * Tables that fit: every dashboard table with data fits a 1366 px laptop (no action off
 * screen, no sideways scroll); a channel's listing is named by its channel, not its marker address; a
 * sold ticket's history names the buyer, the price, the listing and the purchase; the inventory a partner
 * PUTs through /v1 appears on the event page (and an event without it says so, linking the API docs).
 */

const REF = `TBL-${RUN}`;
const QUIET = `TBL-Q-${RUN}`;
const SELLER = `tbl-seller-${RUN}@fans.test`;
const BUYER = `tbl-buyer-${RUN}@fans.test`;
const T1 = `TB1-${RUN}`;
const T2 = `TB2-${RUN}`;

test('dashboard tables fit at 1366 px and name channels, sales and pushed inventory', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const receiver = await new Receiver().start();
  try {
    const { partnerId, apiKey, channelsApiKey } = await createPartner(`Tables ${RUN}`);
    await pointWebhooks(browser, partnerId, receiver.url);
    const base = `/dashboard/partners/${partnerId}`;

    let intentionId = '';
    let soldListing = '';
    let batchId = '';
    let channelId = '';
    await test.step('the partner pushes an event, tickets, leads, inventory; a fan sells, another buys; a channel lists', async () => {
      await pushCappedEurEvent(request, apiKey, { ref: REF, title: `Tables Fest ${RUN}`, description: 'd' });
      await pushCappedEurEvent(request, apiKey, { ref: QUIET, title: `Quiet Fest ${RUN}`, description: 'd' });
      const ticket = (ticketId: string) => syncedTicket(REF, ticketId, SELLER, { price: 40 });
      expect((await call(request, apiKey, 'POST', '/v1/sync/tickets', [ticket(T1), ticket(T2)])).status).toBe(200);
      // A batch with one failure, so its page has the table of failed tickets.
      const batch = await call(request, apiKey, 'POST', '/v1/tickets', [
        ticket(`TB3-${RUN}`),
        { ...ticket(`TB4-${RUN}`), ticketOptionId: 'NOPE' },
      ]);
      expect(batch.status, JSON.stringify(batch.body)).toBe(200);
      batchId = batch.body.data.batchId;
      const leads = await call(request, apiKey, 'POST', '/v1/marketdata/ticket-leads/bulk', [
        { type: 'WISHLIST', externalReferenceEventId: REF, showId: '1', buyer: { email: `tbl-wish-${RUN}@fans.test` } },
      ]);
      expect(leads.status, JSON.stringify(leads.body)).toBe(200);
      const inventory = await call(request, apiKey, 'PUT', `/v1/marketdata/events/${REF}/inventory`, {
        capacity: 5000,
        releasedTickets: 1200,
        reservedSpace: 30,
        soldPercentage: 64,
      });
      expect(inventory.status, JSON.stringify(inventory.body)).toBe(200);
      const details = await call(request, apiKey, 'PUT', `/v1/marketdata/events/${REF}/inventory/details`, [
        { showId: '1', ticketOptionId: 'GA', inventory: { releasedTickets: 800, soldOut: true } },
      ]);
      expect(details.status, JSON.stringify(details.body)).toBe(200);

      soldListing = (await listTicket({ partnerId, sellerEmail: SELLER, ticketId: T1, price: '45' })).listingId;
      await listTicket({ partnerId, sellerEmail: SELLER, ticketId: T2, price: '48' });
      const intention = await call(request, apiKey, 'POST', '/v1/marketplace/buyingflow/buyIntention', {
        items: [soldListing],
        user: BUYER,
      });
      expect(intention.status, JSON.stringify(intention.body)).toBe(200);
      intentionId = intention.body.data.id;
      await page.goto(new URL(intention.body.data.paymentUrl).pathname);
      await payWithTestCard(page);
      await page.waitForURL(/\/checkout\//);

      const channel = await call(request, channelsApiKey, 'PUT', `/v1/channels/listings/CH-${RUN}`, {
        eventId: REF,
        showId: '1',
        ticketOptionId: 'GA',
        quantity: 1,
        price: 46,
        currency: 'EUR',
      });
      expect(channel.status, JSON.stringify(channel.body)).toBe(200);
      channelId = (await call(request, channelsApiKey, 'GET', '/v1/channels/me')).body.data.channelId;
    });

    await page.setViewportSize(LAPTOP);
    await page.goto(`${base}/market`);
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Market', level: 1 })).toBeVisible();

    await test.step('a channel’s listing is named by its channel, a fan’s by e-mail', async () => {
      const rows = page.getByRole('table', { name: 'Listings' }).locator('tbody tr');
      await expect(rows).toHaveCount(3);
      const channelRow = rows.filter({ hasText: 'Channel: Default channel' });
      await expect(channelRow).toHaveCount(1);
      await expect(page.getByRole('table', { name: 'Listings' })).not.toContainText('channels.encore.invalid');
      await expect(rows.filter({ hasText: SELLER })).toHaveCount(2);
    });

    await test.step('every table with data fits at 1366 × 768, the Refund button on screen', async () => {
      const purchase = page.locator(`tr[data-purchase-id="${intentionId}"]`);
      await page.goto(`${base}/market?view=purchases`);
      await expect(purchase.getByRole('button', { name: `Refund ${intentionId}` })).toBeVisible();
      const refund = await purchase.getByRole('button', { name: `Refund ${intentionId}` }).boundingBox();
      expect(refund && refund.x + refund.width).toBeLessThanOrEqual(LAPTOP.width);

      // Each page and whether it has rows here (Jobs lists a table of failed runs only when some failed).
      const pages: [string, string, boolean?][] = [
        ['market listings', `${base}/market`],
        ['market purchases', `${base}/market?view=purchases`],
        ['market payouts', `${base}/market?view=payouts`],
        ['leads', `${base}/leads`],
        ['webhook log', `${base}/webhooks`],
        ['batches', `${base}/batches`],
        ['batch', `${base}/batches/${batchId}`],
        ['tickets found', `${base}/tickets?q=${encodeURIComponent(SELLER)}`],
        ['channels', `${base}/channels`],
        ['channel activity', `${base}/channels/${channelId}`],
        ['partner', base],
        ['partners', '/dashboard/partners'],
        ['events', `${base}/events`],
        ['jobs', '/dashboard/jobs', false],
        ['mailbox', '/dashboard/mailbox'],
        ['staff', '/dashboard/staff'],
      ];
      for (const [what, url, withRows = true] of pages) {
        await page.goto(url);
        if (!withRows) {
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          await expectTablesFit(page, what);
        } else {
          await expect(page.locator('main table').first(), what).toBeVisible();
          const rows = await expectTablesFit(page, what);
          expect(rows, `${what}: rows checked`).toBeGreaterThan(0);
        }
        // axe-clean at both widths: on a phone a table too wide scrolls in a named region the keyboard reaches.
        await axe(page, `${what} at 1366 px`);
        await page.setViewportSize({ width: 390, height: 844 });
        await axe(page, `${what} at 390 px`);
        await page.setViewportSize(LAPTOP);
      }
    });

    await test.step('the sold ticket’s history names buyer, price, listing and purchase', async () => {
      await page.goto(`${base}/tickets?q=${T1}`);
      await page.getByRole('link', { name: T1 }).click();
      await expect(page.getByRole('heading', { level: 1 })).toContainText(T1);
      const history = page.getByTestId('ticket-history').locator('tr');
      const sale = history.filter({ hasText: 'Sold on resale' });
      await expect(sale).toHaveCount(1);
      await expect(sale).toContainText(`Sold to ${BUYER} for 45.00 EUR`);
      await expect(sale.getByRole('link', { name: soldListing })).toHaveAttribute(
        'href',
        new RegExp(`#${soldListing}$`),
      );
      await expect(sale.getByRole('link', { name: intentionId })).toBeVisible();
      await expect(history.filter({ hasText: 'Listed for resale' })).toContainText(`by ${SELLER} at 45.00 EUR`);
      await expectTablesFit(page, 'ticket');
      await axe(page, 'ticket page');
      await shot(page, 'tables-ticket-history-1366');
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'tables-ticket-history-390');
      await page.setViewportSize(LAPTOP);
      // The listing link lands on that listing's row.
      await sale.getByRole('link', { name: soldListing }).click();
      await expect(page.locator(`tr[id="${soldListing}"]`)).toBeVisible();
    });

    await test.step('the inventory the partner PUT shows on the event page; an event without it says so', async () => {
      await page.goto(`${base}/events`);
      await page.getByRole('link', { name: `Tables Fest ${RUN}` }).click();
      const inventory = page.getByTestId('event-inventory').locator('tr');
      await expect(inventory).toHaveCount(3);
      await expect(inventory.filter({ hasText: 'Whole event' })).toContainText('capacity 5,000');
      const show = inventory.filter({ hasText: 'Whole show' });
      await expect(show).toContainText('1,200');
      await expect(show).toContainText('30');
      await expect(show).toContainText('64% sold');
      const option = inventory.filter({ hasText: 'GA' });
      await expect(option).toContainText('800');
      await expect(option).toContainText('Sold out');
      await expect(option).toContainText('40.00 EUR');
      await expect(option).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
      await expectTablesFit(page, 'event');
      await axe(page, 'event page with inventory');
      await shot(page, 'tables-event-inventory-1366');
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'tables-event-inventory-390');
      await page.setViewportSize(LAPTOP);

      await page.goto(`${base}/events`);
      await page.getByRole('link', { name: `Quiet Fest ${RUN}` }).click();
      await expect(page.getByText('The partner has not sent inventory for this event.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'the inventory API' })).toHaveAttribute(
        'href',
        '/docs/operations/putInventory',
      );
    });

    await test.step('the market tables pass axe, shot at 390 and 1366 px', async () => {
      for (const view of ['', '?view=purchases', '?view=payouts']) {
        await page.goto(`${base}/market${view}`);
        await expect(page.locator('main table').first()).toBeVisible();
        await axe(page, `market${view}`);
        await shot(page, `tables-market${view.replace('?view=', '-') || '-listings'}-1366`);
        await page.setViewportSize({ width: 390, height: 844 });
        await shot(page, `tables-market${view.replace('?view=', '-') || '-listings'}-390`);
        await page.setViewportSize(LAPTOP);
      }
    });
  } finally {
    await receiver.stop();
  }
});

test(
  'the fit check finds an action pushed off screen and a table that scrolls sideways',
  PRESENTATION,
  async ({ page }) => {
    await page.setViewportSize(LAPTOP);
    await page.setContent(`
    <main style="margin:0">
      <div style="overflow-x:auto"><table aria-label="Wide purchases"><tbody><tr>
        <td style="min-width:1500px">many columns</td><td><button>Refund</button></td>
      </tr></tbody></table></div>
      <div><table aria-label="Narrow"><tbody><tr><td>one</td><td><a href="#x">Open</a></td></tr></tbody></table></div>
    </main>`);
    const { problems, rows } = await tableFitProblems(page);
    expect(rows).toBe(2);
    expect(problems).toEqual([
      expect.stringMatching(/^Wide purchases: \d+px wide in a \d+px container$/),
      expect.stringMatching(/^Wide purchases: ends at \d+px$/),
      expect.stringMatching(/^Wide purchases: "Refund" ends at \d+px$/),
    ]);
  },
);
