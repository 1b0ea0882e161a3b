import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as buyIntentionPost } from '@/app/v1/marketplace/buyingflow/buyIntention/route';
import { getDb } from '@/db';
import { mails, payouts } from '@/db/schema';
import { formatDay } from '@/server/lib/i18n';
import { showDirectory } from '@/server/modules/catalog';
import { setPartnerProtection, setScopeProtection } from '@/server/modules/protection';
import { apiRequest } from '@/server/testing/fixtures';
import { sellerMarket } from '@/server/testing/market';
import { payOnSandbox } from '@/server/testing/payments';
import { NO_FEES, setMarketTerms } from './fees';
import { createListing } from './listings';
import { buyerPromiseFacts, sellerPayoutFacts } from './promises';

/*
 * Every promise a fan reads is computed from the partner's settings and the show: reissue on and off,
 * the unlock time, the payout date. The texts themselves are tested in server/lib/promises.test.ts; here,
 * that the facts follow the settings and that the mails say them.
 */

const SELLER = 'promise-seller@example.com';
const HOUR = 3600_000;
const TZ = 'America/Argentina/Buenos_Aires';

async function market(name: string) {
  const m = await sellerMarket({ seller: SELLER, name, daysAhead: 30, show: { location: { timeZone: TZ } } });
  const d = showDirectory(getDb());
  const [show] = await getDb()
    .select({ showPk: d.showPk, eventPk: d.eventPk, startsAt: d.startsAt })
    .from(d)
    .where(eq(d.partnerId, m.partnerId));
  return { ...m, ...show };
}

async function buy(key: string, listingId: string, buyer: string) {
  const res = await buyIntentionPost(
    apiRequest('/v1/marketplace/buyingflow/buyIntention', { key, body: { items: [listingId], user: buyer } }),
  );
  const body = await res.json();
  expect(res.status).toBe(200);
  await payOnSandbox(body.data.paymentUrl);
  return body.data.id as string;
}

const mailTo = async (partnerId: string, to: string, kind: string) =>
  (
    await getDb()
      .select({ text: mails.textBody, html: mails.htmlBody })
      .from(mails)
      .where(and(eq(mails.partnerId, partnerId), eq(mails.toAddress, to), eq(mails.kind, kind)))
  )[0];

describe('buyerPromiseFacts follows the partner’s settings', () => {
  it('default: no reissue, code 3 hours before the show; staff settings change both; protection off holds nothing back', async () => {
    const m = await market('Promise facts');
    const before = (await buyerPromiseFacts(m.showPk, getDb()))!;
    expect(before).toMatchObject({
      partnerName: m.partner.name,
      reissue: false,
      timeZone: TZ,
      verifiedLive: false, // no verification URL: the partner's pushed tickets are the record
      support: { url: null, email: null },
    });
    expect(before.codeFrom?.getTime()).toBe(m.startsAt.getTime() - 3 * HOUR);
    expect(before.termsUrl).toMatch(new RegExp(`/terms\\?partner=${m.partnerId}$`));

    await setPartnerProtection({ partnerId: m.partnerId, unlockHours: 5, reissue: true }, 'ops@encore.test', getDb());
    const after = (await buyerPromiseFacts(m.showPk, getDb()))!;
    expect(after.reissue).toBe(true);
    expect(after.codeFrom?.getTime()).toBe(m.startsAt.getTime() - 5 * HOUR);

    // The show's own override wins over the partner's default.
    await setScopeProtection(
      { partnerId: m.partnerId, eventPk: m.eventPk, showPk: m.showPk, active: null, unlockHours: 1 },
      'ops@encore.test',
      getDb(),
    );
    expect((await buyerPromiseFacts(m.showPk, getDb()))!.codeFrom?.getTime()).toBe(m.startsAt.getTime() - HOUR);

    await setScopeProtection(
      { partnerId: m.partnerId, eventPk: m.eventPk, showPk: m.showPk, active: false, unlockHours: null },
      'ops@encore.test',
      getDb(),
    );
    expect((await buyerPromiseFacts(m.showPk, getDb()))!.codeFrom).toBeNull();
    expect(await buyerPromiseFacts('shw_unknown', getDb())).toBeNull();
  });
});

describe('the confirmation mail says what the settings do', () => {
  it('reissue off (the default): transferred, no new-code claim, the code’s unlock date, the guarantee and Encore’s support', async () => {
    const m = await market('Promise mail off');
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    const buyer = `off.${Date.now()}@fans.test`;
    await buy(m.key, listing.id, buyer);
    const { text, html } = await mailTo(m.partnerId, buyer, 'purchaseConfirmation');
    expect(text).toContain('The ticket is transferred to your name. Its code appears on your ticket page on');
    expect(text).not.toMatch(/new code|issued again|is ready/);
    expect(text).toContain('What Encore guarantees');
    expect(text).toContain('- If the show is cancelled, you get a full refund, fees included, automatically');
    expect(text).toContain(`we check ${m.partner.name}'s records that the seller still holds the ticket`);
    expect(text).toMatch(/Encore's resale terms: http:\/\/\S+\/terms\?partner=ptr_/);
    expect(text).toContain('Questions about your tickets? Encore can help:');
    expect(text).toContain('mailto:support@encore.local');
    expect(html).toContain('<h2');
  });

  it('reissue on: a new code in the buyer’s name, stated in the delivery and the guarantee', async () => {
    const m = await market('Promise mail on');
    await setPartnerProtection({ partnerId: m.partnerId, unlockHours: 3, reissue: true }, 'ops@encore.test', getDb());
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    const buyer = `on.${Date.now()}@fans.test`;
    await buy(m.key, listing.id, buyer);
    const { text } = await mailTo(m.partnerId, buyer, 'purchaseConfirmation');
    expect(text).toContain(`${m.partner.name} issues a new code in your name, so the seller's code stops working.`);
    expect(text).toContain(`- ${m.partner.name} issues you a new code: the seller's code stops working.`);
    expect(text).not.toContain('transferred to your name');
  });
});

describe('the seller’s payout date', () => {
  it('before a sale: show date plus the partner’s delay (sell page, listing mail); after: the payout’s dueAt (sold mail)', async () => {
    const m = await market('Promise payout');
    await setMarketTerms(m.partnerId, { ...NO_FEES, payoutDelayDays: 2 }, getDb());
    const expected = new Date(m.startsAt.getTime() + 2 * 24 * HOUR);
    expect(await sellerPayoutFacts(m.partnerId, m.showPk, null, getDb())).toEqual({
      dueAt: expected,
      delayDays: 2,
      timeZone: TZ,
      status: null,
      paidAt: null,
    });
    // Another partner's show is not this partner's to read.
    const other = await market('Promise payout other');
    expect(await sellerPayoutFacts(m.partnerId, other.showPk, null, getDb())).toBeNull();

    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    const day = formatDay(expected, 'en', TZ);
    expect((await mailTo(m.partnerId, SELLER, 'listingCreated')).text).toContain(
      `If they sell, we pay you on ${day}, 2 days after the show.`,
    );

    await buy(m.key, listing.id, `payout.${Date.now()}@fans.test`);
    const [payout] = await getDb().select().from(payouts).where(eq(payouts.listingId, listing.id));
    const sold = await sellerPayoutFacts(m.partnerId, m.showPk, listing.id, getDb());
    expect(sold).toMatchObject({ dueAt: payout.dueAt, status: 'SCHEDULED', delayDays: 2 });
    expect((await mailTo(m.partnerId, SELLER, 'ticketSold')).text).toContain(
      `We pay you on ${formatDay(payout.dueAt, 'en', TZ)}, 2 days after the show.`,
    );
  });
});
