import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import {
  axe,
  call,
  createPartner,
  listTicket,
  RUN,
  setUp,
  shot,
  signIn,
  payWithTestCard,
  svgIconsOnly,
  withParams,
} from './helpers';

/*
 * Every promise true, and the buyer guarantee where it counts: what the buy page says about
 * the code follows the partner's reissue setting; checkout, the payment page and the order after payment
 * carry the guarantee block with the partner's support contact (set by staff, validated) and a link to
 * Encore's terms; the seller reads the payout date on the selling page and the listing; the seller's old
 * link says Sold as good news. Screenshots at 390 and 1366 px, in English and Spanish.
 */

const SIZES = [
  ['390', { width: 390, height: 844 }],
  ['1366', { width: 1366, height: 900 }],
] as const;

/**
 * Screenshots of the page as it is, at both widths, in English then Spanish (the URL's `lang`), once the
 * element `ready` shows (pages that ask the partner stream a loading state first).
 */
async function shotsBothLanguages(page: Page, name: string, ready = 'partner-brand') {
  const here = new URL(page.url());
  for (const lang of ['en', 'es'] as const) {
    here.searchParams.set('lang', lang);
    await page.goto(`${here.pathname}${here.search}`);
    await expect(page.getByTestId(ready).first()).toBeVisible();
    for (const [label, size] of SIZES) {
      await page.setViewportSize(size);
      await shot(page, `guarantee-${name}-${lang}-${label}`);
    }
  }
  here.searchParams.set('lang', 'en');
  await page.goto(`${here.pathname}${here.search}`);
  await page.setViewportSize({ width: 390, height: 844 });
}

/** A partner with one show (Lima, Sep 10 2027 at 21:00) and tickets T1, T2 of SELLER, T1 listed at 60. */
async function market(request: APIRequestContext, name: string, seller: string) {
  const created = await createPartner(name);
  const ref = `GUA-${RUN}-${name.length}`;
  await setUp('market-terms', { partnerId: created.partnerId, buyerFeePercent: 10 });
  const pushed = await call(request, created.apiKey, 'POST', '/v1/events', {
    title: `Concierto ${name}`,
    description: 'A night of music.',
    externalReferenceId: ref,
    location: { city: 'Lima', venueName: 'Estadio Nacional', timeZone: 'America/Lima' },
    configuration: {},
    shows: [
      {
        title: 'Night',
        showId: '1',
        date: '2027-09-10T21:00:00-05:00',
        images: [],
        configuration: {},
        ticketOptions: [{ title: 'General', ticketId: 'GA', description: 'General', currency: 'USD', price: 50 }],
      },
    ],
  });
  expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
  const synced = await call(
    request,
    created.apiKey,
    'POST',
    '/v1/sync/tickets',
    ['T1', 'T2'].map((t) => ({
      externalReferenceEventId: ref,
      showId: '1',
      ticketId: `${t}-${name.length}-${RUN}`,
      buyer: { email: seller },
      ticketAccess: { type: 'OTHER', locator: `CODE-${t}` },
      ticketOptionId: 'GA',
    })),
  );
  expect(synced.body?.data?.imported, JSON.stringify(synced.body)).toBe(2);
  const ticket = (t: string) => `${t}-${name.length}-${RUN}`;
  const { listingId } = await listTicket({
    partnerId: created.partnerId,
    sellerEmail: seller,
    ticketId: ticket('T1'),
    price: '60',
  });
  const entry = (
    await call(
      request,
      created.apiKey,
      'GET',
      `/v1/marketplace/buyingflow/url/entrypoint?externalReferenceEventId=${ref}&showId=1&returnTo=https%3A%2F%2Fpartner.example%2Fback`,
    )
  ).body.data as string;
  const u = new URL(entry);
  return { ...created, ref, listingId, ticket, buyPath: `${u.pathname}${u.search}` };
}

/** Staff open the partner's page in the dashboard (signed in). */
async function partnerAdmin(browser: Browser, partnerId: string, hash: string) {
  const admin = await (await browser.newContext()).newPage();
  await admin.goto(`/dashboard/partners/${partnerId}${hash}`);
  await signIn(admin);
  return admin;
}

test.use({ viewport: { width: 390, height: 844 } });

test('reissue off (the default): transfer promised, the guarantee on checkout, payment and order pages, terms, payout date, Sold as good news', async ({
  page,
  request,
  browser,
}) => {
  const SELLER = `gua-seller-${RUN}@fans.test`;
  const BUYER = `gua-buyer-${RUN}@fans.test`;
  const m = await market(request, `Garantía ${RUN}`, SELLER);
  const SUPPORT = `https://help-${RUN}.partner.example/fans`;

  await test.step('staff set the partner’s support contact; a bad value is refused at its field', async () => {
    const admin = await partnerAdmin(browser, m.partnerId, '');
    const form = admin.getByRole('form', { name: 'Support contact' });
    await form.getByLabel('Support page').fill('http://help.partner.example');
    await form.getByRole('button', { name: 'Save support contact' }).click();
    await expect(form.getByText('The support URL must be an https:// URL')).toBeVisible();
    await form.getByLabel('Support page').fill(SUPPORT);
    await form.getByLabel('Support e-mail').fill('not-an-email');
    await form.getByRole('button', { name: 'Save support contact' }).click();
    await expect(form.getByText('The support e-mail must be an e-mail address, like help@example.com')).toBeVisible();
    await admin.setViewportSize({ width: 1366, height: 900 });
    await form.scrollIntoViewIfNeeded();
    await admin.screenshot({ path: 'e2e/artifacts/guarantee-dashboard-support-1366.png' });
    await form.getByLabel('Support e-mail').fill('help@partner.example');
    await form.getByRole('button', { name: 'Save support contact' }).click();
    await expect(form.getByText('Saved.')).toBeVisible();
    await admin.context().close();
  });

  // The seller's secure link before the sale (it becomes their old link).
  const sellerLink = new URL(
    (await call(request, m.apiKey, 'GET', `/v1/tickets/${m.ticket('T1')}/url`)).body.data as string,
  );

  await test.step('the buy page promises a transfer (no new code) and the unlock time at the venue', async () => {
    await page.goto(`${m.buyPath}&lang=en`);
    const delivery = page.getByTestId('buy-delivery');
    await expect(delivery).toHaveText(
      'The ticket is transferred to your name. Its code appears on your ticket page on Fri, Sep 10, 2027, 6:00 PM.',
    );
    await expect(page.getByTestId('buy-trust')).not.toContainText(/new code|issued again|re-issued/);
  });

  await test.step('checkout: the guarantee with the partner’s support contact and Encore’s terms', async () => {
    await page.getByTestId('buy').first().click();
    await expect(page).toHaveURL(/\/checkout\?listings=/);
    const g = page.getByTestId('guarantee');
    await expect(g.getByRole('heading', { name: 'What Encore guarantees' })).toBeVisible();
    await svgIconsOnly(g.getByRole('heading', { name: 'What Encore guarantees' }));
    await expect(g).toContainText('If the show is cancelled, you get a full refund, fees included, automatically');
    await expect(g).toContainText('the seller still holds the ticket');
    await expect(g).not.toContainText('new code');
    await expect(g.getByRole('link', { name: `Garantía ${RUN} help page` })).toHaveAttribute('href', SUPPORT);
    await expect(g.getByRole('link', { name: 'help@partner.example' })).toHaveAttribute(
      'href',
      'mailto:help@partner.example',
    );
    await expect(g.getByTestId('terms-link')).toHaveAttribute('href', `/terms?partner=${m.partnerId}`);
    await axe(page, 'checkout with guarantee');
    await shotsBothLanguages(page, 'checkout');
    await expect(page.getByTestId('guarantee')).toContainText('What Encore guarantees');
  });

  await test.step('the payment page states it too; then the order after payment', async () => {
    await page.getByLabel('E-mail for your tickets').fill(BUYER);
    await page.getByTestId('pay').click();
    await page.waitForURL(/\/pay\/pay_/);
    await expect(page.getByTestId('guarantee')).toContainText('full refund, fees included');
    await axe(page, 'payment page with guarantee');
    await shotsBothLanguages(page, 'payment', 'amount');
    await payWithTestCard(page);
    await page.waitForURL(/\/checkout\/bi_/);
    await expect(page.getByTestId('purchase-success')).toBeVisible();
    const g = page.getByTestId('guarantee');
    await expect(g).toContainText('What Encore guarantees');
    await expect(g.getByTestId('guarantee-delivery')).toContainText('Fri, Sep 10, 2027, 6:00 PM');
    await axe(page, 'order with guarantee');
    await shotsBothLanguages(page, 'success');
    await page.goto(`${new URL(page.url()).pathname}?lang=es`);
    await expect(page.getByTestId('guarantee')).toContainText('Lo que Encore garantiza');
    await expect(page.getByTestId('guarantee')).toContainText('te devolvemos todo, comisiones incluidas');
  });

  await test.step('the seller’s old link says Sold as good news', async () => {
    await page.goto(`${sellerLink.pathname}?lang=en`);
    await expect(page.getByTestId('ticket-status')).toHaveText('Sold');
    await expect(page.getByTestId('ticket-status')).toHaveClass(/mk-badge-ok/);
    await expect(page.getByTestId('ticket-ended')).toHaveClass(/mk-success/);
    await expect(page.getByTestId('ticket-ended')).toContainText('Good news: this ticket found a buyer');
    await shotsBothLanguages(page, 'sold-link');
  });

  await test.step('the seller reads the payout date: on the selling page before a sale, on the sold listing after', async () => {
    const seller = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    const token = (await call(request, m.apiKey, 'GET', `/v1/auth/oneTimeToken?user=${encodeURIComponent(SELLER)}`))
      .body.data as string;
    const sellUrl = (
      await call(request, m.apiKey, 'GET', `/v1/marketplace/sellingflow/url/entrypoint?ticketId=${m.ticket('T2')}`)
    ).body.data as string;
    await seller.goto(withParams(sellUrl, { token, lang: 'en' }));
    await expect(seller.getByTestId('payout-date')).toHaveText(
      'If they sell, we pay you on Sep 10, 2027, once the show has taken place.',
    );
    await expect(seller.locator('.mk-lead')).not.toContainText('once a buyer completes the purchase');
    await shotsBothLanguages(seller, 'sell', 'payout-date');
    await seller.goto(`/listing/${m.listingId}?lang=en`);
    await expect(seller.getByTestId('listing-status')).toHaveText('Sold');
    await expect(seller.getByTestId('payout-date')).toHaveText(
      'We pay you on Sep 10, 2027, once the show has taken place.',
    );
    await shotsBothLanguages(seller, 'listing-sold', 'payout-date');
    await seller.context().close();
  });

  await test.step('the terms page: the partner’s contact when named and set, Encore’s otherwise', async () => {
    await page.goto(`/terms?partner=${m.partnerId}&lang=en`);
    await expect(page.getByRole('heading', { level: 1, name: 'Encore resale terms' })).toBeVisible();
    await expect(page.getByTestId('terms')).toContainText('held for you for 10 minutes');
    await expect(page.getByTestId('terms-support').getByRole('link', { name: SUPPORT })).toHaveAttribute(
      'href',
      SUPPORT,
    );
    await expect(page.getByTestId('partner-brand')).toContainText(`Garantía ${RUN}`);
    await axe(page, 'terms');
    await shotsBothLanguages(page, 'terms');
    await page.goto('/terms?lang=es');
    await expect(page.getByRole('heading', { level: 1, name: 'Condiciones de reventa de Encore' })).toBeVisible();
    await expect(page.getByTestId('terms-support').getByRole('link')).toHaveAttribute(
      'href',
      'mailto:support@encore.local',
    );
    await page.goto('/terms?partner=ptr_unknown&lang=en');
    await expect(page.getByTestId('terms-support')).toContainText('Encore can help');
  });
});

test('reissue on: the buy page and the guarantee promise a new code in the buyer’s name', async ({
  page,
  request,
  browser,
}) => {
  const m = await market(request, `Reemisión ${RUN}`, `gua-seller2-${RUN}@fans.test`);
  const admin = await partnerAdmin(browser, m.partnerId, '#protection');
  const section = admin.getByTestId('partner-protection');
  await section.getByLabel('Reissue after resale').selectOption('yes');
  await section.getByRole('button', { name: 'Save protection' }).click();
  await expect(section.getByText('Saved.')).toBeVisible();
  await admin.context().close();

  await page.goto(`${m.buyPath}&lang=en`);
  await expect(page.getByTestId('buy-delivery')).toHaveText(
    `Reemisión ${RUN} issues a new code in your name, so the seller's code stops working. It appears on your ticket page on Fri, Sep 10, 2027, 6:00 PM.`,
  );
  await page.getByTestId('buy').first().click();
  const g = page.getByTestId('guarantee');
  await expect(g).toContainText(`Reemisión ${RUN} issues you a new code: the seller's code stops working.`);
  // No contact set for this partner: Encore's own.
  await expect(g.getByTestId('guarantee-support')).toContainText('Encore can help');
  await expect(g.getByRole('link', { name: 'support@encore.local' })).toBeVisible();
  await page.goto(`${new URL(page.url()).pathname}${new URL(page.url()).search}&lang=es`);
  await expect(page.getByTestId('guarantee')).toContainText('te emite un código nuevo');
});
