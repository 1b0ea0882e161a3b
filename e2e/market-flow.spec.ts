import { type Browser, expect, type Page, test } from './fixtures';
import {
  PRESENTATION,
  axe,
  baseURL,
  call,
  createPartner,
  listTicket,
  pageShot,
  pointWebhooks,
  Receiver,
  RUN,
  setUp,
  pushCappedEurEvent,
  payWithTestCard,
  EUR_STANDING,
  eventShow,
  pushEvent,
  syncedTicket,
  syncTickets,
  openMail,
  withParams,
} from './helpers';

/*
 * The market end to end: a partner (a fake partner server in this
 * process receives its webhooks) pushes an event, a price cap and a seller's tickets; the seller arrives
 * from the selling-flow URL with a one-time token and lists a ticket (a price above the cap is refused
 * with the allowed range); a buyer arrives from the buying-flow URL, buys it on the sandbox payment page,
 * opens the secure view, receives the confirmation mail with the secure link (read by staff in the
 * mailbox: the e2e server has no SMTP_URL), and the partner receives `ticket.updated`. The buyer's pages
 * are checked by axe and photographed in English and Spanish at phone and desktop width.
 */

const NAME = `Flow Partner ${RUN}`;
const REF = `FLOW-${RUN}`;
const SELLER = `flow-seller-${RUN}@fans.test`;
const BUYER = `flow-buyer-${RUN}@fans.test`;
const TICKET = `FL1-${RUN}`;
const RETURN_TO = 'https://tickets.partner.example/events/flow';

/** Axe, then full-page screenshots at 390 px and 1366 px (kept with the run's artifacts). */
async function check(page: Page, name: string) {
  for (const [w, h] of [
    [390, 844],
    [1366, 900],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await axe(page, `${name} at ${w}px`);
    await pageShot(page, `${name}-${w}.png`);
  }
}

// Words of the English fan-page titles that have no place in a Spanish one (brand names aside).
const ENGLISH_TITLE_WORDS =
  /\b(your|tickets?|listing|listed|sell|resell|resale|take|off|sale|transfer|send|unsubscribe|checkout|sign|terms|link|expired)\b/i;

/**
 * A fan page declares the fan's language on <html> (what screen readers and translation tools read),
 * and its tab title is noted per language for the comparison at the end.
 */
async function expectDeclaredLanguage(
  page: Page,
  what: string,
  lang: 'en' | 'es',
  titles: Record<string, Partial<Record<'en' | 'es', string>>>,
) {
  await expect(page.locator('html'), `${what} (${lang}) <html lang>`).toHaveAttribute('lang', lang);
  const title = await page.title();
  expect(title, `${what} (${lang}) has a title of its own`).toMatch(/ · Encore$/);
  titles[what] = { ...titles[what], [lang]: title };
}

/** Staff, in their own browser context, open the newest mail to `to` with `subject`; answers its text. */
async function mailText(browser: Browser, to: string, subject: string): Promise<string> {
  const mail = await openMail(browser, to, subject);
  await mail.context.close();
  return mail.text;
}

test('a ticket listed by its owner is bought on the sandbox page; the buyer gets the mail, the partner the webhook @database-flow', async ({
  page,
  browser,
  request,
}) => {
  // A long flow (several pages, a webhook delivered by the worker): more than the default minute under load.
  test.setTimeout(150_000);
  const receiver = await new Receiver().start();
  try {
    const { partnerId, apiKey } = await createPartner(NAME);
    // Its own site (its support page's): the back link to RETURN_TO is shown (no return origins set).
    await setUp('partner-site', { partnerId, supportUrl: 'https://tickets.partner.example/help' });
    // The seller's own secure link, from before the sale.
    let sellerLink = '';
    // The buyer's order page (the success page), opened again after the show is cancelled.
    let orderUrl = '';

    await test.step('staff point the partner’s webhooks at its server', () =>
      pointWebhooks(browser, partnerId, receiver.url));

    await test.step('the partner pushes the event, a price cap and the seller’s ticket', async () => {
      await pushCappedEurEvent(request, apiKey, {
        ref: REF,
        title: `Flow Festival ${RUN}`,
        description: '<p>Two nights of <strong>music</strong>.</p>',
      });
      await syncTickets(request, apiKey, [
        syncedTicket(REF, TICKET, SELLER, {
          price: 40,
          props: { seating: { section: 'Pista', row: '2', seat: '14' } },
        }),
      ]);
      const url = await call(request, apiKey, 'GET', `/v1/tickets/${TICKET}/url`);
      sellerLink = url.body.data as string;
    });

    await test.step('the seller lists it from the selling-flow URL, within the cap', async () => {
      const sellUrl = (
        await call(request, apiKey, 'GET', `/v1/marketplace/sellingflow/url/entrypoint?ticketId=${TICKET}`)
      ).body.data as string;
      const token = (await call(request, apiKey, 'GET', `/v1/auth/oneTimeToken?user=${encodeURIComponent(SELLER)}`))
        .body.data as string;
      const seller = await (await browser.newContext()).newPage();
      await seller.goto(withParams(sellUrl, { token }));
      await expect(seller).not.toHaveURL(/token=/);
      await expect(seller.getByTestId('partner-brand')).toContainText(NAME);
      await expect(seller.getByTestId('price-range')).toHaveText('Allowed: €20.00 to €48.00 per ticket.');
      await seller.getByTestId('price-input').fill('60');
      await seller.getByRole('button', { name: 'List my ticket' }).click();
      await expect(seller.getByTestId('price-error')).toHaveText('This price is above the maximum allowed.');
      await expect(seller.getByTestId('price-range')).toHaveText('Allowed: €20.00 to €48.00 per ticket.');
      await seller.getByTestId('price-input').fill('45');
      await seller.getByRole('button', { name: 'List my ticket' }).click();
      await expect(seller.getByTestId('sell-done')).toBeVisible();
      await seller.context().close();
    });

    const entry = (
      await call(
        request,
        apiKey,
        'GET',
        `/v1/marketplace/buyingflow/url/entrypoint?externalReferenceEventId=${REF}&showId=1&returnTo=${encodeURIComponent(RETURN_TO)}`,
      )
    ).body.data as string;

    await test.step('in Spanish the buy page shows the price with fees in euros, in the venue’s time', async () => {
      const es = await (await browser.newContext({ locale: 'es-ES' })).newPage();
      await es.goto(withParams(entry, { lang: 'es' }));
      await expect(es.getByTestId('event-title')).toHaveText(`Flow Festival ${RUN}`);
      await expect(es.getByTestId('show-date')).toHaveText('sáb, 12 jun 2027, 21:30');
      await expect(es.getByTestId('listing-price')).toContainText('45,00 €');
      await expect(es.getByTestId('return-to')).toHaveText(/Volver a/);
      await check(es, 'flow-market-es');
      await es.context().close();
    });

    await test.step('a buyer arrives from the buying-flow URL and pays on the sandbox page', async () => {
      await page.goto(entry);
      await expect(page.getByTestId('partner-brand')).toContainText(NAME);
      await expect(page.getByTestId('return-to')).toHaveAttribute('href', RETURN_TO);
      await expect(page.getByTestId('show-date')).toHaveText('Sat, Jun 12, 2027, 9:30 PM');
      await expect(page.getByTestId('listing-seat')).toHaveText('Section Pista · Row 2 · Seat 14');
      await expect(page.getByTestId('listing-price')).toContainText('€45.00');
      await check(page, 'flow-market-en');
      await page.getByTestId('buy').click();
      await expect(page.getByTestId('checkout-total')).toHaveText('€45.00');
      await check(page, 'flow-checkout-en');
      await page.getByLabel('E-mail for your tickets').fill(BUYER);
      await page.getByTestId('pay').click();
      await expect(page).toHaveURL(/\/pay\/pay_/);
      await payWithTestCard(page, 'Bea Buyer');
      await expect(page.getByTestId('purchase-success')).toContainText(BUYER);
      await check(page, 'flow-success-en');
      orderUrl = page.url();
    });

    await test.step('the secure view opens right after the purchase', async () => {
      await page.getByTestId('ticket-link').click();
      await expect(page).toHaveURL(/\/t\//);
      await expect(page.getByTestId('ticket-status')).toHaveText('Valid');
      await expect(page.getByTestId('ticket-seat')).toHaveText('Section Pista · Row 2 · Seat 14');
      await check(page, 'flow-ticket-en');
    });

    await test.step('the seller’s old link now says the ticket was sold, and shows no code', async () => {
      const old = await (await browser.newContext()).newPage();
      await old.goto(`${sellerLink}${sellerLink.includes('?') ? '&' : '?'}lang=en`);
      await expect(old.getByTestId('ticket-status')).toHaveText('Sold');
      await expect(old.getByText(/Good news: this ticket found a buyer on/)).toBeVisible();
      await expect(old.getByTestId('ticket-qr')).toHaveCount(0);
      await expect(old.getByTestId('moving-code')).toHaveCount(0);
      expect(await old.content()).not.toContain(`CODE-${TICKET}`);
      await old.context().close();
    });

    await test.step('the buyer’s confirmation mail carries a working secure link', async () => {
      const text = await mailText(browser, BUYER, `Your tickets for Flow Festival ${RUN}`);
      const link = /http:\/\/\S+\/t\/\S+/.exec(text)?.[0];
      expect(link, text).toBeTruthy();
      const fan = await (await browser.newContext()).newPage();
      await fan.goto(link ?? '');
      await expect(fan.getByTestId('ticket-status')).toHaveText('Valid');
      await fan.context().close();
    });

    await test.step('the partner receives ticket.updated with the new and the old owner', async () => {
      const updated = () => receiver.bodies.find((b) => b.family === 'ticket' && b.action === 'ticket.updated');
      // Delivered after the commit, at the latest by the dispatcher's minute sweep.
      await expect.poll(() => !!updated(), { timeout: 75_000, message: 'ticket.updated delivered' }).toBe(true);
      expect(updated()?.data, JSON.stringify(receiver.bodies)).toMatchObject({
        id: TICKET,
        newOwnerEmail: BUYER,
        oldOwnerEmail: SELLER,
      });
    });

    await test.step('the show is cancelled: the order page says refunded, why, how much and when, with no tickets', async () => {
      const cancelled = await call(request, apiKey, 'POST', `/v1/events/${REF}/cancellation`);
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      await page.goto(orderUrl);
      const refunded = page.getByTestId('purchase-refunded');
      await expect(refunded).toContainText('Your purchase was refunded');
      await expect(page.getByTestId('refund-reason')).toHaveText('The show was cancelled by the organiser.');
      await expect(page.getByTestId('refund-body')).toContainText('we refunded €45.00 to the card you paid with');
      await expect(page.getByTestId('purchase-success')).toHaveCount(0);
      await expect(page.getByTestId('ticket-link')).toHaveCount(0);
      await expect(page.getByText('Your tickets are in your name now')).toHaveCount(0);
      await check(page, 'flow-refunded-en');
      const es = await (await browser.newContext({ locale: 'es-ES' })).newPage();
      await es.goto(`${orderUrl}${orderUrl.includes('?') ? '&' : '?'}lang=es`);
      await expect(es.getByTestId('purchase-refunded')).toContainText('Tu compra fue reembolsada');
      await expect(es.getByTestId('refund-reason')).toHaveText('El organizador canceló el espectáculo.');
      await expect(es.getByTestId('refund-body')).toContainText('te devolvimos 45,00 €');
      await expect(es.getByTestId('ticket-link')).toHaveCount(0);
      await es.context().close();
    });

    await test.step('the partner receives ticket.refunded once, with the reason', async () => {
      const refunded = () => receiver.bodies.filter((b) => b.family === 'ticket' && b.action === 'ticket.refunded');
      await expect.poll(() => refunded().length, { timeout: 75_000, message: 'ticket.refunded delivered' }).toBe(1);
      expect(refunded()[0].data).toMatchObject({ ids: [TICKET], buyerEmail: BUYER, refundReason: 'SHOW_CANCELLED' });
    });
  } finally {
    await receiver.stop();
  }
});

test(
  'every fan page in English and Spanish, at 390 px and 1366 px: translated, no sideways scroll; axe-clean at both widths',
  PRESENTATION,
  async ({ browser, request }) => {
    test.setTimeout(240_000);
    const name = `Pages Partner ${RUN}`;
    const ref = `PAGES-${RUN}`;
    const seller = `pages-seller-${RUN}@fans.test`;
    const { partnerId, apiKey } = await createPartner(name);
    await pushEvent(request, apiKey, {
      ref,
      title: `Pages Festival ${RUN}`,
      description: '<p>A long night of <em>music</em>, with a <a href="https://example.com">lineup</a>.</p>',
      location: { city: 'Sevilla', venueName: 'Auditorio del Río', timeZone: 'Europe/Madrid' },
      shows: [
        eventShow('1', '2027-07-03T22:00:00+02:00', 'Night one', {
          title: 'Grada',
          ticketId: 'GR',
          description: 'Seated',
          currency: 'EUR',
          price: 30,
        }),
      ],
    });
    const ticket = (ticketId: string, extra: Record<string, unknown> = {}) =>
      syncedTicket(ref, ticketId, seller, {
        ticketOptionId: 'GR',
        price: 30,
        props: { seating: { section: 'Norte', row: '7', seat: ticketId.slice(-1) } },
        ...extra,
      });
    const ids = { single: `P1-${RUN}`, listed: `P2-${RUN}`, held: `P3-${RUN}`, o1: `PO1-${RUN}`, o2: `PO2-${RUN}` };
    await syncTickets(request, apiKey, [
      ticket(ids.single),
      ticket(ids.listed),
      ticket(ids.held),
      ticket(ids.o1, { orderId: `PORD-${RUN}` }),
      ticket(ids.o2, { orderId: `PORD-${RUN}` }),
    ]);
    const list = async (t: string) =>
      (await listTicket({ partnerId, sellerEmail: seller, ticketId: t, price: '32' })).listingId;
    const listed = await list(ids.listed);
    const held = await list(ids.held);
    const intention = await call(request, apiKey, 'POST', '/v1/marketplace/buyingflow/buyIntention', {
      items: [held],
      user: `pages-buyer-${RUN}@fans.test`,
    });
    expect(intention.status, JSON.stringify(intention.body)).toBe(200);
    const get = async (path: string) => {
      const res = await call(request, apiKey, 'GET', path);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body.data as string;
    };
    const path = (url: string) => url.replace(baseURL, '');
    const market = path(
      await get(
        `/v1/marketplace/buyingflow/url/entrypoint?externalReferenceEventId=${ref}&showId=1&returnTo=${encodeURIComponent(RETURN_TO)}`,
      ),
    );
    const sell = path(await get(`/v1/marketplace/sellingflow/url/entrypoint?ticketId=${ids.single}`));
    const order = path(await get(`/v1/marketplace/sellingflow/url/order/entrypoint?orderId=PORD-${RUN}`));
    const listedSell = path(await get(`/v1/marketplace/sellingflow/url/entrypoint?ticketId=${ids.listed}`));
    const secure = path(await get(`/v1/tickets/${ids.single}/url`));
    const token = await get(`/v1/auth/oneTimeToken?user=${encodeURIComponent(seller)}`);

    const context = await browser.newContext();
    const page = await context.newPage();
    // The seller's session (the partner's one-time token), for the seller's pages.
    await page.goto(`${sell}${sell.includes('?') ? '&' : '?'}token=${token}`);
    await expect(page).not.toHaveURL(/token=/);

    const pages: [string, string][] = [
      ['market', market],
      ['checkout', `/checkout?listings=${listed}`],
      ['purchase-pending', `/checkout/${(intention.body.data as { id: string }).id}`],
      ['secure-ticket', secure],
      ['sell', sell],
      ['sell-order', order],
      ['sell-done', `${listedSell.split('?')[0]}/done?listing=${listed}`],
      ['listing', `/listing/${listed}`],
      ['listing-unlist', `/listing/${listed}/unlist`],
      ['resale-entry', `/resale/${partnerId}`],
      ['login', `/login?partner=${partnerId}`],
      ['not-found', '/market/evt_doesnotexist'],
    ];
    const titles: Record<string, Partial<Record<'en' | 'es', string>>> = {};
    for (const lang of ['en', 'es'] as const) {
      for (const [what, url] of pages) {
        const target = new URL(url, baseURL);
        target.searchParams.set('lang', lang);
        await page.goto(`${target.pathname}${target.search}`);
        await expect(page.locator('.mk').first(), `${what} (${lang})`).toHaveAttribute('lang', lang);
        await expectDeclaredLanguage(page, what, lang, titles);
        await expect(page.getByTestId('partner-brand'), what).toBeVisible();
        if (what !== 'not-found') await expect(page.getByTestId('partner-brand'), what).toContainText(name);
        // The skip link is the first text of every page: translated like the rest.
        await expect(page.locator('.mk-skip')).toHaveText(lang === 'es' ? 'Saltar al contenido' : 'Skip to content');
        for (const [w, h] of [
          [390, 844],
          [1366, 900],
        ] as const) {
          await page.setViewportSize({ width: w, height: h });
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(overflow, `${what} (${lang}) scrolls sideways at ${w}px`).toBeLessThanOrEqual(0);
          // axe reads structure, names, roles and contrast, which a language does not change: once per page and
          // width (0.5-0.8 s each). What a language changes (its words, `lang`, the width they take) is checked
          // above in both; e2e/languages.spec.ts runs axe on the buy, checkout and sell pages in every language.
          if (lang === 'en') await axe(page, `${what} at ${w}px`);
          await pageShot(page, `page-${what}-${lang}-${w}.png`);
        }
      }
    }
    // The fan pages outside the matrix above (no layout of their own to check): their language and title too.
    const payment = path((intention.body.data as { paymentUrl: string }).paymentUrl);
    const others: [string, string, boolean][] = [
      ['payment', payment, true],
      ['terms', `/terms?partner=${partnerId}`, true],
      ['listing-transfer', `/listing/${listed}/transfer?to=friend-${RUN}@fans.test`, true],
      ['ticket-transfer', `${secure.split('?')[0]}/transfer`, true],
      ['unsubscribe', '/unsubscribe/lead_doesnotexist', true],
      ['me', '/me', false],
      ['expired-link', `/auth/expired?partner=${partnerId}`, false],
    ];
    const anonymous = await (await browser.newContext()).newPage();
    for (const lang of ['en', 'es'] as const) {
      for (const [what, url, signedIn] of others) {
        const target = new URL(url, baseURL);
        target.searchParams.set('lang', lang);
        const on = signedIn ? page : anonymous;
        await on.goto(`${target.pathname}${target.search}`);
        await expectDeclaredLanguage(on, what, lang, titles);
      }
    }
    for (const [what, title] of Object.entries(titles)) {
      // The market's unknown show answers with the market's own (translated) title, like the rest.
      expect(title.es, `${what}: Spanish title is not the English one`).not.toBe(title.en);
      expect(title.es, `${what}: English words in the Spanish title`).not.toMatch(ENGLISH_TITLE_WORDS);
    }
    // Staff and developer pages stay English, whatever the fan's remembered language (the cookie set above).
    for (const url of ['/signin', '/docs']) {
      await page.goto(`${url}?lang=es`);
      await expect(page.locator('html'), url).toHaveAttribute('lang', 'en');
    }
    await anonymous.context().close();
    await context.close();
  },
);

test('a buyer whose hold the show cancellation ended is refused on the payment page before paying, in their language', async ({
  browser,
  request,
}) => {
  const ref = `HOLD-${RUN}`;
  const seller = `hold-seller-${RUN}@fans.test`;
  const ticketId = `H1-${RUN}`;
  const { partnerId, apiKey } = await createPartner(`Hold Partner ${RUN}`);
  await pushEvent(request, apiKey, {
    ref,
    title: `Hold Festival ${RUN}`,
    description: '<p>One night.</p>',
    location: { city: 'Madrid', venueName: 'Sala Sur', timeZone: 'Europe/Madrid' },
    shows: [eventShow('1', '2027-08-07T21:00:00+02:00', 'Night one', EUR_STANDING)],
  });
  await syncTickets(request, apiKey, [syncedTicket(ref, ticketId, seller, { price: 40 })]);
  const { listingId } = await listTicket({ partnerId, sellerEmail: seller, ticketId, price: '40' });
  const intention = await call(request, apiKey, 'POST', '/v1/marketplace/buyingflow/buyIntention', {
    items: [listingId],
    user: `hold-buyer-${RUN}@fans.test`,
  });
  expect(intention.status, JSON.stringify(intention.body)).toBe(200);
  const paymentUrl = new URL(intention.body.data.paymentUrl as string);

  const page = await (await browser.newContext({ locale: 'es-ES' })).newPage();
  await page.goto(`${paymentUrl.pathname}?lang=es`);
  await page.getByLabel('Número de tarjeta').fill('4242 4242 4242 4242');
  // The show is cancelled while the buyer types their card.
  const cancelled = await call(request, apiKey, 'POST', `/v1/events/${ref}/cancellation`);
  expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
  await page.getByLabel('Fecha de caducidad').fill('12 / 34');
  await page.getByLabel('Código de seguridad').fill('123');
  await page.getByLabel('Nombre en la tarjeta').fill('Ana Compradora');
  await page.getByLabel('Nombre en la tarjeta').press('Enter');
  await expect(page.getByTestId('pay-refused')).toHaveText(
    'El espectáculo fue cancelado, así que estas entradas ya no se pueden comprar. No se te ha cobrado nada.',
  );
  await axe(page, 'refused payment (es)');
  await pageShot(page, 'pay-refused-es.png');
  await page.context().close();
});
