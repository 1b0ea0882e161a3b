import { expect, test } from './fixtures';
import {
  axe,
  baseURL,
  createPartner,
  EUR_STANDING,
  eventShow,
  listTicket,
  PartnerSite,
  pushEurEvent,
  pushEvent,
  RUN,
  shot,
  signIn,
  syncedTicket,
  syncTickets,
} from './helpers';

/*
 * The drop-in widget as partners use it. A partner's page on another origin (a server in this
 * process) with its own strict policy — scripts and connections from Encore only, no inline script, no
 * inline style — adds Encore's script once and several `<encore-resale>` elements: the button carries the
 * from-price and opens the buy page, the list shows the cheapest offers, the map draws the sections on sale,
 * a wrong key shows nothing and says why once, and `mode="dialog"` opens the buy page in the page. The
 * fixtures' CSP guard fails the test on any violation on any page, the partner's included.
 */

const REF = `WIDGET-${RUN}`;
const SELLER = `widget-seller-${RUN}@fans.test`;
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 120">' +
  '<rect data-section="A" data-label="Grada A" x="10" y="10" width="180" height="100" fill="#e4ecf7"/>' +
  '<rect data-section="B" data-label="Grada B" x="210" y="10" width="180" height="100" fill="#f3e7da"/></svg>';

let partner = { partnerId: '', apiKey: '', publishableKey: '', channelsApiKey: '' };
let site: PartnerSite;

test.beforeAll(async ({ request }) => {
  partner = await createPartner(`Widget Partner ${RUN}`);
  await pushEurEvent(request, partner.apiKey, {
    ref: REF,
    title: `Widget night ${RUN}`,
    description: '<p>A night sold through a widget.</p>',
    svg: SVG,
  });
  const seat = (section: string, s: string) => ({ props: { seating: { section, row: '1', seat: s } } });
  await syncTickets(request, partner.apiKey, [
    syncedTicket(REF, `W-A1-${RUN}`, SELLER, { price: 40, ...seat('A', '1') }),
    syncedTicket(REF, `W-A2-${RUN}`, SELLER, { price: 40, ...seat('A', '2') }),
  ]);
  for (const [ticket, price] of [
    [`W-A1-${RUN}`, '45'],
    [`W-A2-${RUN}`, '52'],
  ]) {
    await listTicket({ partnerId: partner.partnerId, sellerEmail: SELLER, ticketId: ticket, price });
  }
  site = await PartnerSite.start('Partner site', { frames: true });
});

test.afterAll(async () => {
  await site?.stop();
});

const element = (attrs: string) =>
  `<encore-resale publishable-key="${partner.publishableKey}" event="${REF}" show="1" ${attrs}></encore-resale>`;

test('on a partner’s page under a strict policy: the button with its from-price opens the buy page; the list, the map; a wrong key shows nothing', async ({
  page,
  context,
}) => {
  site.body =
    element('data-testid="button"') +
    element('layout="list" lang="en" data-testid="list"') +
    element('layout="map" data-testid="map"') +
    `<encore-resale publishable-key="pk_live_${'x'.repeat(32)}" event="${REF}" show="1" data-testid="wrong"></encore-resale>`;
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' && m.text().includes('<encore-resale>')) warnings.push(m.text());
  });
  await page.goto(site.origin);

  // The button: in the page's language (es), its accessible name carrying the cheapest price with fees.
  const button = page.getByTestId('button').getByRole('link', { name: /desde 45,\d\d\s€/ });
  await expect(button).toBeVisible();
  await expect(button).toHaveAttribute('target', '_blank');
  await expect(button).toHaveAttribute('href', new RegExp(`^${baseURL}/market/evt_\\w+\\?show=shw_\\w+&lang=es`));

  // The list, in English as its own lang says: the two offers, cheapest first, each to its checkout.
  const offers = page.getByTestId('list').getByRole('listitem');
  await expect(offers).toHaveCount(2);
  await expect(offers.first()).toContainText('Section A · Row 1 · Seat 1 · 1 ticket');
  await expect(offers.first().getByRole('link', { name: /€45\.\d\d/ })).toHaveAttribute(
    'href',
    new RegExp(`^${baseURL}/checkout\\?listings=lst_`),
  );

  // The map: section A (on sale) a link to the page filtered to it; B drawn as an image with its name.
  const map = page.getByTestId('map');
  await expect(map.getByRole('link', { name: 'Grada A, 2 entradas' })).toHaveAttribute('href', /section=A/);
  await expect(map.getByRole('img', { name: 'Grada B' })).toBeVisible();

  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `widget-partner-page-${width}`);
  }

  // A wrong key: nothing shown, one warning saying why.
  await expect(page.getByTestId('wrong')).toBeHidden();
  await expect.poll(() => warnings.length).toBe(1);
  expect(warnings[0]).toContain('Encore refused the request (401');

  // Activated, the button opens the show's buy page in a new tab.
  const [buyPage] = await Promise.all([context.waitForEvent('page'), button.click()]);
  await buyPage.waitForLoadState();
  expect(buyPage.url()).toContain(`${baseURL}/market/`);
  await expect(buyPage.getByRole('heading', { name: `Widget night ${RUN}` })).toBeVisible();
  expect(await buyPage.content()).not.toContain(partner.apiKey);
  await buyPage.close();

  // Nothing Encore served this page carries a secret key: the script, and the answers it read.
  const script = await (await fetch(`${baseURL}/widget/v1.js`)).text();
  expect(script).not.toMatch(/sk_(live|test|ch)_/);
  expect(script).not.toContain(partner.apiKey);
});

test('mode="dialog" opens the buy page inside the partner’s page, where its return origins allow framing', async ({
  page,
}) => {
  // Staff allow the partner's site to frame Encore's pages (its allowed return origins).
  await page.goto(`/dashboard/partners/${partner.partnerId}`);
  await signIn(page);
  const form = page.getByRole('form', { name: 'Allowed return origins' });
  await form.getByLabel('Allowed return origins').fill(site.origin);
  await form.getByRole('button', { name: 'Save return origins' }).click();
  await expect(form.getByText('Saved.')).toBeVisible();

  site.body = element('mode="dialog" lang="en" data-testid="dialog"');
  await page.goto(site.origin);
  const button = page.getByTestId('dialog').getByRole('link', { name: /from €45\.\d\d/ });
  await button.click();
  const dialog = page.getByTestId('dialog').getByRole('dialog', { name: 'Resale tickets' });
  await expect(dialog).toBeVisible();
  const framed = page.frameLocator('encore-resale iframe');
  await expect(framed.getByRole('heading', { name: `Widget night ${RUN}` })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
});

test('staff embed it: pick the show, language and layout, copy both snippets, see the widget live', async ({
  page,
  request,
}) => {
  // An event of two shows sent latest first, in Lisbon's time: the Embed page offers the next one to start.
  await pushEvent(request, partner.apiKey, {
    ref: `${REF}-TOUR`,
    title: `Widget tour ${RUN}`,
    description: '<p>Two nights.</p>',
    location: { city: 'Lisboa', venueName: 'Coliseu', timeZone: 'Europe/Lisbon' },
    shows: [
      eventShow('late', '2027-09-04T21:00:00+01:00', 'Night two', EUR_STANDING),
      eventShow('early', '2027-07-03T21:00:00+01:00', 'Night one', EUR_STANDING),
    ],
  });
  await page.goto(`/dashboard/partners/${partner.partnerId}`);
  await signIn(page);
  await page.getByRole('link', { name: 'Embed the widget' }).click();
  await expect(page.getByRole('heading', { name: 'Embed' })).toBeVisible();
  const form = page.getByRole('form', { name: 'What to show' });
  await expect(form.getByLabel('Event')).toContainText(`Widget night ${RUN} (${REF})`);
  await form.getByLabel('Event').selectOption({ label: `Widget tour ${RUN} (${REF}-TOUR)` });
  await form.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/event=evt_/);
  // Each show at the venue's time; the next to start chosen, though the partner sent it second.
  await expect(form.getByLabel('Show')).toHaveValue('early');
  await expect(form.getByLabel('Show').locator('option')).toHaveText([
    'late · 4 Sep 2027, 21:00 Europe/Lisbon',
    'early · 3 Jul 2027, 21:00 Europe/Lisbon',
  ]);
  await expect(page.getByTestId('snippet-element')).toContainText(`event="${REF}-TOUR" show="early"`);
  await form.getByLabel('Event').selectOption({ label: `Widget night ${RUN} (${REF})` });
  await form.getByRole('button', { name: 'Show' }).click();
  await expect(form.getByLabel('Show').locator('option')).toHaveText(['1 · 12 Jun 2027, 21:30 Europe/Madrid']);
  await form.getByLabel('Language').selectOption('en');
  await form.getByLabel('Layout').selectOption('list');
  await form.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/layout=list/);
  await expect(page.getByTestId('snippet-script')).toHaveText(`<script src="${baseURL}/widget/v1.js" async></script>`);
  await expect(page.getByTestId('snippet-element')).toHaveText(
    `<encore-resale publishable-key="${partner.publishableKey}" event="${REF}" show="1" lang="en" layout="list"></encore-resale>`,
  );
  await expect(page.getByRole('button', { name: 'Copy the element snippet' })).toBeVisible();
  await expect(page.getByTestId('snippet-sell')).toHaveText(
    `<encore-sell publishable-key="${partner.publishableKey}" token="ott_…" lang="en"></encore-sell>`,
  );
  // Live: the widget itself, on Encore's own page.
  await expect(page.getByTestId('widget-preview').getByRole('listitem')).toHaveCount(2);
  await axe(page, 'the Embed page');
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `widget-embed-page-${width}`);
  }
});
