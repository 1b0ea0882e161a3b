import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';
import { RUN, hydrated, shot, createPartnerOnDashboard } from './helpers';
import { Webhook } from 'standardwebhooks';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  answered: number;
}

/** The partner's webhook receiver: a real HTTP server on loopback, answering with `status`. */
class Receiver {
  status = 200;
  readonly requests: Received[] = [];
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answered = this.status;
      this.requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      res.writeHead(answered, { 'content-type': 'text/plain' });
      res.end(answered === 200 ? 'ok' : `receiver says ${answered}`);
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  for(messageId: string): Received[] {
    return this.requests.filter((r) => r.headers['webhook-id'] === messageId);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function signatureHeaders(r: Received): Record<string, string> {
  return {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  };
}

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await new Receiver().start();
});
test.afterAll(async () => {
  await receiver?.stop();
});

test('staff configure a webhook endpoint, follow deliveries, retry a failed one and see the jobs @database-flow', async ({
  page,
}) => {
  const partnerName = `E2E Webhooks ${RUN}`;
  let partnerId = '';
  let signingSecret = '';
  let firstId = '';
  let failingId = '';
  const section = page.getByTestId('webhooks');

  await test.step('sign in and create a partner', async () => {
    ({ partnerId } = await createPartnerOnDashboard(page, partnerName));
  });

  await test.step('a bad URL is refused with a readable message beside the field', async () => {
    await expect(section.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
    await expect(section.getByText('Save a receiver URL first')).toBeVisible();
    await section.getByLabel('Receiver URL').fill('ftp://partner.example/hooks');
    await section.getByRole('button', { name: 'Create endpoint' }).click();
    await expect(section.getByText('Partner URLs must use https')).toBeVisible();
    await expect(section.getByLabel('Receiver URL')).toHaveAttribute('aria-invalid', 'true');
    await expect(section.getByTestId('secret-value')).toHaveCount(0);
  });

  await test.step('creating the endpoint shows its signing secret once', async () => {
    await section.getByLabel('Receiver URL').fill(receiver.url);
    await section.getByRole('button', { name: 'Create endpoint' }).click();
    const secret = section.getByTestId('secret-value');
    await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    signingSecret = (await secret.textContent()) ?? '';
    await expect(section.getByText("You won't see it again")).toBeVisible();
    await expect(section.getByRole('button', { name: 'Copy Signing secret' })).toBeVisible();
    await expect(section.getByText(`whsec_••••${signingSecret.slice(-4)}`)).toBeVisible();
    await shot(page, 'webhooks-01-endpoint-created');
    await section.getByRole('button', { name: 'I have copied it' }).click();
    await expect(section.getByTestId('secret-value')).toHaveCount(0);

    await page.reload();
    await hydrated(page, '[data-testid="webhooks"] form');
    await expect(section.getByLabel('Receiver URL')).toHaveValue(receiver.url);
    await expect(section.getByRole('button', { name: 'Save endpoint' })).toBeVisible();
    expect(await page.content()).not.toContain(signingSecret);
  });

  await test.step('a test message reaches the receiver, signed with that secret', async () => {
    await section.getByRole('button', { name: 'Send test message' }).click();
    await expect(section.getByText('Test message queued')).toBeVisible();
    await expect.poll(() => receiver.requests.length, { timeout: 15_000 }).toBe(1);
    const [req] = receiver.requests;
    firstId = String(req.headers['webhook-id']);
    expect(firstId).toMatch(/^msg_/);
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toMatchObject({ family: 'test', action: 'test.ping', data: { partnerId } });
    expect(new Webhook(signingSecret).verify(req.body, signatureHeaders(req))).toMatchObject({
      family: 'test',
      action: 'test.ping',
    });
  });

  await test.step('the delivery log shows it delivered after one attempt', async () => {
    await section.getByRole('link', { name: 'Delivery log', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${partnerId}/webhooks$`));
    await expect(page.getByRole('heading', { name: 'Webhook delivery log', level: 1 })).toBeVisible();
    const row = page.locator(`tr[data-message-id="${firstId}"]`);
    await expect(row).toContainText('Delivered');
    await expect(row).toContainText('test.ping');
    await expect(row).toContainText('HTTP 200');
    await expect(row.locator('td.num')).toHaveText('1');
  });

  await test.step('a receiver answering 500 leaves the next message pending, with the 500 logged', async () => {
    receiver.status = 500;
    await page.getByRole('link', { name: `← ${partnerName}` }).click();
    await section.getByRole('button', { name: 'Send test message' }).click();
    await expect.poll(() => receiver.requests.length, { timeout: 15_000 }).toBe(2);
    failingId = String(receiver.requests[1].headers['webhook-id']);
    expect(failingId).not.toBe(firstId);

    await section.getByRole('link', { name: 'Delivery log', exact: true }).click();
    const row = page.locator(`tr[data-message-id="${failingId}"]`);
    await expect(row).toContainText('Pending');
    await expect(row).toContainText('HTTP 500');
    await expect(page.locator(`tr[data-message-id="${firstId}"]`)).toContainText('Delivered');
    await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText('1–2 of 2 messages');
    await shot(page, 'webhooks-02-delivery-log');

    await row.getByRole('link', { name: failingId }).click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/${failingId}$`));
    const message = page.getByTestId('webhook-message');
    await expect(message).toContainText('Pending');
    const attempts = page.getByRole('table', { name: 'Delivery attempts' });
    const first = attempts.locator('tr[data-attempt="1"]');
    await expect(first).toContainText('500');
    await expect(first).toContainText('HTTP 500');
    await first.getByText(/^Show/).click();
    await expect(first.getByText('receiver says 500')).toBeVisible();
    await expect(page.getByLabel('Message body (JSON)')).toContainText('"action": "test.ping"');
    await shot(page, 'webhooks-03-message-pending');
  });

  await test.step('"Retry now" delivers it once the receiver is back', async () => {
    receiver.status = 200;
    await page.getByRole('button', { name: 'Retry now', exact: true }).click();
    const message = page.getByTestId('webhook-message');
    await expect(message).toContainText('Delivered', { timeout: 15_000 });
    const attempts = page.getByRole('table', { name: 'Delivery attempts' });
    // The newest attempt is listed first; an automatic retry may have come in between (also a 500).
    await expect(attempts.locator('tbody tr').first()).toContainText('200');
    const sent = receiver.for(failingId);
    expect(sent.at(-1)?.answered).toBe(200);
    expect(sent.slice(0, -1).every((r) => r.answered === 500)).toBe(true);
    await expect(page.getByTestId('message-attempts')).toHaveText(String(sent.length));
    await shot(page, 'webhooks-04-message-delivered');
  });

  await test.step('a delivered message is replayed only after a confirmation, with the same id', async () => {
    const before = receiver.for(failingId).length;
    await page.getByRole('button', { name: 'Replay (retry now)' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Replay this delivered message?' });
    await expect(confirm).toBeVisible();
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    expect(receiver.for(failingId)).toHaveLength(before);

    await page.getByRole('button', { name: 'Replay (retry now)' }).click();
    await confirm.getByRole('button', { name: 'Replay message' }).click();
    await expect(confirm).toBeHidden();
    await expect.poll(() => receiver.for(failingId).length, { timeout: 15_000 }).toBe(before + 1);
    await expect(page.getByTestId('message-attempts')).toHaveText(String(before + 1));
    await expect(page.getByTestId('webhook-message')).toContainText('Delivered');
  });

  await test.step('the log filters by status and action through the URL', async () => {
    await page.getByRole('link', { name: '← Delivery log' }).click();
    await page.getByLabel('Status').selectOption('pending');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/\?status=pending$/);
    await expect(page.getByText('No messages match these filters')).toBeVisible();
    await page.getByRole('link', { name: 'Clear filters' }).first().click();
    await expect(page).toHaveURL(/\/webhooks$/);

    await page.getByLabel('Status').selectOption('delivered');
    await page.getByLabel('Action').selectOption('test.ping');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/\?status=delivered&action=test\.ping$/);
    await expect(page.locator('tbody tr[data-message-id]')).toHaveCount(2);
  });

  await test.step('rotating the secret asks first, shows the new one once, and signs with it', async () => {
    await page.goto(`/dashboard/partners/${partnerId}`);
    await hydrated(page, '[data-testid="webhooks"] form');
    await section.getByRole('button', { name: 'Rotate signing secret' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Rotate the signing secret?' });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await confirm.getByRole('button', { name: 'Rotate secret' }).click();
    await expect(confirm).toBeHidden();
    const shown = section.getByTestId('secret-value');
    await expect(shown).toHaveText(/^whsec_/);
    const rotated = (await shown.textContent()) ?? '';
    expect(rotated).not.toBe(signingSecret);

    const count = receiver.requests.length;
    await section.getByRole('button', { name: 'Send test message' }).click();
    await expect.poll(() => receiver.requests.length, { timeout: 15_000 }).toBe(count + 1);
    const req = receiver.requests[count];
    expect(() => new Webhook(rotated).verify(req.body, signatureHeaders(req))).not.toThrow();
    expect(() => new Webhook(signingSecret).verify(req.body, signatureHeaders(req))).toThrow();
  });

  await test.step('the Jobs page shows the dispatch job with completed runs', async () => {
    await page.getByRole('link', { name: 'Jobs', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\/jobs$/);
    await expect(page.getByRole('heading', { name: 'Jobs', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Jobs', exact: true })).toHaveAttribute('aria-current', 'page');
    const job = page.locator('[data-job="webhooks.dispatch"]');
    await expect(job).toContainText('Deliver due webhook messages');
    await expect(job).toContainText('Cron * * * * *');
    await expect(job.locator('[data-count="completed24h"]')).toHaveText(/^[1-9]\d*$/);
    await expect(job.locator('[data-count="failed24h"]')).toHaveText('0');
    await expect(page.getByTestId('webhook-stats')).toContainText('Delivered in 24 h');
    await shot(page, 'webhooks-05-jobs');
  });
});
