import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from './fixtures';
import { Webhook } from 'standardwebhooks';
import {
  call,
  createPartner,
  hydrated,
  pointWebhooks,
  Receiver,
  RUN,
  shot,
  signIn,
  pushCappedEurEvent,
  payWithTestCard,
  syncedTicket,
  syncTickets,
} from './helpers';

/*
 * The Channels API end to end, over HTTP against the built app: staff
 * create a channel (its webhook URL is a fake channel server in this process) and its key; the channel
 * pushes 1,000 listings in one request (the bad ones named by index, the good ones stored); a fan buys
 * one of them through the buying flow on the sandbox payment page; the channel receives the signed
 * `channelListing.sold`, confirms fulfilment with the partner's tickets, the buyer owns them (their
 * order page links them) and the partner receives `ticket.updated`; key kinds answer 403 on the other
 * API, and another partner's channel sees nothing.
 */

const NAME = `Channel Partner ${RUN}`;
const REF = `CHN-${RUN}`;
const HOLDER = `chn-holder-${RUN}@fans.test`;
const BUYER = `chn-buyer-${RUN}@fans.test`;
const T1 = `CT1-${RUN}`;
const T2 = `CT2-${RUN}`;

/** The channel's own server: records each webhook with its raw body and headers, answers 204. */
class ChannelServer {
  readonly received: { body: string; headers: Record<string, string> }[] = [];
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(req.headers[h] ?? '')]),
      );
      this.received.push({ body: Buffer.concat(chunks).toString('utf8'), headers });
      res.writeHead(204).end();
    });
  });
  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/encore`;
  }
  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Staff create the channel with its webhook URL, then a key on its page: its signing secret, key and id. */
async function createChannel(page: Page, partnerId: string, webhookUrl: string) {
  await page.goto(`/dashboard/partners/${partnerId}/channels`);
  await signIn(page);
  await hydrated(page, '[data-testid="channels"] button');
  const channels = page.getByTestId('channels');
  await channels.getByRole('button', { name: 'Create channel' }).click();
  const create = page.getByRole('dialog', { name: 'Create channel' });
  await create.getByLabel('Name').fill('Resale Hub');
  await create.getByLabel('Webhook URL').fill(webhookUrl);
  await create.getByRole('button', { name: 'Create channel' }).click();
  await expect(channels.getByTestId('secret-value')).toHaveText(/^whsec_/);
  const signingSecret = (await channels.getByTestId('secret-value').textContent()) ?? '';
  await channels.getByRole('button', { name: 'I have copied it' }).click();
  await channels.getByRole('link', { name: 'Resale Hub' }).click();
  await expect(page.getByRole('heading', { name: 'Resale Hub', level: 1 })).toBeVisible();
  const channelId = page.url().split('/').pop() ?? '';
  const keys = page.getByTestId(`keys-channel-${channelId}`);
  await keys.getByRole('button', { name: 'Create key' }).click();
  await page
    .getByRole('dialog', { name: 'Create Channels API key' })
    .getByRole('button', { name: 'Create key' })
    .click();
  await expect(keys.getByTestId('secret-value')).toHaveText(/^sk_ch_/);
  const key = (await keys.getByTestId('secret-value').textContent()) ?? '';
  await keys.getByRole('button', { name: 'I have copied it' }).click();
  return { signingSecret, key, channelId };
}

test('a channel pushes 1,000 listings; one is bought on the sandbox page, told signed, fulfilled; the buyer owns the tickets @database-flow', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const partnerHooks = await new Receiver().start();
  const channelServer = await new ChannelServer().start();
  try {
    const { partnerId, apiKey } = await createPartner(NAME);
    const other = await createPartner(`Other ${NAME}`);
    await pointWebhooks(browser, partnerId, partnerHooks.url);
    const channel = await createChannel(page, partnerId, channelServer.url);

    await test.step('the partner pushes the event, a price cap and the tickets the channel’s customer holds', async () => {
      await pushCappedEurEvent(request, apiKey, { ref: REF, title: `Channel Fest ${RUN}`, description: 'd' });
      await syncTickets(
        request,
        apiKey,
        [T1, T2].map((ticketId, i) =>
          syncedTicket(REF, ticketId, HOLDER, {
            price: 40,
            props: { seating: { section: 'Pista', row: '3', seat: String(i + 1) } },
          }),
        ),
      );
    });

    await test.step('each key opens only its own API', async () => {
      const channelOnPartner = await call(request, channel.key, 'GET', '/v1/me');
      expect(channelOnPartner.status).toBe(403);
      expect(channelOnPartner.body.errors.message).toMatch(/partner API key/);
      const partnerOnChannels = await call(request, apiKey, 'GET', '/v1/channels/listings');
      expect(partnerOnChannels.status).toBe(403);
      expect(partnerOnChannels.body.errors.message).toMatch(/channels API key/);
    });

    await test.step('the channel pushes 1,000 listings in one request: the bad ones named, the rest stored', async () => {
      const base = { eventId: REF, showId: '1', ticketOptionId: 'GA', currency: 'EUR' };
      const listings: Record<string, unknown>[] = [
        {
          ...base,
          listingId: 'PAIR',
          price: 44,
          soldWhole: true,
          seats: [
            { ticketId: T1, section: 'Pista', row: '3', seat: '1' },
            { ticketId: T2, section: 'Pista', row: '3', seat: '2' },
          ],
        },
      ];
      for (let i = 1; i < 1000; i++) listings.push({ ...base, listingId: `FILL-${i}`, quantity: 1, price: 47 });
      listings[500] = { ...listings[500], price: 200 };
      listings[700] = { ...listings[700], showId: '9' };
      listings[900] = { ...listings[900], currency: 'USD' };
      const res = await call(request, channel.key, 'POST', '/v1/channels/listings/bulk', { listings });
      expect(res.status).toBe(400);
      expect(res.body.errors.message).toMatch(/^3 of 1000 listings were refused \(.*\); 997 were stored$/);
      const paths = Object.values(res.body.errors.details as Record<string, { path: string }>).map((d) => d.path);
      expect(paths).toEqual(['[500].price', '[700].showId', '[900].currency']);
      const page1 = await call(request, channel.key, 'GET', '/v1/channels/listings?pageSize=1');
      expect(page1.body.data.total).toBe(997);
      // In the market beside fans' listings, marked as the channel's.
      const listed = await call(request, apiKey, 'GET', `/v1/marketplace/items/events/${REF}/listedTickets`);
      expect(listed.body.data).toHaveLength(997);
      expect(listed.body.data[0]).toMatchObject({ type: 'PACK', ticketCount: 2, price: 44, source: 'CHANNEL' });
    });

    await test.step('another partner’s channel sees none of it', async () => {
      const seen = await call(request, other.channelsApiKey, 'GET', '/v1/channels/listings/PAIR');
      expect(seen.status).toBe(404);
      expect((await call(request, other.channelsApiKey, 'GET', '/v1/channels/listings')).body.data.total).toBe(0);
    });

    const entry = (
      await call(
        request,
        apiKey,
        'GET',
        `/v1/marketplace/buyingflow/url/entrypoint?externalReferenceEventId=${REF}&showId=1&returnTo=${encodeURIComponent('https://tickets.partner.example/events/channel')}`,
      )
    ).body.data as string;

    await test.step('a fan buys the pair through the buying flow on the sandbox payment page', async () => {
      const fan = await (await browser.newContext()).newPage();
      await fan.goto(entry);
      const first = fan.getByTestId('listing').first();
      await expect(first.getByTestId('listing-source')).toHaveText('Sent by e-mail after payment');
      await expect(first.getByTestId('listing-seat')).toContainText('Pista');
      await first.getByTestId('buy').click();
      await expect(fan.getByTestId('checkout-source')).toBeVisible();
      await fan.getByLabel('E-mail for your tickets').fill(BUYER);
      await fan.getByTestId('pay').click();
      await expect(fan).toHaveURL(/\/pay\/pay_/);
      await payWithTestCard(fan, 'Cam Buyer');
      await expect(fan.getByTestId('purchase-success')).toContainText(BUYER);
      await expect(fan.getByTestId('awaiting-delivery')).toContainText('2 tickets come from a partner resale platform');
      await expect(fan.getByTestId('ticket-link')).toHaveCount(0);
      await shot(fan, 'channel-purchase-awaiting');
      const orderUrl = fan.url();

      let sold: { action: string; data: Record<string, unknown> } | undefined;
      await test.step('the channel receives channelListing.sold, signed with its secret', async () => {
        await expect
          .poll(() => channelServer.received.find((r) => r.body.includes('channelListing.sold')), {
            timeout: 75_000,
            message: 'channelListing.sold delivered',
          })
          .toBeTruthy();
        const msg = channelServer.received.find((r) => r.body.includes('channelListing.sold'))!;
        sold = new Webhook(channel.signingSecret).verify(msg.body, msg.headers) as typeof sold;
        expect(sold?.data).toMatchObject({
          status: 'PENDING_FULFILMENT',
          listingId: 'PAIR',
          quantity: 2,
          buyerEmail: BUYER,
          currency: 'EUR',
          price: 44,
          amount: 88,
        });
        // A forged signature does not verify.
        expect(() => new Webhook(channel.signingSecret).verify(`${msg.body} `, msg.headers)).toThrow();
      });

      await test.step('the channel confirms fulfilment; the buyer owns the tickets', async () => {
        const saleId = sold!.data.saleId as string;
        const url = sold!.data.fulfilmentUrl as string;
        expect(url).toContain(`/v1/channels/sales/${saleId}/fulfilment`);
        const elsewhere = await call(request, other.channelsApiKey, 'POST', new URL(url).pathname, {
          ticketIds: [T1, T2],
        });
        expect(elsewhere.status).toBe(404);
        const done = await call(request, channel.key, 'POST', new URL(url).pathname, { ticketIds: [T1, T2] });
        expect(done.status, JSON.stringify(done.body)).toBe(200);
        expect(done.body.data).toMatchObject({ status: 'FULFILLED', ticketIds: [T1, T2] });
        await fan.goto(orderUrl);
        await expect(fan.getByTestId('ticket-link')).toHaveCount(2);
        await expect(fan.getByTestId('awaiting-delivery')).toHaveCount(0);
        await fan.getByTestId('ticket-link').first().click();
        await expect(fan.getByTestId('ticket-status')).toHaveText('Valid');
      });
      await fan.context().close();
    });

    await test.step('the partner receives ticket.updated for each ticket', async () => {
      const updates = () =>
        partnerHooks.bodies.filter((b) => b.action === 'ticket.updated').map((b) => b.data.id as string);
      await expect.poll(() => updates().sort(), { timeout: 75_000 }).toEqual([T1, T2].sort());
      expect(partnerHooks.bodies.find((b) => b.action === 'ticket.updated')?.data).toMatchObject({
        newOwnerEmail: BUYER,
        oldOwnerEmail: HOLDER,
      });
    });

    await test.step('staff see the sale on the channel page and start its payout setup', async () => {
      await page.goto(`/dashboard/partners/${partnerId}/channels/${channel.channelId}`);
      const sales = page.getByTestId('channel-sales');
      await expect(sales.getByTestId('channel-sale-rows').locator('tr')).toHaveCount(1);
      await expect(sales.getByTestId('channel-sale-rows')).toContainText('Fulfilled');
      await expect(sales.getByTestId('channel-sale-rows')).toContainText(BUYER);
      await page.goto(`/dashboard/partners/${partnerId}/channels/${channel.channelId}?status=SOLD`);
      await expect(page.getByTestId('channel-listing-rows').locator('tr')).toHaveCount(1);
      await expect(page.getByTestId('channel-listing-rows')).toContainText('PAIR');
      await expect(page.getByTestId('channel-listing-rows')).toContainText('2 of 2');
      const payouts = page.getByTestId('channel-payouts');
      await expect(payouts.getByTestId('channel-payout-status')).toHaveText('Payout setup: Not set up');
      await hydrated(page, '[data-testid="channel-payouts"] button');
      await payouts.getByRole('button', { name: 'Set up payouts' }).click();
      await expect(payouts.getByTestId('channel-onboarding-link')).toHaveValue(/^http/);
      await expect(payouts.getByTestId('channel-payout-status')).toContainText('Pending');
      await shot(page, 'channel-sales');
    });
  } finally {
    await partnerHooks.stop();
    await channelServer.stop();
  }
});
