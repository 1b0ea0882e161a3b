import { getDb } from '@/db';
import { postRules, sellerMarket } from '@/server/testing/market';
import { describe, expect, it } from 'vitest';
import { POST as cancelPost } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { GET as meGet } from '@/app/v1/me/route';
import { AppError } from '@/server/lib/errors';
import { getPartner, setPartnerLogo, updateIntegration } from '@/server/modules/partners';
import { setEnvInFile } from '@/server/testing/env';
import { fakePartnerInFile, fakeTicket } from '@/server/testing/fake-partner';
import { apiRequest, makePartner, routeParams } from '@/server/testing/fixtures';
import { recordJobsInFile } from '@/server/testing/jobs';
import { admit, deleteTicket } from '@/server/testing/ticket-api';
import { type MarketTerms, NO_FEES, sellerPayoutMinor, setMarketTerms } from './fees';
import { createBuyIntention } from './intentions';
import { createListing, getListing } from './listings';
import { payoutPreviewMinor } from './schemas';
import {
  listForSeller,
  relistAsSeller,
  repriceAsSeller,
  resaleEntryPage,
  sellerListingPage,
  sellFlow,
  sellPage,
  ticketSellStatuses,
  transferAsSeller,
  unlistAsSeller,
} from './sell';
import { ticketsForSale } from '@/server/modules/tickets';
import { resaleEntryUrl } from '@/server/modules/fan-pages';

const fake = fakePartnerInFile();
setEnvInFile({ ALLOW_PRIVATE_PARTNER_URLS: '1', PUBLIC_BASE_URL: 'https://encore.test' });
recordJobsInFile();

const SELLER = 'seller@example.com';
const HOUR = 3_600_000;

/** A partner with one event (show 1, option GA at 40.00 EUR, 30 days away) and tickets owned by SELLER. */
async function market(tickets: Record<string, unknown>[] = [{ ticketId: 'T1' }, { ticketId: 'T2' }]) {
  const { partnerId, key, ref } = await sellerMarket({ seller: SELLER, name: 'Sell pages', daysAhead: 30, tickets });
  const list = async (ids: string[]) => ticketsForSale(partnerId, ids, getDb());
  return { partnerId, key, ref, list };
}
const rules = postRules;

const codes = async (partnerId: string, email: string, list: Awaited<ReturnType<typeof ticketsForSale>>, now?: Date) =>
  (await ticketSellStatuses(partnerId, email, list, getDb(), { now })).map((s) => ({
    ticketId: s.ticket.ticketId,
    sellable: s.sellable,
    codes: s.reasons.map((r) => r.code),
  }));

describe('can this ticket be sold, and why not', () => {
  it('a ticket its owner holds, on a live show within the rules, is sellable; another e-mail does not own it', async () => {
    const m = await market();
    const list = await m.list(['T1']);
    expect(await codes(m.partnerId, 'Seller@Example.com', list)).toEqual([
      { ticketId: 'T1', sellable: true, codes: [] },
    ]);
    expect(await codes(m.partnerId, 'other@example.com', list)).toEqual([
      { ticketId: 'T1', sellable: false, codes: ['NOT_OWNED'] },
    ]);
  });

  it('names each rule that stops it: invalidated, admitted, listed, resale off by rule, listing window, show started', async () => {
    const m = await market([{ ticketId: 'T1' }, { ticketId: 'T2' }, { ticketId: 'T3' }, { ticketId: 'T4' }]);
    expect((await deleteTicket(m.key, 'T1')).status).toBe(200);
    expect((await admit(m.key, 'T2')).status).toBe(200);
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T3'], price: 40 },
      getDb(),
    );
    const all = await m.list(['T1', 'T2', 'T3', 'T4']);
    const statuses = await ticketSellStatuses(m.partnerId, SELLER, all, getDb());
    expect(statuses.map((s) => [s.ticket.ticketId, s.reasons.map((r) => r.code)])).toEqual([
      ['T1', ['INVALIDATED']],
      ['T2', ['ADMITTED']],
      ['T3', ['LISTED']],
      ['T4', []],
    ]);
    expect(statuses[2].reasons[0]).toMatchObject({ code: 'LISTED', listingId: listing.id, status: 'ACTIVE' });
    expect(statuses[2].listing).toEqual({ id: listing.id, status: 'ACTIVE' });

    const t4 = await m.list(['T4']);
    await rules(m.key, [
      {
        externalReferenceEventId: m.ref,
        ruleType: 'LISTING_WINDOW',
        rules: { opensHoursBeforeShow: 48, closesHoursBeforeShow: 3 },
      },
    ]);
    const showAt = t4[0].startsAt.getTime();
    expect((await codes(m.partnerId, SELLER, t4, new Date(showAt - 72 * HOUR)))[0]).toMatchObject({
      sellable: false,
      codes: ['WINDOW_NOT_OPEN'],
    });
    const closed = await ticketSellStatuses(m.partnerId, SELLER, t4, getDb(), { now: new Date(showAt - 2 * HOUR) });
    expect(closed[0].reasons).toEqual([expect.objectContaining({ code: 'WINDOW_CLOSED', hours: 3 })]);
    expect((await codes(m.partnerId, SELLER, t4, new Date(showAt - 24 * HOUR)))[0].sellable).toBe(true);

    await rules(m.key, [{ externalReferenceEventId: m.ref, ruleType: 'RESALE_ENABLED', rules: { enabled: false } }]);
    expect((await codes(m.partnerId, SELLER, t4))[0].codes).toContain('RULES_FORBID');
  });

  it('says when the show has started, when resale is off for the show and when the show was cancelled', async () => {
    const m = await market();
    const [t1] = await m.list(['T1']);
    expect((await codes(m.partnerId, SELLER, [t1], new Date(t1.startsAt.getTime() + HOUR)))[0].codes).toEqual([
      'SHOW_STARTED',
    ]);
    expect((await codes(m.partnerId, SELLER, [{ ...t1, resaleEnabled: false }]))[0].codes).toEqual(['RESALE_OFF']);
    const res = await cancelPost(
      apiRequest(`/v1/events/${m.ref}/cancellation`, { key: m.key, body: {} }),
      routeParams({ externalReferenceId: m.ref }),
    );
    expect(res.status).toBe(200);
    const after = await codes(m.partnerId, SELLER, await m.list(['T1']));
    expect(after[0].codes).toEqual(expect.arrayContaining(['SHOW_CANCELLED']));
    expect(after[0].sellable).toBe(false);
  });

  it('asks the partner live: the verification answer decides ownership, and no answer sells nothing', async () => {
    const m = await market();
    await updateIntegration({ partnerId: m.partnerId, verificationUrl: `${fake.origin}/api` }, getDb());
    fake.setTickets(SELLER, [fakeTicket({ ticketId: 'T2', externalReferenceEventId: m.ref, showId: '1' })]);
    const both = await m.list(['T1', 'T2']);
    expect(await codes(m.partnerId, SELLER, both)).toEqual([
      { ticketId: 'T1', sellable: false, codes: ['NOT_OWNED'] },
      { ticketId: 'T2', sellable: true, codes: [] },
    ]);
    expect(fake.requestsTo('/api/tickets')).toHaveLength(1);
    await updateIntegration({ partnerId: m.partnerId, verificationUrl: 'http://127.0.0.1:9/api' }, getDb());
    expect((await codes(m.partnerId, SELLER, both)).map((s) => s.codes)).toEqual([['UNVERIFIED'], ['UNVERIFIED']]);
  });
});

describe('the selling flow', () => {
  it('shows the allowed range and the payout model; a price above the cap is refused with the range, one within is listed', async () => {
    const m = await market();
    await rules(m.key, [
      {
        externalReferenceEventId: m.ref,
        ruleType: 'PRICE_LIMITS',
        rules: { minPercentOfFace: 50, maxPercentOfFace: 120 },
      },
    ]);
    await setMarketTerms(
      m.partnerId,
      {
        buyerFeePercent: 10,
        buyerFeeFixed: 0,
        sellerFeePercent: 5,
        sellerFeeFixed: 0.5,
        payoutDelayDays: 0,
      },
      getDb(),
    );
    const [t1] = await m.list(['T1']);
    const flow = await sellFlow((await sellPage(t1.pk, getDb()))!, SELLER, false, getDb());
    expect(flow.range).toMatchObject({ currency: 'EUR', faceMinor: 4000, floorMinor: 2000, capMinor: 4800 });
    expect(flow.payoutModel).toEqual({ sellerFeePercent: 5, sellerFeeFixedMinor: 50, primarySalesFee: null });
    expect(flow.payoutStatus).toBe('none');
    expect(flow.tickets.map((s) => s.sellable)).toEqual([true]);

    const above = await listForSeller(m.partnerId, SELLER, [t1.pk], '48.01', getDb());
    expect(above).toMatchObject({ ok: false, problems: [{ code: 'ABOVE_CAP' }], range: { capMinor: 4800 } });
    const below = await listForSeller(m.partnerId, SELLER, [t1.pk], '19.99', getDb());
    expect(below).toMatchObject({ ok: false, problems: [{ code: 'BELOW_FLOOR' }] });
    expect(await listForSeller(m.partnerId, SELLER, [t1.pk], 'abc', getDb())).toMatchObject({
      ok: false,
      message: 'PRICE_INVALID',
    });
    const ok = await listForSeller(m.partnerId, SELLER, [t1.pk], '48', getDb());
    expect(ok.ok).toBe(true);
    const listing = await getListing(m.partnerId, (ok as { listingId: string }).listingId, getDb());
    // 48.00 less 5 % (2.40) less 0.50: what the preview showed.
    expect(listing).toMatchObject({ price: 48, sellerPayout: 45.1, status: 'ACTIVE' });
    expect(payoutPreviewMinor(flow.payoutModel, 4800)).toBe(4510);

    // The same ticket again: the flow now says it is listed, with the listing.
    const again = await sellFlow(t1, SELLER, false, getDb());
    expect(again.tickets[0].reasons).toEqual([{ code: 'LISTED', listingId: listing.id, status: 'ACTIVE' }]);
  });

  it('another fan cannot list a ticket it does not own', async () => {
    const m = await market();
    const [t1] = await m.list(['T1']);
    await expect(listForSeller(m.partnerId, 'thief@example.com', [t1.pk], '40', getDb())).resolves.toMatchObject({
      ok: false,
      message: expect.stringContaining('does not report ticket T1 as owned'),
    });
  });

  it('the order flow shows the order tickets and lists the chosen two at once as one PACK', async () => {
    const m = await market([
      { ticketId: 'O1', orderId: 'ORD-7' },
      { ticketId: 'O2', orderId: 'ORD-7' },
      { ticketId: 'O3', orderId: 'ORD-7' },
      { ticketId: 'X1' },
    ]);
    const [o1] = await m.list(['O1']);
    const flow = await sellFlow(o1, SELLER, true, getDb());
    expect(flow.order).toBe(true);
    expect(flow.tickets.map((s) => s.ticket.ticketId)).toEqual(['O1', 'O2', 'O3']);
    const pks = flow.tickets.slice(0, 2).map((s) => s.ticket.pk);
    const ok = await listForSeller(m.partnerId, SELLER, pks, '40', getDb());
    expect(ok.ok).toBe(true);
    const pack = await getListing(m.partnerId, (ok as { listingId: string }).listingId, getDb());
    expect(pack).toMatchObject({ type: 'PACK', orderId: 'ORD-7', ticketIds: ['O1', 'O2'], sellerPayout: 80 });
    // A ticket of another order cannot join.
    const [x1, o3] = await m
      .list(['X1', 'O3'])
      .then((l) => [l.find((t) => t.ticketId === 'X1')!, l.find((t) => t.ticketId === 'O3')!]);
    expect(await listForSeller(m.partnerId, SELLER, [x1.pk, o3.pk], '40', getDb())).toMatchObject({
      ok: false,
      problems: [{ code: 'NOT_ONE_ORDER' }],
    });
  });
});

describe("the seller's listing page", () => {
  it('reprices within the range only, and only for the seller', async () => {
    const m = await market();
    await rules(m.key, [
      { externalReferenceEventId: m.ref, ruleType: 'PRICE_LIMITS', rules: { maxPercentOfFace: 110 } },
    ]);
    const l = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    await expect(repriceAsSeller(m.partnerId, l.id, 'other@example.com', '41', getDb())).rejects.toMatchObject({
      status: 404,
    });
    expect(await repriceAsSeller(m.partnerId, l.id, SELLER, '44.01', getDb())).toMatchObject({
      ok: false,
      problems: [{ code: 'ABOVE_CAP' }],
      range: { capMinor: 4400, floorMinor: null },
    });
    expect(await repriceAsSeller(m.partnerId, l.id, SELLER, '44', getDb())).toEqual({ ok: true, listingId: l.id });
    expect((await getListing(m.partnerId, l.id, getDb())).price).toBe(44);
  });

  it('unlists and relists for the seller; a listing a buyer holds cannot be unlisted (the 409 says why)', async () => {
    const m = await market();
    const l = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    await expect(unlistAsSeller(m.partnerId, l.id, 'other@example.com', getDb())).rejects.toMatchObject({
      status: 404,
    });
    expect((await unlistAsSeller(m.partnerId, l.id, SELLER, getDb())).status).toBe('UNLISTED');
    expect((await relistAsSeller(m.partnerId, l.id, SELLER, getDb())).status).toBe('ACTIVE');

    await createBuyIntention(m.partnerId, { items: [l.id], user: 'buyer@example.com' }, getDb());
    expect((await getListing(m.partnerId, l.id, getDb())).status).toBe('RESERVED');
    const err = await unlistAsSeller(m.partnerId, l.id, SELLER, getDb()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(409);
    expect((err as AppError).message).toContain('held by a buyer');
    expect((err as AppError).fanReason).toBe('HELD_BY_BUYER');
  });
});

describe('peer-to-peer transfer from the listing page', () => {
  it('needs the P2P_TRANSFER rule and the listing off sale, and only the seller can do it', async () => {
    const m = await market();
    const l = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    const friend = 'friend@example.com';
    const view = await sellerListingPage(m.partnerId, l.id, SELLER, getDb());
    expect(view?.transferAllowed).toBe(false);
    expect(await sellerListingPage(m.partnerId, l.id, friend, getDb())).toBeNull();
    // Each refusal carries the reason the fan's page says in the fan's language.
    await expect(transferAsSeller(m.partnerId, l.id, SELLER, friend, getDb())).rejects.toMatchObject({
      status: 403,
      fanReason: 'TRANSFER_NOT_ALLOWED',
    });
    await rules(m.key, [{ externalReferenceEventId: m.ref, ruleType: 'P2P_TRANSFER', rules: { allowed: true } }]);
    expect(await sellerListingPage(m.partnerId, l.id, SELLER, getDb())).toMatchObject({
      transferAllowed: true,
      stillOwned: null,
    });
    await expect(transferAsSeller(m.partnerId, l.id, SELLER, friend, getDb())).rejects.toMatchObject({
      status: 409,
      fanReason: 'TRANSFER_LISTED',
    });
    await unlistAsSeller(m.partnerId, l.id, SELLER, getDb());
    await expect(unlistAsSeller(m.partnerId, l.id, SELLER, getDb())).rejects.toMatchObject({
      fanReason: 'NOT_ON_SALE',
    });
    await expect(transferAsSeller(m.partnerId, l.id, friend, 'x@example.com', getDb())).rejects.toMatchObject({
      status: 404,
      fanReason: 'NOT_FOUND',
    });
    await expect(transferAsSeller(m.partnerId, l.id, SELLER, SELLER.toUpperCase(), getDb())).rejects.toMatchObject({
      status: 400,
      fanReason: 'SAME_OWNER',
    });
    expect(await transferAsSeller(m.partnerId, l.id, SELLER, friend, getDb())).toEqual({
      ticketIds: ['T1'],
      newOwnerEmail: friend,
    });
    const [t1] = await m.list(['T1']);
    expect(t1.buyerEmail).toBe(friend);
    // The old listing's page no longer offers relisting or another transfer.
    expect((await sellerListingPage(m.partnerId, l.id, SELLER, getDb()))?.stillOwned).toBe(false);
    // The new owner can sell it; the old one no longer can.
    expect((await codes(m.partnerId, friend, [t1]))[0]).toMatchObject({ sellable: true });
    expect((await codes(m.partnerId, SELLER, [t1]))[0].codes).toContain('NOT_OWNED');
  });
});

describe('the static resale entry page', () => {
  it('is one absolute URL per partner, also answered by GET /v1/me', async () => {
    const m = await market();
    expect(resaleEntryUrl(m.partnerId)).toBe(`https://encore.test/resale/${m.partnerId}`);
    const res = await meGet(apiRequest('/v1/me', { key: m.key }), routeParams({}));
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({
      partnerId: m.partnerId,
      resaleEntryUrl: `https://encore.test/resale/${m.partnerId}`,
    });
  });

  it("shows the fan's tickets (pushed owner without a verification endpoint, the partner's answer with one), grouped by show", async () => {
    const m = await market([{ ticketId: 'T1' }, { ticketId: 'T2' }, { ticketId: 'Z9', buyer: 'someone@example.com' }]);
    const l = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T2'], price: 40 },
      getDb(),
    );
    const page = await resaleEntryPage(m.partnerId, SELLER, undefined, getDb());
    expect(page.unavailable).toBe(false);
    expect(page.groups).toHaveLength(1);
    expect(page.groups[0].label).toMatchObject({ eventTitle: m.ref, showTitle: '1', optionTitles: { GA: 'GA' } });
    expect(page.groups[0].tickets.map((s) => [s.ticket.ticketId, s.sellable, s.listing?.id ?? null])).toEqual([
      ['T1', true, null],
      ['T2', false, l.id],
    ]);

    await updateIntegration({ partnerId: m.partnerId, verificationUrl: `${fake.origin}/api` }, getDb());
    fake.setTickets(SELLER, [fakeTicket({ ticketId: 'T1', externalReferenceEventId: m.ref, showId: '1' })]);
    const pulled = await resaleEntryPage(m.partnerId, SELLER, undefined, getDb());
    expect(pulled.groups.flatMap((g) => g.tickets.map((s) => s.ticket.ticketId))).toEqual(['T1']);
    await updateIntegration({ partnerId: m.partnerId, verificationUrl: 'http://127.0.0.1:9/api' }, getDb());
    expect(await resaleEntryPage(m.partnerId, SELLER, undefined, getDb())).toEqual({ unavailable: true, groups: [] });
  });

  it('with sync (the access layer’s URL for a ticket Encore was never sent) stores the partner’s tickets first', async () => {
    const m = await market();
    await updateIntegration({ partnerId: m.partnerId, verificationUrl: `${fake.origin}/api` }, getDb());
    fake.setTickets(SELLER, [
      fakeTicket({ ticketId: 'T1', externalReferenceEventId: m.ref, showId: '1' }),
      fakeTicket({
        ticketId: 'NEW-7',
        externalReferenceEventId: m.ref,
        showId: '1',
        ticketOptionId: 'GA',
        price: '40',
        tags: ['order:O-7'],
      }),
    ]);
    // Without sync the unknown ticket is not shown (nothing to list it from).
    const plain = await resaleEntryPage(m.partnerId, SELLER, undefined, getDb());
    expect(plain.groups.flatMap((g) => g.tickets.map((s) => s.ticket.ticketId))).toEqual(['T1']);
    expect(await ticketsForSale(m.partnerId, ['NEW-7'], getDb())).toEqual([]);
    const synced = await resaleEntryPage(m.partnerId, SELLER, { sync: true }, getDb());
    expect(synced.groups.flatMap((g) => g.tickets.map((s) => [s.ticket.ticketId, s.sellable]))).toEqual([
      ['NEW-7', true],
      ['T1', true],
    ]);
    const [stored] = await ticketsForSale(m.partnerId, ['NEW-7'], getDb());
    expect(stored).toMatchObject({ buyerEmail: SELLER, orderId: 'O-7', showId: '1', status: 'VALID' });
  });
});

describe('payout preview', () => {
  it('matches the payout computed at sale time', () => {
    const terms: MarketTerms = {
      buyerFeePercent: 0,
      buyerFeeFixed: 0,
      sellerFeePercent: 7.5,
      sellerFeeFixed: 0.3,
      payoutDelayDays: 0,
    };
    for (const price of [1, 99, 4000, 4555, 123457]) {
      expect(
        payoutPreviewMinor(
          { sellerFeePercent: 7.5, sellerFeeFixedMinor: 30, primarySalesFee: { type: 'PERCENTAGE', value: 3 } },
          price,
        ),
      ).toBe(sellerPayoutMinor(terms, price, 'EUR', Math.round((price * 3) / 100)));
      expect(
        payoutPreviewMinor(
          { sellerFeePercent: 7.5, sellerFeeFixedMinor: 30, primarySalesFee: { type: 'FIXED', minor: 200 } },
          price,
        ),
      ).toBe(sellerPayoutMinor(terms, price, 'EUR', 200));
    }
  });

  it('matches it where the payout is rounded to what the provider pays out (TWD whole, KWD tens of fils)', () => {
    const terms: MarketTerms = { ...NO_FEES, sellerFeePercent: 7, sellerFeeFixed: 0 };
    for (const [currency, step] of [
      ['TWD', 100],
      ['KWD', 10],
    ] as const) {
      for (const price of [99, 4000, 4555, 123400, 123457]) {
        expect(
          payoutPreviewMinor(
            { sellerFeePercent: 7, sellerFeeFixedMinor: 0, primarySalesFee: null, payoutStepMinor: step },
            price,
          ),
        ).toBe(sellerPayoutMinor(terms, price, currency));
      }
    }
    // 1,234.00 TWD less 7 %: the page says 1,147.00, what Stripe pays out, not 1,147.62.
    expect(
      payoutPreviewMinor(
        { sellerFeePercent: 7, sellerFeeFixedMinor: 0, primarySalesFee: null, payoutStepMinor: 100 },
        123400,
      ),
    ).toBe(114700);
  });
});

describe('partner logo', () => {
  it('takes an https URL up to 2000 characters, refuses anything else, and clears with an empty value', async () => {
    const { partner } = await makePartner('Logo');
    const url = 'https://cdn.example.com/logo.png';
    expect((await setPartnerLogo({ partnerId: partner.id, logoUrl: url }, getDb())).logoUrl).toBe(url);
    for (const bad of [
      'http://cdn.example.com/logo.png',
      'javascript:alert(1)',
      'logo.png',
      `https://x.example/${'a'.repeat(2000)}`,
    ]) {
      await expect(setPartnerLogo({ partnerId: partner.id, logoUrl: bad }, getDb()), bad).rejects.toThrow();
    }
    expect((await getPartner(partner.id, getDb())).logoUrl).toBe(url);
    expect((await setPartnerLogo({ partnerId: partner.id, logoUrl: '  ' }, getDb())).logoUrl).toBeNull();
    expect((await setPartnerLogo({ partnerId: partner.id, logoUrl: url }, getDb())).logoUrl).toBe(url);
    expect((await setPartnerLogo({ partnerId: partner.id, logoUrl: null }, getDb())).logoUrl).toBeNull();
  });
});
