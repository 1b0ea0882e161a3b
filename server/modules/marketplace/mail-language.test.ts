import { and, asc, eq } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as redeemRoute } from '@/app/auth/redeem/route';
import { POST as cancelPost } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { POST as leadsPost } from '@/app/v1/marketdata/ticket-leads/bulk/route';
import { getDb } from '@/db';
import { fanSessions } from '@/db/schema/fans';
import { mails } from '@/db/schema/mail';
import { buyIntentions, listings } from '@/db/schema/marketplace';
import { showDirectory } from '@/server/modules/catalog';
import { issueOneTimeToken, lastFanLocale, startFanSession } from '@/server/modules/fans';
import { joinWishlist } from '@/server/modules/market-data';
import { setEnv } from '@/server/testing/env';
import { apiRequest, makePartner, routeParams } from '@/server/testing/fixtures';
import { recordJobs } from '@/server/testing/jobs';
import { sellerMarket } from '@/server/testing/market';
import { payOnSandbox } from '@/server/testing/payments';
import { createBuyIntention, createListing, refundPurchase } from './index';

/*
 * Each marketplace mail goes in the language recorded for the fan it goes to: the seller's listing, the
 * buyer's buy intention, the lead (each made on a fan page in that language); the partner API records
 * none, so then the fan's latest session's language, else DEFAULT_LANG.
 */

let jobs: ReturnType<typeof recordJobs>;
beforeAll(() => {
  jobs = recordJobs();
});
afterAll(() => jobs.restore());

const SELLER = 'idioma-seller@example.com';
const unique = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

async function market(name: string) {
  return sellerMarket({ seller: SELLER, name, tickets: [{ ticketId: 'T1' }, { ticketId: 'T2' }] });
}

/** The mails of a partner to one address, oldest first. */
function mailsTo(partnerId: string, to: string) {
  return getDb()
    .select()
    .from(mails)
    .where(and(eq(mails.partnerId, partnerId), eq(mails.toAddress, to)))
    .orderBy(asc(mails.createdAt), asc(mails.id));
}

async function mailOf(partnerId: string, to: string, kind: string) {
  const found = (await mailsTo(partnerId, to)).filter((m) => m.kind === kind);
  expect(found, `${kind} to ${to}`).toHaveLength(1);
  return found[0];
}

/** A mail's text without its links: words a fan reads. No English one may be left in a Spanish mail. */
function wordsOf(text: string): string {
  return text.replace(/https?:\/\/\S+/g, ' ');
}
const ENGLISH = /\b(the|your|you|and|ticket|tickets|payout|paid|sold|refund(ed)?|listing|open|team)\b/i;

function expectSpanish(mail: { locale: string; subject: string; textBody: string; htmlBody: string }) {
  expect(mail.locale).toBe('es');
  expect(mail.htmlBody).toContain('<html lang="es"');
  expect(wordsOf(mail.subject)).not.toMatch(ENGLISH);
  expect(wordsOf(mail.textBody)).not.toMatch(ENGLISH);
}

/** Holds a listing for `buyer` (with the language of the page, if any) and pays on the sandbox. */
async function buy(partnerId: string, listingId: string, buyer: string, locale?: 'en' | 'es') {
  const intention = await createBuyIntention(partnerId, { items: [listingId], user: buyer, locale }, getDb());
  expect((await payOnSandbox(intention.paymentUrl)).status).toBe(303);
  return intention.id;
}

describe('mails in the fan’s language', () => {
  it('a Spanish fan’s purchase mails the buyer and the seller wholly in Spanish, and records the language', async () => {
    const m = await market('Idioma compra');
    const buyer = unique('comprador');
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40, locale: 'es' },
      getDb(),
    );
    const intentionId = await buy(m.partnerId, listing.id, buyer, 'es');
    const [l] = await getDb().select().from(listings).where(eq(listings.id, listing.id));
    const [i] = await getDb().select().from(buyIntentions).where(eq(buyIntentions.id, intentionId));
    expect([l.locale, i.locale]).toEqual(['es', 'es']);

    const confirmation = await mailOf(m.partnerId, buyer, 'purchaseConfirmation');
    expect(confirmation.subject).toBe(`Tus entradas para ${m.ref}`);
    expect(confirmation.textBody).toMatch(/Pagaste 40,00\s€/);
    expectSpanish(confirmation);

    const sold = await mailOf(m.partnerId, SELLER, 'ticketSold');
    expect(sold.subject).toBe(`Vendidas: tus entradas para ${m.ref}`);
    expect(sold.textBody).toMatch(/Tu pago es de 40,00\s€/);
    expectSpanish(sold);
    expectSpanish(await mailOf(m.partnerId, SELLER, 'listingCreated'));
  });

  it('an English fan’s mails stay English where DEFAULT_LANG is Spanish; seller and buyer each get their own', async () => {
    const restore = setEnv({ DEFAULT_LANG: 'es' });
    try {
      const m = await market('Idioma inglés');
      const english = unique('buyer');
      const spanish = unique('comprador');
      const en = await createListing(
        { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40, locale: 'en' },
        getDb(),
      );
      await buy(m.partnerId, en.id, english, 'en');
      const confirmation = await mailOf(m.partnerId, english, 'purchaseConfirmation');
      expect(confirmation).toMatchObject({ locale: 'en', subject: `Your tickets for ${m.ref}` });
      expect(confirmation.textBody).toContain('You paid €40.00');
      const sold = (await mailsTo(m.partnerId, SELLER)).filter((x) => x.kind === 'ticketSold');
      expect(sold.map((x) => [x.locale, x.subject])).toEqual([['en', `Sold: your tickets for ${m.ref}`]]);

      // The English seller's second listing, bought from a Spanish page: the buyer reads Spanish, the seller English.
      const second = await createListing(
        { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T2'], price: 30, locale: 'en' },
        getDb(),
      );
      await buy(m.partnerId, second.id, spanish, 'es');
      expectSpanish(await mailOf(m.partnerId, spanish, 'purchaseConfirmation'));
      const all = (await mailsTo(m.partnerId, SELLER)).filter((x) => x.kind === 'ticketSold');
      expect(all.map((x) => x.locale)).toEqual(['en', 'en']);
    } finally {
      restore();
    }
  });

  it('through the partner API (no language): DEFAULT_LANG, or the language of the fan’s latest session', async () => {
    const m = await market('Idioma API');
    const buyer = unique('api');
    // A listing made without a fan page: the seller's mails fall back the same way.
    const first = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    await buy(m.partnerId, first.id, buyer);
    expect((await mailOf(m.partnerId, buyer, 'purchaseConfirmation')).locale).toBe('en');
    expect((await mailOf(m.partnerId, SELLER, 'ticketSold')).locale).toBe('en');

    // The buyer signs in from a Spanish page: the next purchase the partner makes for them is mailed in Spanish.
    await startFanSession(m.partnerId, buyer, getDb(), 'es');
    expect(await lastFanLocale(m.partnerId, buyer.toUpperCase(), getDb())).toBe('es');
    expect(await lastFanLocale(m.partnerId, SELLER, getDb())).toBeNull();
    const second = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T2'], price: 40 },
      getDb(),
    );
    await buy(m.partnerId, second.id, buyer);
    const confirmations = (await mailsTo(m.partnerId, buyer)).filter((x) => x.kind === 'purchaseConfirmation');
    expect(confirmations.map((x) => x.locale)).toEqual(['en', 'es']);
    expectSpanish(confirmations[1]);
  });

  it('refunds, cancelled payouts and ended listings go in the language each fan used', async () => {
    const m = await market('Idioma reembolso');
    const buyer = unique('reembolso');
    await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40, locale: 'es' },
      getDb(),
    ); // stays open
    const sold = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T2'], price: 30, locale: 'es' },
      getDb(),
    );
    await buy(m.partnerId, sold.id, buyer, 'es');
    const res = await cancelPost(
      apiRequest(`/v1/events/${m.ref}/cancellation`, { key: m.key, method: 'POST' }),
      routeParams({ externalReferenceId: m.ref }),
    );
    expect(res.status).toBe(200);
    const refunded = await mailOf(m.partnerId, buyer, 'purchaseRefunded');
    expect(refunded.subject).toBe(`Reembolso de tus entradas para ${m.ref}`);
    expect(refunded.textBody).toContain('El organizador canceló el espectáculo.');
    expectSpanish(refunded);
    const payout = await mailOf(m.partnerId, SELLER, 'payoutCancelled');
    expect(payout.subject).toBe(`Tu pago por ${m.ref} se canceló`);
    expectSpanish(payout);
    const ended = await mailOf(m.partnerId, SELLER, 'listingCancelled');
    expect(ended.subject).toBe(`Tu anuncio para ${m.ref} ha terminado`);
    expectSpanish(ended);
  });

  it('a staff refund of a Spanish purchase is mailed in Spanish', async () => {
    const m = await market('Idioma soporte');
    const buyer = unique('soporte');
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    const intentionId = await buy(m.partnerId, listing.id, buyer, 'es');
    await refundPurchase(
      { partnerId: m.partnerId, intentionId, reason: 'Duplicate', staffEmail: 'staff@encore.test' },
      getDb(),
    );
    const refunded = await mailOf(m.partnerId, buyer, 'purchaseRefunded');
    expect(refunded.textBody).toContain('Nuestro equipo de soporte reembolsó la compra.');
    expectSpanish(refunded);
  });

  it('a lead made on a Spanish page gets its wishlist mail in Spanish; the partner API’s lead the default', async () => {
    const m = await market('Idioma lista');
    const d = showDirectory(getDb());
    const [show] = await getDb()
      .select({ eventPk: d.eventPk, showPk: d.showPk })
      .from(d)
      .where(and(eq(d.partnerId, m.partnerId), eq(d.eventRef, m.ref)));
    const pageFan = unique('lista');
    const apiFan = unique('list');
    expect(await joinWishlist({ ...show, email: pageFan, locale: 'es' }, getDb())).toMatchObject({ ok: true });
    // The partner sends both fans as leads afterwards (no language): the page's language is kept.
    const lead = (email: string) => ({
      type: 'WISHLIST',
      externalReferenceEventId: m.ref,
      showId: '1',
      buyer: { email },
    });
    const sent = await leadsPost(
      apiRequest('/v1/marketdata/ticket-leads/bulk', { key: m.key, body: [lead(pageFan), lead(apiFan)] }),
    );
    expect(sent.status).toBe(200);

    await createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 }, getDb());
    const spanish = await mailOf(m.partnerId, pageFan, 'wishlistAvailable');
    expect(spanish.subject).toBe(`Hay entradas a la venta para ${m.ref}`);
    expect(spanish.textBody).toContain('No recibir más avisos de esta función');
    expectSpanish(spanish);
    const english = await mailOf(m.partnerId, apiFan, 'wishlistAvailable');
    expect(english).toMatchObject({ locale: 'en', subject: `Tickets for ${m.ref} are on sale` });
  });

  it('signing in records the language of the page the fan signs in to', async () => {
    const partner = await makePartner('Idioma sesión');
    const session = async (next: string, acceptLanguage: string) => {
      const email = unique('sesion');
      const token = await issueOneTimeToken(partner.partner.id, email, undefined, getDb());
      const res = await redeemRoute(
        new NextRequest(`http://encore.test/auth/redeem?token=${token}&next=${encodeURIComponent(next)}`, {
          headers: { 'accept-language': acceptLanguage },
        }),
      );
      expect(res.status).toBe(303);
      const [row] = await getDb().select().from(fanSessions).where(eq(fanSessions.email, email));
      return row.locale;
    };
    expect(await session('/me?lang=es', 'en')).toBe('es'); // the page's `lang` first
    expect(await session('/me', 'es-AR,es;q=0.9')).toBe('es'); // then the browser's
    expect(await session('/me?lang=en', 'es')).toBe('en');
  });
});
