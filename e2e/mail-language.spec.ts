import { type Browser, expect, test } from './fixtures';
import {
  call,
  createPartner,
  listTicket,
  pushCappedEurEvent,
  RUN,
  shot,
  syncedTicket,
  syncTickets,
  openMail,
} from './helpers';

/*
 * A fan's mails are in the language of the pages they used: a seller lists on a Spanish page,
 * a buyer pays from a Spanish page, a fan asks on a Spanish page to be told of tickets, all on a phone;
 * each of them gets their mails in Spanish (read by staff in the mailbox: the e2e server has no SMTP_URL).
 * The language is recorded with the listing, the buy intention and the lead when the page makes them.
 */

const REF = `IDIOMA-${RUN}`;
const TITLE = `Noche de idiomas ${RUN}`;
const SELLER = `idioma-vende-${RUN}@fans.test`;
const BUYER = `idioma-compra-${RUN}@fans.test`;
const WISH = `idioma-aviso-${RUN}@fans.test`;
const PHONE = { viewport: { width: 390, height: 844 }, locale: 'es-ES' };

async function expectSpanishMail(browser: Browser, to: string, subject: string, says: string, name?: string) {
  const mail = await openMail(browser, to, subject);
  try {
    await expect(mail.page.getByTestId('mail-subject')).toHaveText(subject);
    await expect(mail.page.getByText(/^\w+ \(es\)$/)).toBeVisible(); // the detail's kind and language
    expect(mail.text).toContain(says);
    if (name) {
      await mail.page.setViewportSize({ width: 390, height: 844 });
      await shot(mail.page, name);
    }
  } finally {
    await mail.context.close();
  }
}

test('a fan who sells, buys or asks to be told on Spanish pages gets Spanish mails', async ({ browser, request }) => {
  test.setTimeout(150_000);
  const { partnerId, apiKey } = await createPartner(`Idiomas ${RUN}`);
  await pushCappedEurEvent(request, apiKey, { ref: REF, title: TITLE, description: '<p>Música.</p>' });
  // The partner's buying entrypoint for the show, in Spanish (the buyer and the wishlist fan both come by it).
  const spanishBuyUrl = async () =>
    (
      await call(
        request,
        apiKey,
        'GET',
        `/v1/marketplace/buyingflow/url/entrypoint?externalReferenceEventId=${REF}&showId=1&returnTo=${encodeURIComponent('https://tickets.partner.example/')}&lang=es`,
      )
    ).body.data as string;
  await syncTickets(
    request,
    apiKey,
    ['A', 'B'].map((n) => syncedTicket(REF, `${n}-${RUN}`, SELLER, { price: 40 })),
  );

  await test.step('the seller lists a ticket on the Spanish selling page', async () => {
    const sellUrl = (
      await call(request, apiKey, 'GET', `/v1/marketplace/sellingflow/url/entrypoint?ticketId=A-${RUN}&lang=es`)
    ).body.data as string;
    const token = (await call(request, apiKey, 'GET', `/v1/auth/oneTimeToken?user=${encodeURIComponent(SELLER)}`)).body
      .data as string;
    const seller = await (await browser.newContext(PHONE)).newPage();
    await seller.goto(`${sellUrl}&token=${token}`);
    await expect(seller.locator('html')).toHaveAttribute('lang', 'es');
    await seller.getByTestId('price-input').fill('45');
    await seller.getByTestId('price-input').press('Enter');
    await expect(seller.getByTestId('sell-done')).toBeVisible();
    await seller.context().close();
    await expectSpanishMail(browser, SELLER, `Tus entradas para ${TITLE} están a la venta`, 'están a la venta por');
  });

  await test.step('a buyer pays from the Spanish buy page: both get Spanish mails', async () => {
    const entry = await spanishBuyUrl();
    const buyer = await (await browser.newContext(PHONE)).newPage();
    await buyer.goto(entry);
    await expect(buyer.locator('html')).toHaveAttribute('lang', 'es');
    await buyer.getByTestId('buy').click();
    await buyer.getByLabel('Correo para tus entradas').fill(BUYER);
    await buyer.getByTestId('pay').click();
    await expect(buyer).toHaveURL(/\/pay\/pay_/);
    await buyer.getByLabel('Número de tarjeta').fill('4242 4242 4242 4242');
    await buyer.getByLabel('Fecha de caducidad').fill('12 / 34');
    await buyer.getByLabel('Código de seguridad').fill('123');
    await buyer.getByLabel('Nombre en la tarjeta').fill('Bea Compradora');
    await buyer.getByLabel('Nombre en la tarjeta').press('Enter');
    await expect(buyer.getByTestId('purchase-success')).toContainText(BUYER);
    await buyer.context().close();
    await expectSpanishMail(browser, BUYER, `Tus entradas para ${TITLE}`, 'Pagaste 45,00', 'mail-purchase-es-390');
    await expectSpanishMail(browser, SELLER, `Vendidas: tus entradas para ${TITLE}`, 'Tu pago es de');
  });

  await test.step('a fan asks on the Spanish page to be told; the next listing is mailed in Spanish', async () => {
    const wish = await (await browser.newContext(PHONE)).newPage();
    const market = await spanishBuyUrl();
    await wish.goto(market);
    await wish.getByLabel('Correo electrónico').fill(WISH);
    await wish.getByRole('button', { name: 'Avisarme' }).click();
    await expect(wish.getByTestId('wishlist-saved')).toContainText(WISH);
    await wish.context().close();
    // Listed without a page (the test hook, as the partner API would): the wishlist mail has the lead's language.
    await listTicket({ partnerId, sellerEmail: SELLER, ticketId: `B-${RUN}`, price: '44' });
    await expectSpanishMail(browser, WISH, `Hay entradas a la venta para ${TITLE}`, 'No recibir más avisos');
  });
});
