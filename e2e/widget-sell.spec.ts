import { expect, test } from './fixtures';
import {
  axe,
  baseURL,
  call,
  createPartner,
  eventShow,
  listTicket,
  PartnerSite,
  pointVerification,
  pushEvent,
  RUN,
  shot,
  syncedTicket,
  syncTickets,
  VerificationServer,
} from './helpers';

/*
 * `<encore-sell>` on a partner's page of another origin under a strict policy
 * (scripts and connections from Encore only, no inline script or style). The partner's server mints a
 * one-time token for its signed-in fan (`GET /v1/auth/oneTimeToken`) and puts it on the element with its
 * publishable key; the element shows the fan's tickets as the partner's verification endpoint (a real server
 * in this process) reports them, each with its status and links, and the sell link opens Encore's sell page
 * with the fan signed in. A fan with no tickets sees the empty state; a refused token shows nothing and says
 * why once. The fixtures' CSP guard fails the test on any violation, the partner's page included.
 */

const REF = `WSELL-${RUN}`;
const FAN = `wsell-${RUN}@fans.test`;
const NOBODY = `wsell-none-${RUN}@fans.test`;
const IDS = [`WS-A-${RUN}`, `WS-B-${RUN}`, `WS-C-${RUN}`];

let partner = { partnerId: '', apiKey: '', publishableKey: '', channelsApiKey: '' };
let site: PartnerSite;
let verification: VerificationServer;

test.beforeAll(async ({ request, browser }) => {
  verification = await new VerificationServer().start();
  partner = await createPartner(`Sell Widget Partner ${RUN}`);
  await pushEvent(request, partner.apiKey, {
    ref: REF,
    title: `Sell widget night ${RUN}`,
    description: 'd',
    location: { timeZone: 'Europe/Madrid' },
    shows: [eventShow('1', '2027-07-03T21:00:00+02:00', 'Night one')],
  });
  await syncTickets(
    request,
    partner.apiKey,
    // Pushed to the fan; the partner's endpoint is asked live which the fan still holds.
    IDS.map((ticketId) =>
      syncedTicket(REF, ticketId, FAN, { ticketAccess: { type: 'OTHER', locator: ticketId }, price: 50 }),
    ),
  );
  // The fan holds A and B (C went elsewhere); B is already on sale.
  verification.owned.set(
    FAN,
    IDS.slice(0, 2).map((ticketId) => ({ ticketId, externalReferenceEventId: REF, showId: '1' })),
  );
  await listTicket({ partnerId: partner.partnerId, sellerEmail: FAN, ticketId: IDS[1], price: '55' });
  await pointVerification(browser, partner.partnerId, verification.url);

  site = await PartnerSite.start('My account');
});

test.afterAll(async () => {
  await site?.stop();
  await verification?.stop();
});

/** What the partner's server does for its signed-in fan: a fresh one-time token. */
async function mint(request: Parameters<typeof call>[0], user: string): Promise<string> {
  const res = await call(request, partner.apiKey, 'GET', `/v1/auth/oneTimeToken?user=${encodeURIComponent(user)}`);
  expect(res.status).toBe(200);
  return res.body.data as string;
}

test('on a partner’s page under a strict policy: the fan’s tickets with their status and links; sell opens Encore signed in', async ({
  page,
  context,
  request,
}) => {
  const element = (token: string, attrs: string) =>
    `<encore-sell publishable-key="${partner.publishableKey}" token="${token}" ${attrs}></encore-sell>`;
  site.body =
    element(await mint(request, FAN), 'lang="en" data-testid="mine"') +
    element(await mint(request, NOBODY), 'data-testid="none"') +
    element(`ott_${'A'.repeat(65)}`, 'data-testid="refused"');
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' && m.text().includes('<encore-sell>')) warnings.push(m.text());
  });
  await page.goto(site.origin);

  const mine = page.getByTestId('mine');
  await expect(mine.getByRole('heading', { name: `Sell widget night ${RUN}` })).toBeVisible();
  const tickets = mine.getByRole('listitem');
  await expect(tickets).toHaveCount(2);
  const a = mine.locator(`[data-ticket="${IDS[0]}"]`);
  const b = mine.locator(`[data-ticket="${IDS[1]}"]`);
  await expect(a).toContainText('Can be sold');
  await expect(b).toContainText('On sale');
  await expect(b).toContainText('This ticket is already on sale.');
  await expect(b.getByRole('link', { name: /Edit Listing/ })).toHaveAttribute(
    'href',
    new RegExp(`^${baseURL}/listing/lst_\\w+\\?lang=en&token=ott_`),
  );
  await expect(mine.locator(`[data-ticket="${IDS[2]}"]`)).toHaveCount(0);
  await axe(page, 'partner page with <encore-sell>');
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `widget-sell-${width}`);
  }

  // A fan with no tickets: the empty state, in the page's language.
  await expect(page.getByTestId('none')).toContainText('No tienes entradas para vender.');
  // A token Encore does not know: nothing shown, one warning saying why.
  await expect(page.getByTestId('refused')).toBeHidden();
  await expect.poll(() => warnings.length).toBe(1);
  expect(warnings[0]).toContain('Encore refused the request (404');

  // Sell: Encore's sell page in a new tab, the fan signed in by the link's own token.
  const sell = a.getByRole('link', { name: /^Sell/ });
  await expect(sell).toHaveAttribute('target', '_blank');
  const [sellPage] = await Promise.all([context.waitForEvent('page'), sell.click()]);
  await sellPage.waitForLoadState();
  await expect(sellPage).toHaveURL(new RegExp(`^${baseURL}/sell/`));
  await expect(sellPage).not.toHaveURL(/token=/);
  await expect(sellPage.getByRole('heading', { level: 1, name: 'Sell your ticket' })).toBeVisible();
  await expect(sellPage.getByTestId('price-input')).toBeVisible();
  await expect(sellPage.getByTestId('signin-prompt')).toHaveCount(0);
  await sellPage.close();
});
