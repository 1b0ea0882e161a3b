import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getDb, getSql } from '@/db';
import * as schema from '@/db/schema';
import { buyIntentions } from '@/db/schema';
import { makePartner, pushEvent, testShow } from '@/server/testing/fixtures';
import { recordJobs } from '@/server/testing/jobs';
import { payOnSandbox } from '@/server/testing/payments';
import { syncTickets } from '@/server/testing/ticket-api';
import { secureTicketPage, ticketsForSale } from '@/server/modules/tickets';
import { buyerCheckout, buyerIntention, buyPage, sharedBuyPage } from './buyer-pages';
import { BUY_PAGE_LAYER_MS, BUY_PAGE_OFFERS_MS, forgetBuyPageOffers } from './offers-cache';
import { createBuyIntention, createListing, setMarketTerms } from '@/server/modules/marketplace';

let jobs: ReturnType<typeof recordJobs>;
beforeAll(() => {
  jobs = recordJobs();
});
afterAll(() => jobs.restore());

const SELLER = 'seller@example.com';

/** A partner with an event of two shows; show 1 has five tickets in sections A and B, all listed. */
async function market() {
  const { partner, apiKey } = await makePartner('Buy pages');
  const ref = `evt-${partner.id}`;
  const date = new Date(Date.now() + 365 * 24 * 3600_000).toISOString();
  const later = new Date(Date.now() + 366 * 24 * 3600_000).toISOString();
  await pushEvent(apiKey, ref, [
    testShow('1', {
      date,
      location: { venueName: 'Teatro Real', city: 'Madrid', timeZone: 'Europe/Madrid' },
      ticketOptions: [
        { title: 'General admission', ticketId: 'GA', description: 'g', currency: 'EUR', price: '40.00' },
        { title: 'VIP lounge', ticketId: 'VIP', description: 'v', currency: 'EUR', price: '90.00' },
      ],
      priceTypes: [{ priceTypeId: 'ADULT', title: 'Adult' }],
    }),
    testShow('2', { date: later }),
  ]);
  const seat = (section: string, s: string) => ({ props: { seating: { section, row: '1', seat: s } } });
  const res = await syncTickets(
    apiKey,
    [
      { ticketId: 'T1', ticketOptionId: 'GA', orderId: 'O1', ...seat('A', '1') },
      { ticketId: 'T2', ticketOptionId: 'GA', orderId: 'O1', ...seat('A', '2') },
      { ticketId: 'T3', ticketOptionId: 'GA', ...seat('B', '1') },
      { ticketId: 'T4', ticketOptionId: 'VIP', ...seat('B', '2') },
      { ticketId: 'T5', ticketOptionId: 'GA', ...seat('A', '3') },
      { ticketId: 'T6', ticketOptionId: 'GA', showId: '2' },
    ].map((t) => ({
      externalReferenceEventId: ref,
      showId: '1',
      buyer: SELLER,
      ticketAccess: { type: 'OTHER', locator: 'x' },
      price: 40,
      ...t,
    })),
  );
  if (res.status !== 200 || res.body.data.imported !== 6) throw new Error(JSON.stringify(res.body));
  await setMarketTerms(
    partner.id,
    {
      buyerFeePercent: 10,
      buyerFeeFixed: 1,
      sellerFeePercent: 0,
      sellerFeeFixed: 0,
      payoutDelayDays: 0,
    },
    getDb(),
  );
  const list = (ticketIds: string[], price: string) =>
    createListing({ partnerId: partner.id, sellerEmail: SELLER, ticketIds, price }, getDb());
  const pair = await list(['T1', 'T2'], '50.00');
  const cheap = await list(['T3'], '30.00');
  const vip = await list(['T4'], '100.00');
  const mid = await list(['T5'], '45.00');
  return { partnerId: partner.id, apiKey, ref, pair, cheap, vip, mid };
}

/** The event's id as the page URL carries it (found here through a listing's checkout read). */
async function eventPk(listingId: string) {
  const c = await buyerCheckout([listingId], getDb());
  if (!c) throw new Error('no checkout');
  return c.event.eventPk;
}

/** A database handle that records its statements, and how many of them were the offers' listing read. */
function recordingDb() {
  const statements: string[] = [];
  const recording = drizzle(getSql(), {
    schema,
    casing: 'snake_case',
    logger: { logQuery: (query) => statements.push(query) },
  });
  const listingReads = () => statements.filter((q) => /from "listings"/.test(q) && /json_agg/.test(q)).length;
  return { recording, listingReads };
}

describe('buy page read', () => {
  it('shows the chosen show with names, seats and fees, sorted by the price paid, filtered', async () => {
    const m = await market();
    const pk = await eventPk(m.cheap.id);
    const page = await buyPage(pk, undefined, getDb());
    expect(page?.event.title).toBe(m.ref);
    expect(page?.show).toMatchObject({
      showId: '1',
      venue: { name: 'Teatro Real', address: 'Madrid', timeZone: 'Europe/Madrid' },
    });
    expect(page?.event.shows.map((s) => s.showId)).toEqual(['1', '2']);
    expect(page?.listings.map((l) => l.id)).toEqual([m.cheap.id, m.mid.id, m.pair.id, m.vip.id]);
    expect(page?.listings[2]).toMatchObject({
      optionTitle: 'General admission',
      priceTypeTitle: null,
      ticketCount: 2,
      priceMinor: 5000,
      feeMinor: 600, // 10 % of 50 + 1.00
      perTicketMinor: 5600,
      totalMinor: 11200,
      // The face value beside the resale price: the option's price (no price type declared).
      faceMinor: 4000,
      ids: [m.pair.id],
      split: false,
      seats: [
        { section: 'A', row: '1', seat: '1' },
        { section: 'A', row: '1', seat: '2' },
      ],
    });
    expect(page?.listings.find((l) => l.id === m.vip.id)?.faceMinor).toBe(9000);
    expect(page?.facets).toEqual({
      options: [
        { id: 'GA', title: 'General admission', currency: 'EUR', priceMinor: 4000 },
        { id: 'VIP', title: 'VIP lounge', currency: 'EUR', priceMinor: 9000 },
      ],
      zones: ['A', 'B'],
      quantities: [1, 2],
      // The seat map's figures: tickets on sale and the cheapest per ticket, fee included.
      sections: [
        { name: 'A', key: 'a', available: 3, minPerTicketMinor: 5050, currency: 'EUR', seats: ['1-3', '1-1', '1-2'] },
        { name: 'B', key: 'b', available: 2, minPerTicketMinor: 3400, currency: 'EUR', seats: ['1-1', '1-2'] },
      ],
    });
    // A section of the map, matched trimmed and case-insensitive.
    const inA = await buyPage(pk, { section: ' a ' }, getDb());
    expect(inA?.listings.map((l) => l.id)).toEqual([m.mid.id, m.pair.id]);
    expect(inA?.facets.sections).toEqual(page?.facets.sections);

    const desc = await buyPage(pk, { sort: 'price_desc' }, getDb());
    expect(desc?.listings.map((l) => l.id)).toEqual([m.vip.id, m.pair.id, m.mid.id, m.cheap.id]);
    expect((await buyPage(pk, { ticketOptionId: 'VIP' }, getDb()))?.listings.map((l) => l.id)).toEqual([m.vip.id]);
    expect((await buyPage(pk, { zone: 'A' }, getDb()))?.listings.map((l) => l.id)).toEqual([m.mid.id, m.pair.id]);
    expect((await buyPage(pk, { quantity: 2 }, getDb()))?.listings.map((l) => l.id)).toEqual([m.pair.id]);
    expect((await buyPage(pk, { zone: 'B', ticketOptionId: 'GA' }, getDb()))?.listings.map((l) => l.id)).toEqual([
      m.cheap.id,
    ]);
    // The other show has none; the filters offer nothing there.
    const second = page!.event.shows[1].showPk;
    const other = await buyPage(pk, { show: second }, getDb());
    expect(other?.show?.showId).toBe('2');
    expect(other?.listings).toEqual([]);
    // The public sale URL names a ticket: its show is chosen.
    const [t6] = await ticketsForSale(m.partnerId, ['T6'], getDb());
    expect((await buyPage(pk, { ticket: t6.pk }, getDb()))?.show?.showId).toBe('2');
    expect((await buyPage(pk, { ticket: 'tkt_unknown' }, getDb()))?.show?.showId).toBe('1');
  });

  it('answers null for unknown ids and never mixes partners in a checkout', async () => {
    const a = await market();
    const b = await market();
    expect(await buyPage('evt_doesnotexist', undefined, getDb())).toBeNull();
    expect(await buyerCheckout(['lst_nope'], getDb())).toBeNull();
    expect(await buyerCheckout([a.cheap.id, b.cheap.id], getDb())).toBeNull();
    expect(await buyerCheckout(['not an id'], getDb())).toBeNull();
    expect(await buyerIntention('bi_nope', getDb())).toBeNull();
    const checkout = await buyerCheckout([a.pair.id], getDb());
    expect(checkout).toMatchObject({
      available: true,
      ticketCount: 2,
      subtotalMinor: 10000,
      feesMinor: 1200,
      totalMinor: 11200,
      currency: 'EUR',
    });
    expect(checkout?.event.partnerId).toBe(a.partnerId);
  });

  it("shares one read of a show's offers between fans for up to a second; a listing write here forgets it at once", async () => {
    const m = await market();
    const pk = await eventPk(m.cheap.id);
    const { recording, listingReads } = recordingDb();
    forgetBuyPageOffers();
    const pages = await Promise.all(Array.from({ length: 20 }, () => buyPage(pk, undefined, recording)));
    expect(pages.every((p) => p?.listings.length === 4)).toBe(true);
    expect(listingReads()).toBe(1);

    // A change made elsewhere (another app instance: no forget here) shows within the second, not before.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      await getDb().execute(sql`update listings set price_minor = 2900 where id = ${m.mid.id}`);
      expect((await buyPage(pk, undefined, recording))?.listings.map((l) => l.id)[0]).toBe(m.cheap.id);
      expect(listingReads()).toBe(1);
      vi.advanceTimersByTime(BUY_PAGE_OFFERS_MS);
      expect((await buyPage(pk, undefined, recording))?.listings.map((l) => l.id)[0]).toBe(m.mid.id);
      expect(listingReads()).toBe(2);
    } finally {
      vi.useRealTimers();
    }

    // A hold made in this process: the very next page leaves the listing off the offers and shows it held,
    // with the hold's end, in the same read.
    const before = Date.now();
    const intention = await createBuyIntention(m.partnerId, { items: [m.mid.id], user: 'fast@example.com' }, getDb());
    const heldPage = await buyPage(pk, undefined, recording);
    expect(heldPage?.listings.map((l) => l.id)).not.toContain(m.mid.id);
    expect(listingReads()).toBe(3);
    expect(heldPage?.held.count).toBe(1);
    expect(heldPage?.held.soonest.map((o) => o.id)).toEqual([m.mid.id]);
    const endsAt = new Date(heldPage!.held.soonest[0].holdEndsAt!).getTime();
    expect(endsAt).toBeGreaterThan(before);
    expect(endsAt).toBe(new Date(intention.expiresAt).getTime());
    // Not counted as on sale in the map's figures either.
    expect(heldPage?.facets.sections.find((s) => s.key === 'a')?.available).toBe(2);
    // Held offers follow the page's filters, like the offers: none held in a section it is not in.
    expect((await buyPage(pk, { section: 'Nowhere' }, recording))?.held.count).toBe(0);
    expect((await buyPage(pk, { section: heldPage!.held.soonest[0].seats[0].section! }, recording))?.held.count).toBe(
      1,
    );
  });

  it('shares one answer per event and filters between fans, kept under the second; a listing write here forgets it', async () => {
    const m = await market();
    const pk = await eventPk(m.cheap.id);
    const { recording, listingReads } = recordingDb();
    forgetBuyPageOffers();
    // The clock stands still (a loaded machine must not age the entries), and moves when the test says.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => sharedBuyPage(pk, {}, recording)));
      expect(new Set(answers).size).toBe(1);
      expect(answers[0]?.listings[0].id).toBe(m.cheap.id);
      // Another filter set is another answer, made from the same offers.
      const dear = await sharedBuyPage(pk, { sort: 'price_desc' }, recording);
      expect(dear?.listings.at(-1)?.id).toBe(m.cheap.id);
      expect(listingReads()).toBe(1);
      expect(await sharedBuyPage(pk, {}, recording)).toBe(answers[0]);

      // A change made elsewhere (another instance) shows once both data layers have passed (the third,
      // the page as sent, is server/http/shared-page-render.ts's).
      await getDb().execute(sql`update listings set price_minor = 2900 where id = ${m.mid.id}`);
      vi.advanceTimersByTime(BUY_PAGE_LAYER_MS - 1);
      expect((await sharedBuyPage(pk, {}, recording))?.listings[0].id).toBe(m.cheap.id);
      vi.advanceTimersByTime(BUY_PAGE_LAYER_MS + 1);
      expect((await sharedBuyPage(pk, {}, recording))?.listings[0].id).toBe(m.mid.id);
      expect(listingReads()).toBe(2);

      // A hold made in this process: the very next answer leaves the listing off.
      await createBuyIntention(m.partnerId, { items: [m.mid.id], user: 'shared@example.com' }, getDb());
      expect((await sharedBuyPage(pk, {}, recording))?.listings.map((l) => l.id)).not.toContain(m.mid.id);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves held listings off the market, and after paying shows the buyer their secure tickets', async () => {
    const m = await market();
    const pk = await eventPk(m.cheap.id);
    const intention = await createBuyIntention(m.partnerId, { items: [m.pair.id], user: 'Buyer@Example.com' }, getDb());
    expect((await buyPage(pk, undefined, getDb()))?.listings.map((l) => l.id)).not.toContain(m.pair.id);
    expect((await buyerCheckout([m.pair.id], getDb()))?.available).toBe(false);
    const pending = await buyerIntention(intention.id, getDb());
    expect(pending).toMatchObject({ intention: { status: 'PENDING' }, tickets: [] });
    await payOnSandbox(intention.paymentUrl);
    const paid = await buyerIntention(intention.id, getDb());
    expect(paid?.intention.status).toBe('COMPLETED');
    expect(paid?.tickets.map((t) => t.ticketId)).toEqual(['T1', 'T2']);
    const view = await secureTicketPage(paid!.tickets[0].secureToken, getDb());
    expect(view).toMatchObject({ ticketId: 'T1', partnerId: m.partnerId, seating: { section: 'A' } });
  });

  it('shows an expired hold as expired, its listing back on the market and its payment URL no more', async () => {
    const m = await market();
    const pk = await eventPk(m.cheap.id);
    const intention = await createBuyIntention(m.partnerId, { items: [m.vip.id], user: 'late@example.com' }, getDb());
    await getDb()
      .update(buyIntentions)
      .set({ expiresAt: sql`now() - interval '1 second'` as unknown as Date })
      .where(eq(buyIntentions.id, intention.id));
    const late = await buyerIntention(intention.id, getDb());
    expect(late?.intention.status).toBe('EXPIRED');
    expect(late?.intention.paymentUrl).toMatch(new RegExp(`/checkout/${intention.id}$`));
    expect(late?.tickets).toEqual([]);
    expect((await buyPage(pk, undefined, getDb()))?.listings.map((l) => l.id)).toContain(m.vip.id);
  });
});
