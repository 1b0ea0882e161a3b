import { type APIRequestContext, expect, test } from './fixtures';
import { RUN, hydrated, shot, createPartnerOnDashboard } from './helpers';

/** A partner API call over HTTP with the key the dashboard showed; the envelope's data, after a 200. */
async function api(request: APIRequestContext, key: string, method: 'GET' | 'POST', path: string, data?: unknown) {
  const res = await request.fetch(path, { method, headers: { Authorization: key }, data });
  const body = await res.json();
  expect(res.status(), JSON.stringify(body)).toBe(200);
  return body.data;
}

// Partner ids may hold any character: the dashboard's URLs carry our own ids, never these.
const REF = `Tour/2027 #${RUN}`;
const SHOW = `${REF}-NIGHT1`;
const STANDARD_SHOW = `${REF}-NIGHT2`;

const ticket = (ticketId: string, extra: Record<string, unknown> = {}) => ({
  externalReferenceEventId: REF,
  showId: SHOW,
  ticketId,
  buyer: { email: `${ticketId.toLowerCase()}@fans.test`, fullName: `Fan ${ticketId}` },
  ticketAccess: { type: 'URL', locator: `https://tix.test/${ticketId}` },
  ticketOptionId: 'GA',
  ...extra,
});

test('staff browse a partner’s events, shows, tickets and ticket batches', async ({ page, request }) => {
  const partnerName = `E2E Catalog ${RUN}`;
  let partnerId = '';
  let apiKey = '';
  let batchId = '';
  let eventUrl = '';
  // Hydration mismatches and failed client calls surface as console errors; the 404s of the not-found
  // step are the browser reporting those pages' status, which is intended.
  const consoleErrors: string[] = [];
  page.on('pageerror', (err) => consoleErrors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/status of 404/.test(msg.text())) consoleErrors.push(msg.text());
  });

  await test.step('sign in and create a partner; its API key is shown once', async () => {
    ({ partnerId, apiKey } = await createPartnerOnDashboard(page, partnerName));
  });

  await test.step('the partner has no events and no batches yet', async () => {
    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${partnerId}/events$`));
    await expect(page.getByRole('heading', { name: 'Events', level: 1 })).toBeVisible();
    await expect(page.getByText('No events yet', { exact: true })).toBeVisible();
    await expect(page.getByText('Partners push them with POST /v1/events')).toBeVisible();
    await page.getByRole('link', { name: 'Ticket batches' }).click();
    await expect(page.getByText('No ticket batches yet')).toBeVisible();
  });

  await test.step('the partner pushes an event, its combinations and tickets over the API', async () => {
    const showBase = { date: '2027-09-10T21:00:00-03:00', images: [], configuration: {} };
    await api(request, apiKey, 'POST', '/v1/events', {
      title: `Arena Tour ${RUN}`,
      description: 'Two nights',
      externalReferenceId: REF,
      location: { city: 'Lima', venueName: 'Estadio Nacional', timeZone: 'America/Lima' },
      configuration: {},
      shows: [
        {
          ...showBase,
          title: 'Night one',
          showId: SHOW,
          ticketOptions: [
            { title: 'General', ticketId: 'GA', description: 'Standing', currency: 'USD', price: 50 },
            { title: 'VIP', ticketId: 'VIP', description: 'Seated', currency: 'USD', price: '120.00' },
          ],
          priceTypes: [
            { priceTypeId: 'ADULT', title: 'Adult' },
            { priceTypeId: 'CHILD', title: 'Child' },
          ],
        },
        {
          ...showBase,
          date: '2027-09-11T21:00:00-03:00',
          title: 'Night two',
          showId: STANDARD_SHOW,
          ticketOptions: [{ title: 'General', ticketId: 'GA', description: 'Standing', currency: 'USD', price: 45 }],
        },
      ],
    });
    await api(request, apiKey, 'POST', '/v1/events/rules', [
      {
        externalReferenceEventId: REF,
        showId: SHOW,
        ticketOptionId: 'GA',
        priceTypeId: 'CHILD',
        price: '25.50',
        ruleType: 'COMBINATION',
        description: 'Kids under 12',
      },
      {
        externalReferenceEventId: REF,
        showId: SHOW,
        ticketOptionId: 'GA',
        priceTypeId: 'ADULT',
        ruleType: 'COMBINATION',
      },
      { externalReferenceEventId: REF, ruleType: 'PRICE_LIMITS', rules: { maxPercentOfFace: 120 } },
    ]);
    const sync = await api(request, apiKey, 'POST', '/v1/sync/tickets', [
      ticket(`T-${RUN}-1`, { priceTypeId: 'ADULT' }),
      ticket(`T-${RUN}-2`, { priceTypeId: 'CHILD', buyer: `Parent.${RUN}@Fans.TEST` }),
      ticket(`T-${RUN}-3`, { ticketOptionId: 'VIP' }),
    ]);
    expect(sync).toMatchObject({ imported: 3, failed: 0 });
    await request.fetch(`/v1/tickets/${encodeURIComponent(`T-${RUN}-3`)}`, {
      method: 'DELETE',
      headers: { Authorization: apiKey },
    });

    const accepted = await api(request, apiKey, 'POST', '/v1/tickets', [
      ticket(`B-${RUN}-1`),
      ticket(`B-${RUN}-2`, { ticketOptionId: 'BALCONY' }),
      ticket(`B-${RUN}-3`, { showId: STANDARD_SHOW }),
    ]);
    batchId = accepted.batchId;
    // The import runs as a background job.
    await expect
      .poll(async () => (await api(request, apiKey, 'GET', `/v1/tickets/batches/${batchId}`)).status, {
        timeout: 30_000,
      })
      .toBe('completed');
  });

  await test.step('the event list shows the event with its show and ticket counts', async () => {
    await page.goto(`/dashboard/partners/${partnerId}`);
    await page.getByRole('link', { name: 'Events', exact: true }).click();
    const table = page.getByRole('table', { name: 'Events' });
    const row = table.locator('tbody tr').filter({ hasText: `Arena Tour ${RUN}` });
    await expect(row).toContainText(REF);
    await expect(row.locator('td').nth(1)).toHaveText('2'); // shows
    await expect(row.locator('td').nth(2)).toHaveText('5'); // 3 synced + 2 imported by the batch
    await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText('1–1 of 1 event');

    // Searching by part of the partner's id keeps the event; another word finds nothing.
    await hydrated(page, 'form[role="search"]');
    const search = page.getByRole('searchbox', { name: 'Search events by title or external reference ID' });
    await search.fill(`#${RUN}`);
    await search.press('Enter');
    await expect(page).toHaveURL(/[?&]q=/);
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await search.fill(`nothing-${RUN}`);
    await search.press('Enter');
    await expect(page.getByText(`No events match “nothing-${RUN}”`)).toBeVisible();
    await page.goBack();
    await expect(
      page.getByRole('table', { name: 'Events' }).getByRole('link', { name: `Arena Tour ${RUN}` }),
    ).toBeVisible();
    await shot(page, 'catalog-01-events');
    await page.getByRole('link', { name: `Arena Tour ${RUN}` }).click();
  });

  await test.step('the event shows each show’s options, price types, combinations and rules', async () => {
    await expect(page.getByRole('heading', { name: `Arena Tour ${RUN}`, level: 1 })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${partnerId}/events/evt_\\w+$`));
    eventUrl = page.url();
    const night1 = page.locator(`[data-show-id="${SHOW}"]`);
    await expect(night1.getByRole('heading', { name: 'Night one' })).toBeVisible();
    // Sent as 21:00 at -03:00: 19:00 at the venue (Lima, UTC-5), beside UTC.
    await expect(night1.getByTestId('venue-time')).toHaveText('10 Sep 2027, 19:00 America/Lima');
    await expect(night1.getByText('11 Sep 2027, 00:00 UTC', { exact: true })).toBeVisible();
    await expect(night1.getByText('Price Detail pricing')).toBeVisible();
    await expect(night1.getByText('Live', { exact: true })).toBeVisible();

    const options = night1.getByRole('table', { name: 'Ticket options of Night one' });
    await expect(options.locator('tbody tr').filter({ hasText: 'General' })).toContainText('50.00 USD');
    await expect(options.locator('tbody tr').filter({ hasText: 'VIP' })).toContainText('120.00 USD');
    const types = night1.getByRole('table', { name: 'Price types of Night one' });
    await expect(types.locator('tbody tr')).toHaveCount(2);
    await expect(types).toContainText('CHILD');

    const combos = night1.getByRole('table', { name: 'Combinations of Night one' });
    const child = combos.locator('tbody tr').filter({ hasText: 'CHILD' });
    await expect(child).toContainText('25.50 USD');
    await expect(child).toContainText('combination price wins');
    await expect(child).toContainText('Kids under 12');
    await expect(combos.locator('tbody tr').filter({ hasText: 'ADULT' })).toContainText('option price');
    await expect(night1.getByText(/A combination’s price wins over its ticket option’s price/)).toBeVisible();

    await expect(page.getByRole('region', { name: 'Event rules' })).toContainText('PRICE_LIMITS');
    await expect(page.getByRole('region', { name: 'Event rules' })).toContainText('"maxPercentOfFace":120');
    const night2 = page.locator(`[data-show-id="${STANDARD_SHOW}"]`);
    await expect(night2.getByText('Standard pricing', { exact: true })).toBeVisible();
    await shot(page, 'catalog-02-event');
    await night1.getByRole('link', { name: 'Tickets (4)' }).click();
  });

  await test.step('the show’s tickets show their status; a buyer e-mail in any case finds its ticket', async () => {
    await expect(page.getByRole('heading', { name: 'Tickets · Night one', level: 1 })).toBeVisible();
    // Three synced, one imported by the batch.
    const table = page.getByRole('table', { name: 'Tickets' });
    await expect(table.locator('tbody tr')).toHaveCount(4);
    await expect(table.locator(`tr[data-ticket-id="B-${RUN}-1"]`)).toContainText('Valid');
    await expect(table.locator(`tr[data-ticket-id="T-${RUN}-3"]`)).toContainText('Invalidated');
    await expect(table.locator(`tr[data-ticket-id="T-${RUN}-1"]`)).toContainText('Valid');
    await expect(table.locator(`tr[data-ticket-id="T-${RUN}-1"]`)).toContainText('50.00 USD');
    await expect(table.locator(`tr[data-ticket-id="T-${RUN}-2"]`)).toContainText('25.50 USD');
    await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText('1–4 of 4 tickets');

    await hydrated(page, 'form[role="search"]');
    const search = page.getByRole('searchbox', { name: 'Search tickets by ticket ID or buyer e-mail' });
    await search.fill(`PARENT.${RUN}@fans.test`);
    await search.press('Enter');
    await expect(page).toHaveURL(/[?&]q=PARENT/);
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await expect(table.locator('tbody tr')).toContainText(`parent.${RUN}@fans.test`);
    await expect(table.locator('tbody tr')).toContainText(`T-${RUN}-2`);
    await shot(page, 'catalog-03-tickets-search');

    // By ticket id prefix, then back to the unfiltered list with the browser's back button.
    await search.fill(`T-${RUN}-3`);
    await search.press('Enter');
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await expect(table.locator('tbody tr')).toContainText('Invalidated');
    await page.goBack();
    await page.goBack();
    await expect(table.locator('tbody tr')).toHaveCount(4);
  });

  await test.step('a long ticket list pages forward and back by ticket id', async () => {
    const more = Array.from({ length: 27 }, (_, i) =>
      ticket(`P-${RUN}-${String(i + 1).padStart(2, '0')}`, { showId: STANDARD_SHOW }),
    );
    expect(await api(request, apiKey, 'POST', '/v1/sync/tickets', more)).toMatchObject({ imported: 27 });
    await page.goto(eventUrl);
    await page.locator(`[data-show-id="${STANDARD_SHOW}"]`).getByRole('link', { name: 'Tickets (28)' }).click();
    const table = page.getByRole('table', { name: 'Tickets' });
    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    await expect(pagination).toContainText('1–25 of 28 tickets');
    await expect(table.locator('tbody tr').first()).toHaveAttribute('data-ticket-id', `B-${RUN}-3`);
    await pagination.getByRole('link', { name: 'Next →' }).click();
    await expect(page).toHaveURL(/[?&]after=/);
    await expect(pagination).toContainText('26–28 of 28 tickets');
    await expect(table.locator('tbody tr')).toHaveCount(3);
    await expect(table.locator('tbody tr').last()).toHaveAttribute('data-ticket-id', `P-${RUN}-27`);
    await pagination.getByRole('link', { name: '← Previous' }).click();
    await expect(page).toHaveURL(/[?&]before=/);
    await expect(pagination).toContainText('1–25 of 28 tickets');
    await page.goBack();
    await expect(pagination).toContainText('26–28 of 28 tickets');
  });

  await test.step('the batch list shows progress; the batch shows the failed ticket and why', async () => {
    await page.goto(`/dashboard/partners/${partnerId}/batches`);
    const row = page.getByRole('table', { name: 'Ticket batches' }).locator(`tr[data-batch-id="${batchId}"]`);
    // Completed with one of three failed: an amber "Partially failed", not a plain "Completed".
    await expect(row).toContainText('Partially failed');
    await expect(row).toContainText('2 imported · 1 failed · 0 pending of 3');
    await shot(page, 'catalog-04-batches');
    await row.getByRole('link', { name: batchId }).click();

    await expect(page.getByRole('heading', { name: `Ticket batch ${batchId}`, level: 1 })).toBeVisible();
    const failed = page.getByRole('table', { name: 'Failed tickets' });
    await expect(failed.locator('tbody tr')).toHaveCount(1);
    await expect(failed.locator('tbody tr')).toContainText(`B-${RUN}-2`);
    await expect(failed.locator('tbody tr')).toContainText(
      "ticketOptionId must equal a ticketId of the show's ticket options",
    );
    await shot(page, 'catalog-05-batch');
  });

  await test.step('unknown ids show the not-found page', async () => {
    await page.goto(`/dashboard/partners/${partnerId}/events/evt_nope`);
    await expect(page.getByText('Event not found')).toBeVisible();
    await page.goto(`/dashboard/partners/${partnerId}/batches/tbt_nope`);
    await expect(page.getByText('Ticket batch not found')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to ticket batches' })).toBeVisible();
  });

  expect(consoleErrors).toEqual([]);
});
