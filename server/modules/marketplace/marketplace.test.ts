import { postRules, sellerMarket } from '@/server/testing/market';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as buyIntentionPost } from '@/app/v1/marketplace/buyingflow/buyIntention/route';
import { POST as cancelPost } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { getDb, getSql } from '@/db';
import { publicBaseUrl } from '@/server/env';
import {
  buyIntentions,
  listings,
  mails,
  payouts,
  refunds,
  shows,
  tickets,
  transfers as transfersTable,
  webhookEndpoints,
} from '@/db/schema';
import { AppError } from '@/server/lib/errors';
import { updateIntegration } from '@/server/modules/partners';
import { getPayment } from '@/server/modules/payments';
import { dispatchDue, listMessages, upsertEndpoint } from '@/server/modules/webhooks';
import { Receiver } from '@/server/testing/receiver';
import { payDuePayouts } from './payouts';
import { refundPurchaseJob } from './jobs';
import { transferTickets } from './transfer';
import { setEnvInFile } from '@/server/testing/env';
import { fakePartnerInFile, fakeTicket } from '@/server/testing/fake-partner';
import { apiRequest, routeParams } from '@/server/testing/fixtures';
import { recordJobsInFile } from '@/server/testing/jobs';
import { activePayoutAccount, payOnSandbox } from '@/server/testing/payments';
import { deleteTicket, putTicket } from '@/server/testing/ticket-api';
import { mailsOf, race } from '@/server/testing/race';
import { setMarketTerms } from './fees';
import { claimListings, createBuyIntention, expireIntention, getBuyIntention, releaseExpired } from './intentions';
import {
  createListing,
  getListing,
  listedTickets,
  listingOfTicket,
  relist,
  unlist,
  unlistTicket,
  updateListingPrice,
} from './listings';

const fake = fakePartnerInFile();
setEnvInFile({ ALLOW_PRIVATE_PARTNER_URLS: '1' });
const jobs = recordJobsInFile();

const SELLER = 'seller@example.com';
const BUYER = 'buyer@example.com';

/** A partner with one event (show 1, option GA at 40.00 EUR, in a year) and tickets owned by SELLER. */
const market = async (opts: { tickets?: Record<string, unknown>[]; show?: Record<string, unknown> } = {}) => {
  const { partnerId, key, ref } = await sellerMarket({ seller: SELLER, ...opts });
  return { partnerId, key, ref };
};
const rules = postRules;

/** Lists one of m's tickets on its own, as SELLER at 40.00 unless told otherwise. */
const listTicket = (m: { partnerId: string }, ticketId: string, { price = 40, seller = SELLER } = {}) =>
  createListing({ partnerId: m.partnerId, sellerEmail: seller, ticketIds: [ticketId], price }, getDb());

const code = (e: unknown) => (e instanceof AppError ? `${e.status} ${e.message}` : String(e));

describe('listings', () => {
  it('lists a ticket its owner holds, with the buyer total and the seller payout from the partner terms', async () => {
    const m = await market({
      tickets: [{ ticketId: 'T1', props: { seating: { section: 'A', row: '3', seat: '7' } } }],
    });
    await setMarketTerms(
      m.partnerId,
      {
        buyerFeePercent: 10,
        buyerFeeFixed: 1,
        sellerFeePercent: 5,
        sellerFeeFixed: 0,
        payoutDelayDays: 0,
      },
      getDb(),
    );
    const listing = await createListing(
      {
        partnerId: m.partnerId,
        sellerEmail: 'Seller@Example.com',
        ticketIds: ['T1'],
        price: '50.00',
      },
      getDb(),
    );
    expect(listing).toMatchObject({
      id: expect.stringMatching(/^lst_/),
      status: 'ACTIVE',
      type: 'SINGLE',
      externalReferenceEventId: m.ref,
      showId: '1',
      ticketIds: ['T1'],
      currency: 'EUR',
      price: 50,
      buyerFee: 6, // 10 % of 50 + 1.00
      buyerTotal: 56,
      sellerPayout: 47.5,
      seats: [{ ticketId: 'T1', section: 'A', row: '3', seat: '7' }],
    });
    const listed = await listedTickets(m.partnerId, m.ref, undefined, getDb());
    expect(listed).toEqual([
      expect.objectContaining({
        listingId: listing.id,
        price: 50,
        buyerFee: 6,
        total: 56,
        showId: '1',
        ticketOptionId: 'GA',
      }),
    ]);
    expect((await listingOfTicket(m.partnerId, 'T1', undefined, getDb())).id).toBe(listing.id);
  });

  it('refuses a seller who does not own the ticket, a second listing of it, and another partner', async () => {
    const m = await market();
    await expect(
      createListing({ partnerId: m.partnerId, sellerEmail: 'someone@else.com', ticketIds: ['T1'], price: 40 }, getDb()),
    ).rejects.toSatisfy((e) => code(e).startsWith('403'));
    await listTicket(m, 'T1');
    await expect(
      createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 41 }, getDb()),
    ).rejects.toSatisfy((e) => code(e) === '409 A ticket of this listing is already listed');
    const other = await market();
    await expect(listedTickets(other.partnerId, m.ref, undefined, getDb())).rejects.toSatisfy(
      (e) => code(e) === '404 Event not found',
    );
    await expect(listingOfTicket(other.partnerId, 'T1', undefined, getDb())).rejects.toSatisfy((e) =>
      code(e).startsWith('404'),
    );
  });

  it('asks the partner’s verification endpoint live, every time', async () => {
    const m = await market();
    await updateIntegration({ partnerId: m.partnerId, verificationUrl: `${fake.origin}/api` }, getDb());
    // The partner now says the seller no longer owns T1 (transferred in the primary system).
    fake.setTickets(SELLER, [fakeTicket({ ticketId: 'T2', externalReferenceEventId: m.ref, showId: '1' })]);
    await expect(
      createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 }, getDb()),
    ).rejects.toSatisfy((e) => code(e).startsWith('403') && code(e).includes('T1'));
    const ok = await listTicket(m, 'T2');
    expect(ok.status).toBe('ACTIVE');
    expect(fake.requestsTo('/api/tickets')).toHaveLength(2);
  });

  it('applies the show and the resale rules: resale off, price floor and cap, tickets per listing, one order per pack', async () => {
    const m = await market({
      tickets: [
        { ticketId: 'O1', orderId: 'ORD-1' },
        { ticketId: 'O2', tags: ['order:ORD-1'] },
        { ticketId: 'O3', orderId: 'ORD-1' },
        { ticketId: 'X1' },
      ],
    });
    const list = (ticketIds: string[], price: number) =>
      createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds, price }, getDb()).catch((e) => code(e));
    await rules(m.key, [
      {
        externalReferenceEventId: m.ref,
        ruleType: 'PRICE_LIMITS',
        rules: { minPercentOfFace: 50, maxPercentOfFace: 120 },
      },
      { externalReferenceEventId: m.ref, ruleType: 'MAX_TICKETS_PER_LISTING', rules: { max: 2 } },
    ]);
    expect(await list(['X1'], 48.01)).toContain('above the cap of 48 EUR (120% of face value)');
    expect(await list(['X1'], 19.99)).toContain('below the floor of 20 EUR');
    expect(await list(['O1', 'X1'], 40)).toContain('only tickets of one order can be listed together');
    expect(await list(['O1', 'O2', 'O3'], 40)).toContain('at most 2 tickets per listing');
    const pack = await list(['O1', 'O2'], 40);
    expect(pack).toMatchObject({ type: 'PACK', orderId: 'ORD-1', ticketIds: ['O1', 'O2'], buyerTotal: 80 });

    await rules(m.key, [{ externalReferenceEventId: m.ref, ruleType: 'RESALE_ENABLED', rules: { enabled: false } }]);
    expect(await list(['X1'], 40)).toContain('resale is not allowed for these tickets');
  });

  it('reprices, unlists and lists again; a held listing cannot be removed', async () => {
    const m = await market();
    const l = await listTicket(m, 'T1');
    expect((await updateListingPrice(m.partnerId, l.id, 44, getDb())).price).toBe(44);
    expect((await unlist(m.partnerId, l.id, getDb())).status).toBe('UNLISTED');
    expect(await listedTickets(m.partnerId, m.ref, undefined, getDb())).toEqual([]);
    expect((await relist(m.partnerId, l.id, getDb())).status).toBe('ACTIVE');

    await createBuyIntention(m.partnerId, { items: [l.id], user: BUYER }, getDb());
    await expect(unlistTicket(m.partnerId, 'T1', getDb())).rejects.toSatisfy(
      (e) => code(e).startsWith('409') && code(e).includes('held by a buyer'),
    );
    await expect(updateListingPrice(m.partnerId, l.id, 41, getDb())).rejects.toSatisfy((e) =>
      code(e).startsWith('409'),
    );
  });
});

describe('buy intentions', () => {
  it('hold the listings, answer the amounts and a payment URL, and queue their expiry after the commit', async () => {
    const m = await market();
    await setMarketTerms(
      m.partnerId,
      {
        buyerFeePercent: 0,
        buyerFeeFixed: 2.5,
        sellerFeePercent: 0,
        sellerFeeFixed: 0,
        payoutDelayDays: 0,
      },
      getDb(),
    );
    const a = await listTicket(m, 'T1');
    const b = await listTicket(m, 'T2', { price: 30 });
    const sentBefore = jobs.sent.length;
    const intention = await createBuyIntention(
      m.partnerId,
      { items: [a.id, b.id], user: 'Buyer@Example.com' },
      getDb(),
    );
    expect(intention).toMatchObject({
      id: expect.stringMatching(/^bi_/),
      status: 'PENDING',
      user: BUYER,
      subtotal: 70,
      buyerFee: 5,
      total: 75,
      paymentUrl: expect.stringMatching(/^http:\/\/encore\.test\/pay\/pay_\w+$/),
    });
    const minutes = (new Date(intention.expiresAt).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);
    expect((await getListing(m.partnerId, a.id, getDb())).status).toBe('RESERVED');
    expect(await listedTickets(m.partnerId, m.ref, undefined, getDb())).toEqual([]);
    // Queued in the background with the others of its 10 ms batch, after the answer.
    await expect.poll(() => jobs.sent.length).toBeGreaterThan(sentBefore);
    expect(jobs.sent.slice(sentBefore)).toEqual([
      {
        name: 'marketplace.expireIntention',
        input: { intentionId: intention.id },
        opts: { runAt: new Date(intention.expiresAt), singletonKey: intention.id },
      },
    ]);
  });

  it('100 buyers at once on one listing: exactly one holds it, the 99 others get a clear 409', async () => {
    const m = await market({ tickets: [{ ticketId: 'R1' }] });
    const l = await listTicket(m, 'R1');
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        createBuyIntention(m.partnerId, { items: [l.id], user: `b${i}@example.com` }, getDb()),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(99);
    for (const r of lost) expect(code(r.reason)).toBe(`409 Not available any more: ${l.id} (held by another buyer)`);
    const held = await getDb().select().from(buyIntentions).where(eq(buyIntentions.partnerId, m.partnerId));
    expect(held).toHaveLength(1);
  });

  it('the claim itself, sent by 100 buyers at once past the in-process coalescing: the database lets exactly one take it', async () => {
    const m = await market({ tickets: [{ ticketId: 'R1' }] });
    const l = await listTicket(m, 'R1');
    const claims = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        claimListings(getDb(), m.partnerId, [l.id], `b${i}@example.com`, `bi_race${i}`),
      ),
    );
    expect(claims.filter(([row]) => row.claimed)).toHaveLength(1);
    const [row] = await getDb().select().from(listings).where(eq(listings.id, l.id));
    expect(row.status).toBe('RESERVED');
  });

  it('100 buyers at once on the same two listings: one takes both, none takes one of them', async () => {
    const m = await market({ tickets: [{ ticketId: 'P1' }, { ticketId: 'P2' }] });
    const a = await listTicket(m, 'P1');
    const b = await listTicket(m, 'P2');
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        createBuyIntention(
          m.partnerId,
          { items: i % 2 ? [a.id, b.id] : [b.id, a.id], user: `b${i}@example.com` },
          getDb(),
        ),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') expect(code(r.reason)).toMatch(/^409 Not available any more: /);
    const rows = await getDb().select().from(listings).where(eq(listings.partnerId, m.partnerId));
    const holder = (won[0] as PromiseFulfilledResult<{ id: string }>).value.id;
    expect(rows.map((r) => r.reservedBy)).toEqual([holder, holder]);
  });

  it('a seller trying their own listing at the same moment as buyers does not make the buyers lose', async () => {
    const m = await market({ tickets: [{ ticketId: 'S1' }] });
    const l = await listTicket(m, 'S1');
    const results = await Promise.allSettled([
      createBuyIntention(m.partnerId, { items: [l.id], user: SELLER }, getDb()),
      ...Array.from({ length: 10 }, (_, i) =>
        createBuyIntention(m.partnerId, { items: [l.id], user: `b${i}@example.com` }, getDb()),
      ),
    ]);
    // The seller is refused (their own listing, or already held by the buyer who got it); one buyer holds it.
    expect(results[0].status === 'rejected' && code(results[0].reason)).toMatch(
      /^409 (A seller cannot buy their own listing|Not available any more: .* \(held by another buyer\))$/,
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('refuse listings of several shows or options, unknown or foreign listings, and a seller buying their own', async () => {
    const m = await market();
    const other = await market();
    const mine = await listTicket(m, 'T1');
    const theirs = await listTicket(other, 'T1');
    await expect(
      createBuyIntention(m.partnerId, { items: [mine.id, theirs.id], user: BUYER }, getDb()),
    ).rejects.toSatisfy((e) => code(e) === `404 Listing not found: ${theirs.id}`);
    await expect(createBuyIntention(m.partnerId, { items: [mine.id], user: SELLER }, getDb())).rejects.toSatisfy(
      (e) => code(e) === '409 A seller cannot buy their own listing',
    );
    expect((await getListing(m.partnerId, mine.id, getDb())).status).toBe('ACTIVE');
  });

  it('expire: the job releases the hold at its time, and a late read releases it even without the job', async () => {
    const m = await market();
    const a = await listTicket(m, 'T1');
    const b = await listTicket(m, 'T2');
    const first = await createBuyIntention(m.partnerId, { items: [a.id], user: BUYER }, getDb());
    expect(await expireIntention(first.id, getDb())).toBe(false); // too early: nothing happens
    const past = sql`now() - interval '1 second'`;
    await getDb()
      .update(buyIntentions)
      .set({ expiresAt: past as unknown as Date })
      .where(eq(buyIntentions.id, first.id));
    expect(await expireIntention(first.id, getDb())).toBe(true);
    expect((await getListing(m.partnerId, a.id, getDb())).status).toBe('ACTIVE');
    expect((await getBuyIntention(m.partnerId, first.id, getDb())).status).toBe('EXPIRED');

    const second = await createBuyIntention(m.partnerId, { items: [b.id], user: BUYER }, getDb());
    await getDb()
      .update(buyIntentions)
      .set({ expiresAt: past as unknown as Date })
      .where(eq(buyIntentions.id, second.id));
    // No job ran: the listed-tickets read shows it on sale (without writing), the intention reads EXPIRED.
    expect((await listedTickets(m.partnerId, m.ref, undefined, getDb())).map((l) => l.listingId).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    expect((await getBuyIntention(m.partnerId, second.id, getDb())).status).toBe('EXPIRED');
    // And someone else can now hold it: the claim ends the old hold in its own transaction.
    expect((await createBuyIntention(m.partnerId, { items: [b.id], user: 'late@example.com' }, getDb())).status).toBe(
      'PENDING',
    );
    await getDb().transaction((tx) => releaseExpired(tx, { partnerId: m.partnerId }));
  });
});

describe('cascades', () => {
  it('cancelling the show ends its listings and the intentions holding them', async () => {
    const m = await market();
    const a = await listTicket(m, 'T1');
    const b = await listTicket(m, 'T2');
    const held = await createBuyIntention(m.partnerId, { items: [b.id], user: BUYER }, getDb());
    const res = await cancelPost(
      apiRequest(`/v1/events/${m.ref}/cancellation`, { key: m.key, method: 'POST' }),
      routeParams({ externalReferenceId: m.ref }),
    );
    expect(res.status).toBe(200);
    expect((await getListing(m.partnerId, a.id, getDb())).status).toBe('CANCELLED');
    expect((await getListing(m.partnerId, b.id, getDb())).status).toBe('CANCELLED');
    expect((await getBuyIntention(m.partnerId, held.id, getDb())).status).toBe('CANCELLED');
    await expect(relist(m.partnerId, a.id, getDb())).rejects.toSatisfy((e) => code(e).startsWith('409'));
  });

  it('deleting a ticket ends its listing; its other tickets can still be listed', async () => {
    const m = await market();
    const a = await listTicket(m, 'T1');
    expect((await deleteTicket(m.key, 'T1')).status).toBe(200);
    expect((await getListing(m.partnerId, a.id, getDb())).status).toBe('CANCELLED');
    await expect(
      createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 }, getDb()),
    ).rejects.toSatisfy((e) => code(e).includes('is invalid'));
    expect(
      (await createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T2'], price: 40 }, getDb()))
        .status,
    ).toBe('ACTIVE');
  });
});

describe('a listed ticket the partner gives to someone else (PUT with another buyer)', () => {
  const NEW_HOLDER = 'new-holder@example.com';

  it('ends its listing and the hold on it and tells the seller; a PUT keeping the buyer leaves a listing be', async () => {
    const m = await market();
    const a = await listTicket(m, 'T1');
    const b = await listTicket(m, 'T2');
    const held = await createBuyIntention(m.partnerId, { items: [a.id], user: BUYER }, getDb());
    // Same buyer (written differently), another seat: nothing changes hands.
    const same = await putTicket(m.key, 'T2', { buyer: 'Seller@Example.com', props: { seating: { seat: '9' } } });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect((await getListing(m.partnerId, b.id, getDb())).status).toBe('ACTIVE');

    const given = await putTicket(m.key, 'T1', { buyer: NEW_HOLDER });
    expect(given.status, JSON.stringify(given.body)).toBe(200);
    expect((await getListing(m.partnerId, a.id, getDb())).status).toBe('CANCELLED');
    expect((await getBuyIntention(m.partnerId, held.id, getDb())).status).toBe('CANCELLED');
    expect((await mailsOf(m.partnerId, 'listingCancelled')).map((x) => x.toAddress)).toEqual([SELLER]);
    expect((await getListing(m.partnerId, b.id, getDb())).status).toBe('ACTIVE');
    // The new holder may list it.
    const again = await listTicket(m, 'T1', { seller: NEW_HOLDER });
    expect(again.status).toBe('ACTIVE');
  });

  it('20 such PUTs and 20 buyers at once: the listing ends once, one mail, no hold left on it', async () => {
    const m = await market();
    const a = await listTicket(m, 'T1');
    const outcomes = await race(
      40,
      async (i) =>
        i % 2
          ? (await putTicket(m.key, 'T1', { buyer: NEW_HOLDER })).status
          : (await createBuyIntention(m.partnerId, { items: [a.id], user: `buyer${i}@example.com` }, getDb()), 200),
      (status) => status,
    );
    expect(outcomes.filter((_, i) => i % 2).map((o) => o.status)).toEqual(Array(20).fill(200));
    expect(outcomes.every((o) => o.status === 200 || o.status === 409)).toBe(true);
    expect((await getListing(m.partnerId, a.id, getDb())).status).toBe('CANCELLED');
    const holds = await getDb()
      .select({ id: buyIntentions.id })
      .from(buyIntentions)
      .where(and(eq(buyIntentions.partnerId, m.partnerId), eq(buyIntentions.status, 'PENDING')));
    expect(holds).toEqual([]);
    expect(await mailsOf(m.partnerId, 'listingCancelled')).toHaveLength(1);
  });
});

describe('orders on tickets', () => {
  it('stores orderId, or the order:<id> tag when orderId is absent', async () => {
    const m = await market({
      tickets: [{ ticketId: 'A', orderId: 'O-9' }, { ticketId: 'B', tags: ['order:O-10'] }, { ticketId: 'C' }],
    });
    const rows = await getDb()
      .select({ ticketId: tickets.ticketId, orderId: tickets.orderId })
      .from(tickets)
      .where(and(eq(tickets.partnerId, m.partnerId)))
      .orderBy(tickets.ticketId);
    expect(rows).toEqual([
      { ticketId: 'A', orderId: 'O-9' },
      { ticketId: 'B', orderId: 'O-10' },
      { ticketId: 'C', orderId: null },
    ]);
    void listings;
  });
});

describe('completing a purchase', () => {
  async function intend(key: string, items: string[], user = BUYER) {
    return buyIntentionPost(apiRequest('/v1/marketplace/buyingflow/buyIntention', { key, body: { items, user } })).then(
      async (r) => ({ status: r.status, body: await r.json() }),
    );
  }

  it('listed, found, held, paid on the sandbox page: the buyer owns it, the partner hears ticket.updated, the payout is scheduled', async () => {
    const receiver = await new Receiver().start();
    const m = await market({ tickets: [{ ticketId: 'T1', primarySalesFee: { type: 'FIXED', value: 2 } }] });
    try {
      await upsertEndpoint({ partnerId: m.partnerId, url: receiver.url, enabled: true }, getDb());
      await setMarketTerms(
        m.partnerId,
        {
          buyerFeePercent: 10,
          buyerFeeFixed: 0,
          sellerFeePercent: 5,
          sellerFeeFixed: 0,
          payoutDelayDays: 2,
        },
        getDb(),
      );
      const [before] = await getDb()
        .select()
        .from(tickets)
        .where(and(eq(tickets.partnerId, m.partnerId), eq(tickets.ticketId, 'T1')));
      const listing = await createListing(
        {
          partnerId: m.partnerId,
          sellerEmail: SELLER,
          ticketIds: ['T1'],
          price: 100,
        },
        getDb(),
      );
      const [found] = await listedTickets(m.partnerId, m.ref, undefined, getDb());
      expect(found).toMatchObject({ listingId: listing.id, total: 110 });

      const intention = await intend(m.key, [found.listingId]);
      expect(intention.status).toBe(200);
      expect(intention.body.data.paymentUrl).toMatch(/^http:\/\/encore\.test\/pay\/pay_\w+$/);
      const paid = await payOnSandbox(intention.body.data.paymentUrl);
      expect([paid.status, paid.location]).toEqual([303, `http://encore.test/checkout/${intention.body.data.id}`]);

      expect(await getBuyIntention(m.partnerId, intention.body.data.id, getDb())).toMatchObject({
        status: 'COMPLETED',
        total: 110,
      });
      expect((await getListing(m.partnerId, listing.id, getDb())).status).toBe('SOLD');
      const [after] = await getDb().select().from(tickets).where(eq(tickets.id, before.id));
      expect(after.buyerEmail).toBe(BUYER);
      expect(after.secureToken).not.toBe(before.secureToken); // the seller's secure link stops working
      const [payout] = await getDb().select().from(payouts).where(eq(payouts.listingId, listing.id));
      // 100.00 − 5 % seller fee − 2.00 primary sales fee
      expect(payout).toMatchObject({ status: 'SCHEDULED', sellerEmail: SELLER, amountMinor: 9300, currency: 'EUR' });
      expect(payout.dueAt.getTime() - (await showStart(m.partnerId))).toBe(2 * 24 * 3600_000);

      await dispatchDue(getSql());
      const bodies = receiver.requests.map((r) => JSON.parse(r.body));
      expect(bodies).toContainEqual({
        family: 'ticket',
        action: 'ticket.updated',
        data: { id: 'T1', newOwnerEmail: BUYER, oldOwnerEmail: SELLER },
      });
      // Paying again (a double submit) changes nothing.
      await payOnSandbox(intention.body.data.paymentUrl);
      expect(await getDb().select().from(payouts).where(eq(payouts.listingId, listing.id))).toHaveLength(1);
    } finally {
      await getDb().update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.partnerId, m.partnerId));
      await receiver.stop();
    }
  });

  it('pays a due payout once the seller has a payout account; until then it waits as pending payout info', async () => {
    const m = await market();
    const listing = await listTicket(m, 'T1');
    const intention = await intend(m.key, [listing.id]);
    await payOnSandbox(intention.body.data.paymentUrl);
    const mine = () => getDb().select().from(payouts).where(eq(payouts.listingId, listing.id));
    expect((await payDuePayouts(getDb())).paid).toBe(0); // not due: the show is in a year
    await getDb()
      .update(payouts)
      .set({ dueAt: sql`now() - interval '1 minute'` as unknown as Date })
      .where(eq(payouts.listingId, listing.id));
    await payDuePayouts(getDb());
    expect((await mine())[0].status).toBe('SCHEDULED'); // no payout account yet
    await activePayoutAccount(m.partnerId, SELLER);
    await payDuePayouts(getDb());
    const [paid] = await mine();
    expect(paid).toMatchObject({ status: 'PAID', amountMinor: 4000 });
    const transfers = await getDb().select().from(transfersTable).where(eq(transfersTable.partnerId, m.partnerId));
    expect(transfers).toEqual([
      expect.objectContaining({ amountMinor: 4000, idempotencyKey: paid.id, status: 'paid' }),
    ]);
    await payDuePayouts(getDb()); // nothing twice
    expect(await getDb().select().from(transfersTable).where(eq(transfersTable.partnerId, m.partnerId))).toHaveLength(
      1,
    );
  });

  it('pays a due payout once when 20 runs pay at once, and never one cancelled while a run was starting', async () => {
    const m = await market();
    await activePayoutAccount(m.partnerId, SELLER);
    const sold = async (ticketId: string) => {
      const listing = await createListing(
        {
          partnerId: m.partnerId,
          sellerEmail: SELLER,
          ticketIds: [ticketId],
          price: 40,
        },
        getDb(),
      );
      await payOnSandbox((await intend(m.key, [listing.id])).body.data.paymentUrl);
      const [payout] = await getDb().select().from(payouts).where(eq(payouts.listingId, listing.id));
      await getDb()
        .update(payouts)
        .set({ dueAt: sql`now() - interval '1 minute'` as unknown as Date })
        .where(eq(payouts.id, payout.id));
      return payout.id;
    };
    const transfersOf = (payoutId: string) =>
      getDb().select().from(transfersTable).where(eq(transfersTable.idempotencyKey, payoutId));

    // 20 runs at once: one transfer, the payout PAID once.
    const first = await sold('T1');
    const runs = await Promise.all(Array.from({ length: 20 }, () => payDuePayouts(getDb())));
    expect(runs.reduce((n, r) => n + r.paid, 0)).toBe(1);
    expect(runs.reduce((n, r) => n + r.failed, 0)).toBe(0);
    expect(await transfersOf(first)).toHaveLength(1);
    expect((await getDb().select().from(payouts).where(eq(payouts.id, first)))[0].status).toBe('PAID');

    // A refund is cancelling the payout (its transaction holds the row) while a run starts: the run
    // leaves it to the refund and moves no money; the next run finds it CANCELLED.
    const second = await sold('T2');
    let cancel!: () => void;
    const cancelling = getSql().begin(async (tx) => {
      await tx`select id from payouts where id = ${second} for update`;
      await new Promise<void>((resolve) => (cancel = resolve));
      await tx`update payouts set status = 'CANCELLED' where id = ${second} and status = 'SCHEDULED'`;
    });
    await expect.poll(() => typeof cancel).toBe('function');
    let finished = false;
    const run = payDuePayouts(getDb()).finally(() => (finished = true));
    // Until the run is over, or (what the guard prevents) a transfer for the payout is recorded.
    await expect.poll(async () => finished || (await transfersOf(second)).length > 0, { timeout: 10_000 }).toBe(true);
    cancel();
    await cancelling;
    expect((await run).paid).toBe(0);
    expect(await transfersOf(second)).toEqual([]);
    expect((await getDb().select().from(payouts).where(eq(payouts.id, second)))[0].status).toBe('CANCELLED');
  });

  it('a cancelled show refunds its sold tickets and cancels their payouts (after the commit, by job)', async () => {
    const m = await market();
    const listing = await listTicket(m, 'T1');
    const intention = await intend(m.key, [listing.id]);
    const paid = await payOnSandbox(intention.body.data.paymentUrl);
    expect((await getListing(m.partnerId, listing.id, getDb())).status).toBe('SOLD');
    const sent = jobs.sent.length;
    const res = await cancelPost(
      apiRequest(`/v1/events/${m.ref}/cancellation`, { key: m.key, method: 'POST' }),
      routeParams({ externalReferenceId: m.ref }),
    );
    expect(res.status).toBe(200);
    const [payout] = await getDb().select().from(payouts).where(eq(payouts.listingId, listing.id));
    expect(payout.status).toBe('CANCELLED');
    const refund = jobs.sent.slice(sent).find((j) => j.name === 'marketplace.refundPurchase')!;
    expect(refund.input).toEqual({
      partnerId: m.partnerId,
      paymentId: paid.paymentId,
      reason: 'The show was cancelled',
      refundId: `rfd_${intention.body.data.id}_cancelled`,
    });
    await refundPurchaseJob.run(refundPurchaseJob.input.parse(refund.input), { provider: 'local', attempt: 1 });
    expect((await getPayment(m.partnerId, paid.paymentId, getDb())).status).toBe('refunded');
  });

  it('a show cancelled 20 times at once, then again, refunds its buyer once and mails them once; a rerun refund job finds its refund', async () => {
    const m = await market();
    const listing = await listTicket(m, 'T1');
    const intention = await intend(m.key, [listing.id]);
    const paid = await payOnSandbox(intention.body.data.paymentUrl);
    const sent = jobs.sent.length;
    const cancel = () =>
      cancelPost(
        apiRequest(`/v1/events/${m.ref}/cancellation`, { key: m.key, method: 'POST' }),
        routeParams({ externalReferenceId: m.ref }),
      );
    const answers = await Promise.all(Array.from({ length: 20 }, cancel));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect((await cancel()).status).toBe(200);
    const refundJobs = jobs.sent.slice(sent).filter((j) => j.name === 'marketplace.refundPurchase');
    expect(refundJobs).toHaveLength(1);
    const refundedMails = await getDb()
      .select()
      .from(mails)
      .where(and(eq(mails.partnerId, m.partnerId), eq(mails.kind, 'purchaseRefunded')));
    expect(refundedMails).toHaveLength(1);
    // The job, run twice (a retry after a crash), refunds once and never fails on the refunded payment.
    const input = refundPurchaseJob.input.parse(refundJobs[0].input);
    const first = await refundPurchaseJob.run(input, { provider: 'local', attempt: 1 });
    const again = await refundPurchaseJob.run(input, { provider: 'local', attempt: 2 });
    expect(again).toEqual(first);
    expect((await getPayment(m.partnerId, paid.paymentId, getDb())).status).toBe('refunded');
    expect(await getDb().select().from(refunds).where(eq(refunds.paymentId, paid.paymentId))).toHaveLength(1);
  });

  it('the partner’s verification failing or hanging while the fan pays: back on the checkout told why, nothing charged, and paying again works', async () => {
    const m = await market();
    const listing = await listTicket(m, 'T1');
    const intention = await intend(m.key, [listing.id]);
    await updateIntegration({ partnerId: m.partnerId, verificationUrl: `${fake.origin}/api` }, getDb());
    fake.setTickets(SELLER, [
      fakeTicket({ ticketId: 'T1', externalReferenceEventId: m.ref, showId: '1', ticketOptionId: 'GA' }),
    ]);
    for (const misbehaviour of [{ kind: 'status', status: 500 } as const, { kind: 'hang' } as const]) {
      fake.misbehaviour = misbehaviour;
      const started = Date.now();
      const failed = await payOnSandbox(intention.body.data.paymentUrl);
      expect(failed.status, misbehaviour.kind).toBe(303);
      expect(failed.location).toBe(`${publicBaseUrl()}/pay/${failed.paymentId}?error=partner_unavailable`);
      // Within the partner call's own time limit (and a margin for a busy machine), never a blank 500.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect((await getPayment(m.partnerId, failed.paymentId, getDb())).status).toBe('pending');
      expect((await getBuyIntention(m.partnerId, intention.body.data.id, getDb())).status).toBe('PENDING');
    }
    fake.misbehaviour = null;
    const paid = await payOnSandbox(intention.body.data.paymentUrl);
    expect(paid.location).not.toContain('error=');
    expect((await getPayment(m.partnerId, paid.paymentId, getDb())).status).toBe('paid');
  }, 60_000);

  it('refuses the purchase when the partner says the seller no longer owns the ticket: listing cancelled, payment refunded', async () => {
    const m = await market();
    const listing = await listTicket(m, 'T1');
    const intention = await intend(m.key, [listing.id]);
    // Meanwhile the seller transferred the ticket in the partner's system.
    await updateIntegration({ partnerId: m.partnerId, verificationUrl: `${fake.origin}/api` }, getDb());
    fake.setTickets(SELLER, []);
    const sent = jobs.sent.length;
    const paid = await payOnSandbox(intention.body.data.paymentUrl);
    expect(paid.status).toBe(303);
    expect(await getBuyIntention(m.partnerId, intention.body.data.id, getDb())).toMatchObject({
      status: 'CANCELLED',
      reason: 'The seller no longer holds these tickets',
    });
    expect((await getListing(m.partnerId, listing.id, getDb())).status).toBe('CANCELLED');
    const refund = jobs.sent.slice(sent).find((j) => j.name === 'marketplace.refundPurchase')!;
    expect(refund.input).toMatchObject({ partnerId: m.partnerId, paymentId: paid.paymentId });
    await refundPurchaseJob.run(refundPurchaseJob.input.parse(refund.input), { provider: 'local', attempt: 1 });
    expect((await getPayment(m.partnerId, paid.paymentId, getDb())).status).toBe('refunded');
    const [ticket] = await getDb()
      .select()
      .from(tickets)
      .where(and(eq(tickets.partnerId, m.partnerId), eq(tickets.ticketId, 'T1')));
    expect(ticket.buyerEmail).toBe(SELLER);
  });
});

async function showStart(partnerId: string): Promise<number> {
  const [row] = await getDb().select({ at: shows.startsAt }).from(shows).where(eq(shows.partnerId, partnerId));
  return row.at.getTime();
}

describe('peer-to-peer transfer', () => {
  it('hands a ticket to another e-mail where P2P_TRANSFER allows it, with ticket.updated; never a listed ticket', async () => {
    const m = await market();
    const transfer = (ticketIds: string[]) =>
      transferTickets(m.partnerId, { ticketIds, fromEmail: SELLER, toEmail: 'Friend@Example.com' }, getDb()).catch(
        (e) => code(e),
      );
    expect(await transfer(['T1'])).toBe('403 Transfers are not allowed for ticket T1');
    await rules(m.key, [{ externalReferenceEventId: m.ref, ruleType: 'P2P_TRANSFER', rules: { allowed: true } }]);
    await listTicket(m, 'T2');
    expect(await transfer(['T2'])).toBe('409 A listed ticket cannot be transferred; take it off sale first');
    expect(await transfer(['T1'])).toEqual({ ticketIds: ['T1'], newOwnerEmail: 'friend@example.com' });
    const [t1] = await getDb()
      .select()
      .from(tickets)
      .where(and(eq(tickets.partnerId, m.partnerId), eq(tickets.ticketId, 'T1')));
    expect(t1.buyerEmail).toBe('friend@example.com');
    const { items } = await listMessages({ partnerId: m.partnerId, action: 'ticket.updated' }, getDb());
    expect(items.map((i) => i.data)).toEqual([
      { id: 'T1', newOwnerEmail: 'friend@example.com', oldOwnerEmail: SELLER },
    ]);
    // The old owner no longer owns it.
    expect(await transfer(['T1'])).toMatch(/^403 The partner does not report ticket T1/);
  });

  it('moves a ticket once when its holder confirms "send to a friend" 20 times at once: one transfer, 19 clear 409s', async () => {
    const m = await market();
    await rules(m.key, [{ externalReferenceEventId: m.ref, ruleType: 'P2P_TRANSFER', rules: { allowed: true } }]);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        transferTickets(
          m.partnerId,
          { ticketIds: ['T1'], fromEmail: SELLER, toEmail: `friend${i}@example.com` },
          getDb(),
        ).then(
          (ok) => ({ status: 200, ok, reason: null as string | null }),
          (e: AppError) => ({ status: e.status, ok: null, reason: e.fanReason ?? null }),
        ),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    // The refusal the fan pages already say in the fan's language.
    expect(new Set(answers.filter((a) => a.status === 409).map((a) => a.reason))).toEqual(new Set(['NOT_OWNED']));
    const winner = answers.find((a) => a.status === 200)!.ok!.newOwnerEmail;
    const [t1] = await getDb()
      .select()
      .from(tickets)
      .where(and(eq(tickets.partnerId, m.partnerId), eq(tickets.ticketId, 'T1')));
    expect(t1.buyerEmail).toBe(winner);
    // One ticket.updated, naming the holder it really left.
    const { items } = await listMessages({ partnerId: m.partnerId, action: 'ticket.updated' }, getDb());
    expect(items.map((i) => i.data)).toEqual([{ id: 'T1', newOwnerEmail: winner, oldOwnerEmail: SELLER }]);
  });
});
