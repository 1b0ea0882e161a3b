import { expect, type Page, test } from './fixtures';
import {
  axe,
  baseURL,
  call,
  createPartner,
  eventShow,
  pointVerification,
  pushEvent,
  RUN,
  shot,
  VerificationServer,
} from './helpers';

/*
 * Sync on demand: a partner that pushes no tickets sends a fan to sell. The selling
 * entrypoint answers a URL for a ticket Encore was never sent; that page asks the partner's verification
 * endpoint (a real HTTP server in this process) for the signed-in fan, stores the ticket it vouches for and
 * goes on to the sell form, in Spanish on a phone. A ticket the partner lists for someone else is refused
 * clearly, with the ways on. Axe on each page; screenshots at 390 and 1366 px in en and es.
 */

const REF = `SYNC-${RUN}`;
const FAN = `sync-${RUN}@fans.test`;
const NAME = `Sync Partner ${RUN}`;
const NEVER_SENT = `NS-${RUN}`;
const SOMEONE_ELSES = `SE-${RUN}`;
const vouched = (ticketId: string) => ({ ticketId, externalReferenceEventId: REF, showId: '1', tags: ['section:B'] });

/** The page now open in en and es at 390 and 1366 px, each once `ready` shows (the page streams a loading state first). */
async function shotsEnEs(page: Page, name: string, ready: string) {
  const here = new URL(page.url());
  for (const lang of ['en', 'es']) {
    here.searchParams.set('lang', lang);
    await page.goto(`${here.pathname}${here.search}`);
    await expect(page.getByTestId(ready)).toBeVisible();
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: 844 });
      await shot(page, `${name}-${lang}-${width}`);
    }
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

test('a fan reaches the sell form, in Spanish on a phone, for a ticket the partner never pushed', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const verification = await new VerificationServer().start();
  try {
    const { partnerId, apiKey } = await createPartner(NAME);
    await pushEvent(request, apiKey, {
      ref: REF,
      title: `Noche de Rock ${RUN}`,
      description: 'Reventa',
      location: { city: 'Madrid', venueName: 'WiZink Center', timeZone: 'Europe/Madrid' },
      shows: [
        eventShow('1', '2027-10-02T21:00:00+02:00', 'Noche uno', {
          title: 'Pista',
          ticketId: 'GA',
          description: 'De pie',
          currency: 'USD',
          price: 50,
        }),
      ],
    });
    const entrypoint = (ticketId: string) =>
      call(request, apiKey, 'GET', `/v1/marketplace/sellingflow/url/entrypoint?ticketId=${ticketId}&lang=es`);

    await test.step('without a verification endpoint, a ticket never sent is a 404', async () => {
      const res = await entrypoint(NEVER_SENT);
      expect([res.status, res.body.errors.message]).toEqual([404, 'Ticket not found']);
    });

    await test.step('staff point the partner at its verification endpoint', () =>
      pointVerification(browser, partnerId, verification.url));
    verification.owned.set(FAN, [vouched(NEVER_SENT)]);
    verification.owned.set(`other-${RUN}@fans.test`, [vouched(SOMEONE_ELSES)]);

    const res = await entrypoint(NEVER_SENT);
    expect(res.status).toBe(200);
    const sellUrl = res.body.data as string;
    expect(sellUrl).toBe(`${baseURL}/resale/${partnerId}?sync=1&ticketId=${NEVER_SENT}&lang=es`);
    expect(verification.asked).toEqual([]);

    await test.step('signed out, the page asks the fan to sign in and comes back to the same sync', async () => {
      const anon = await browser.newPage();
      await anon.goto(sellUrl);
      await expect(anon.getByTestId('signin-prompt').getByRole('link')).toHaveAttribute(
        'href',
        `/login?partner=${partnerId}&next=${encodeURIComponent(`/resale/${partnerId}?sync=1&ticketId=${NEVER_SENT}`)}`,
      );
      await anon.close();
      expect(verification.asked).toEqual([]);
    });

    await test.step('the page asks the partner for the signed-in fan, stores the ticket and opens the sell form', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      const token = (await call(request, apiKey, 'GET', `/v1/auth/oneTimeToken?user=${encodeURIComponent(FAN)}`)).body
        .data as string;
      await page.goto(`${sellUrl}&token=${token}`);
      await expect(page).toHaveURL(/\/sell\/tkt_[^/?]+$/);
      expect(verification.asked).toContain(FAN);
      await expect(page.locator('html')).toHaveAttribute('lang', 'es');
      await expect(page.getByRole('heading', { level: 1, name: 'Vende tu entrada' })).toBeVisible();
      await expect(page.getByTestId('sell-status')).toHaveText('Se puede vender');
      await expect(page.getByTestId('price-input')).toBeVisible();
      const noSideways = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      expect(noSideways).toBe(true);
      await axe(page, 'sell page of a synced ticket');
      // Reopening the entrypoint's URL (a second tab) leads to the same ticket, stored once.
      const again = await browser.newPage();
      const token2 = (await call(request, apiKey, 'GET', `/v1/auth/oneTimeToken?user=${encodeURIComponent(FAN)}`)).body
        .data as string;
      await again.goto(`${sellUrl}&token=${token2}`);
      await expect(again).toHaveURL(page.url());
      await again.close();
      // The ticket is Encore's now: the entrypoint answers its sell page directly.
      expect((await entrypoint(NEVER_SENT)).body.data).toBe(`${page.url()}?lang=es`);
      await shotsEnEs(page, 'sync-demand-sell', 'price-input');
    });

    await test.step('a ticket the partner lists for someone else is refused clearly, with the ways on', async () => {
      const other = await entrypoint(SOMEONE_ELSES);
      expect(other.status).toBe(200);
      await page.goto(other.body.data as string);
      const refused = page.getByTestId('sync-refused');
      await expect(refused).toHaveAttribute('data-reason', 'NOT_LISTED');
      await expect(refused.getByRole('heading')).toHaveText('Esta entrada no se puede vender aquí');
      await expect(refused.getByRole('alert')).toContainText(
        `${NAME} no indica que la entrada ${SOMEONE_ELSES} sea tuya (${FAN}).`,
      );
      await expect(refused.getByRole('link', { name: 'Ver tus entradas' })).toHaveAttribute(
        'href',
        `/resale/${partnerId}`,
      );
      await expect(refused.getByTestId('sync-other-email')).toHaveAttribute(
        'href',
        new RegExp(`^/login\\?partner=${partnerId}&next=%2Fresale%2F`),
      );
      await axe(page, 'sync refused');
      await shotsEnEs(page, 'sync-demand-refused', 'sync-refused');
      // Nothing was stored for a ticket the partner did not vouch for this fan.
      const fromApi = await call(request, apiKey, 'GET', `/v1/tickets/${SOMEONE_ELSES}/url`);
      expect(fromApi.status).toBe(404);
    });
  } finally {
    await verification.stop();
  }
});
