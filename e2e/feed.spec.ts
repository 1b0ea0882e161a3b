import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';
import { RUN, signIn, submitNewPartner } from './helpers';

/** The partner's public event feed: a real HTTP server on loopback answering whatever `feed` holds. */
class FeedServer {
  feed: unknown = null;
  requests = 0;
  private server = http.createServer((_req, res) => {
    this.requests += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(this.feed));
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/feed`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A Price Detail event of the feed; `currency: null` leaves the option's currency out. */
const feedEvent = (ref: string, title: string, currency: string | null = 'EUR') => ({
  externalReferenceId: ref,
  title,
  shows: [
    {
      showId: `${ref}-S1`,
      status: 'ON_SALE',
      dates: { startsAt: '2030-06-01T20:00:00+02:00' },
      ticketOptions: [
        { ticketId: 'floor', title: 'Floor', description: 'Standing', price: 50, ...(currency ? { currency } : {}) },
      ],
      priceTypes: [{ priceTypeId: 'adult' }, { priceTypeId: 'child' }],
      combinations: [
        { ticketOptionId: 'floor', priceTypeId: 'adult', price: 50 },
        { ticketOptionId: 'floor', priceTypeId: 'child', price: '25.00', description: 'Under 12' },
      ],
    },
  ],
});

let server: FeedServer;
test.beforeAll(async () => {
  server = await new FeedServer().start();
});
test.afterAll(async () => {
  await server?.stop();
});

test('staff point a partner at its event feed and pull it into the catalogue', async ({ page }) => {
  const good = `FEED-${RUN}-A`;
  const bad = `FEED-${RUN}-B`;
  server.feed = feedEvent(good, `Feed Concert ${RUN}`);

  await test.step('sign in and create a partner', async () => {
    await page.goto('/dashboard/partners/new');
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard\/partners\/new$/);
    await submitNewPartner(page, `E2E Feed ${RUN}`);
    await page.getByRole('link', { name: 'Open partner' }).click();
    await expect(page).toHaveURL(/\/dashboard\/partners\/ptr_\w+$/);
  });

  const integration = page.getByTestId('integration');
  await test.step('save the feed URL; nothing has run yet', async () => {
    await integration.getByLabel('Feed URL').fill(server.url);
    await integration.getByRole('button', { name: 'Save integration' }).click();
    await expect(integration.getByText('Saved.')).toBeVisible();
    await expect(integration.getByText('Never', { exact: true })).toBeVisible();
  });

  await test.step('Fetch feed now only checks the feed: no run is recorded', async () => {
    await integration.getByRole('button', { name: 'Fetch feed now' }).click();
    await expect(integration.getByText(/Feed read and valid/)).toBeVisible();
    await expect(integration.getByText('Never', { exact: true })).toBeVisible();
  });

  await test.step('Pull now applies the feed and records the run', async () => {
    await integration.getByRole('button', { name: 'Pull now' }).click();
    await expect(integration.getByText('1 event created, 0 updated.')).toBeVisible();
    await expect(integration.getByText('Never', { exact: true })).toHaveCount(0);
    await expect(integration.getByText('OK', { exact: true })).toBeVisible();
  });

  await test.step('a refused event is named, the others still go in', async () => {
    server.feed = [feedEvent(good, `Feed Concert ${RUN} (updated)`), feedEvent(bad, 'No currency', null)];
    await integration.getByRole('button', { name: 'Pull now' }).click();
    await expect(integration.getByText('Feed applied, 1 of 2 events refused')).toBeVisible();
    await expect(integration.getByText('0 events created, 1 updated.')).toBeVisible();
    await expect(integration.locator('li', { hasText: bad })).toHaveText(
      `[1] ${bad}: shows[0].ticketOptions[0].currency is required`,
    );
    await expect(integration.getByText('Failed', { exact: true })).toBeVisible();
    await expect(integration.locator('p.field-error')).toHaveText(
      `1 of 2 events refused: [1] ${bad}: shows[0].ticketOptions[0].currency is required`,
    );
  });

  await test.step('the pulled event is in the events browser, with its combinations', async () => {
    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await page.getByRole('link', { name: `Feed Concert ${RUN} (updated)` }).click();
    await expect(page.getByText('Under 12')).toBeVisible();
    await expect(page.getByText(bad)).toHaveCount(0);
  });
  expect(server.requests).toBe(3);
});
