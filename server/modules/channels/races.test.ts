import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { channelHubForFile } from '@/server/testing/channel-hub';
import { POST as cancelPost } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { PUT as listingPut } from '@/app/v1/channels/listings/[listingId]/route';
import { POST as fulfilPost } from '@/app/v1/channels/sales/[saleId]/fulfilment/route';
import { channelSales, listingItems, listings, payouts, tickets } from '@/db/schema';
import {
  createBuyIntention,
  createListing,
  listedTickets,
  transferTickets,
  unlist,
} from '@/server/modules/marketplace';
import { createApiKey, createChannel, updateChannel } from '@/server/modules/partners';
import { callRoute } from '@/server/testing/fixtures';
import { postRules, sellerMarket } from '@/server/testing/market';
import { payOnSandbox } from '@/server/testing/payments';
import { mailsOf, race, relistUnderTicketLock, routeStatus, statuses, webhooksOf } from '@/server/testing/race';
import { expireChannelSaleJob } from './jobs';
import { refundUnfulfilledSales } from './sales';

/*
 * Race tests of channel sales (docs/trust.md): their creation in the paying transaction, the deadline
 * refund against fulfilment, the refund by a show cancellation, and fulfilment against a fan's P2P
 * transfer or listing of the same ticket.
 */

const HOLDER = 'race-holder@example.com';
const BUYER = 'race-buyer@example.com';

const harness = channelHubForFile();
const { channelIds } = harness;

/** A partner (T1, T2 held by HOLDER), a channel, and the channel's listing C1 (one GA ticket at 44 EUR) in the market. */
async function channelMarket() {
  const m = await sellerMarket({
    seller: HOLDER,
    name: 'Channel races',
    tickets: [{ ticketId: 'T1' }, { ticketId: 'T2' }],
  });
  const channel = await createChannel({ partnerId: m.partnerId, name: 'Race Hub' }, getDb());
  channelIds.push(channel.id);
  await updateChannel(
    { partnerId: m.partnerId, channelId: channel.id, name: 'Race Hub', webhookUrl: harness.hub.url },
    getDb(),
  );
  const { secret } = await createApiKey({ partnerId: m.partnerId, kind: 'channels', channelId: channel.id }, getDb());
  const put = await callRoute(listingPut, '/v1/channels/listings/C1', secret, {
    method: 'PUT',
    body: { eventId: m.ref, showId: '1', ticketOptionId: 'GA', price: 44, currency: 'EUR', quantity: 1 },
    params: { listingId: 'C1' },
  });
  expect(put.status).toBe(200);
  const [row] = await listedTickets(m.partnerId, m.ref, undefined, getDb());
  return { ...m, channel, channelKey: secret, marketListingId: row.listingId };
}

/** The channel's listing bought by BUYER: its sale, waiting for the tickets. */
async function sold() {
  const s = await channelMarket();
  const intention = await createBuyIntention(s.partnerId, { items: [s.marketListingId], user: BUYER }, getDb());
  expect((await payOnSandbox(intention.paymentUrl!)).status).toBe(303);
  const [sale] = await getDb().select().from(channelSales).where(eq(channelSales.channelId, s.channel.id));
  return { ...s, intention, sale };
}

const fulfil = (s: { channelKey: string }, saleId: string, ticketIds: string[]) =>
  callRoute(fulfilPost, `/v1/channels/sales/${saleId}/fulfilment`, s.channelKey, {
    method: 'POST',
    body: { ticketIds },
    params: { saleId },
  });

/** A route's answer is its status; a module function's value is a 200. */
const statusOrOk = (v: unknown) => (v as { status?: number }).status ?? 200;

async function holderOf(partnerId: string, ticketId: string) {
  const [t] = await getDb()
    .select({ buyerEmail: tickets.buyerEmail })
    .from(tickets)
    .where(and(eq(tickets.partnerId, partnerId), eq(tickets.ticketId, ticketId)));
  return t.buyerEmail;
}

describe('channel sales at once', () => {
  it('channel sale creation: the buyer’s card posted 20 times at once makes one sale, one channelListing.sold, one payout', async () => {
    const s = await channelMarket();
    const intention = await createBuyIntention(s.partnerId, { items: [s.marketListingId], user: BUYER }, getDb());
    const outcomes = await race(20, () => payOnSandbox(intention.paymentUrl!));
    expect(statuses(outcomes)).toEqual(Array(20).fill(200));
    const sales = await getDb().select().from(channelSales).where(eq(channelSales.channelId, s.channel.id));
    expect(sales.map((x) => [x.status, x.buyerEmail])).toEqual([['PENDING_FULFILMENT', BUYER]]);
    expect(await webhooksOf(s.partnerId, 'channelListing.sold', s.channel.id)).toHaveLength(1);
    const rows = await getDb().select().from(payouts).where(eq(payouts.listingId, s.marketListingId));
    expect(rows.map((p) => p.status)).toEqual(['SCHEDULED']);
    expect((await mailsOf(s.partnerId, 'purchaseConfirmation')).map((x) => x.toAddress)).toEqual([BUYER]);
    expect(
      harness.jobs.sent.filter(
        (j) => j.name === 'channels.expireSale' && (j.input as { saleId?: string }).saleId === sales[0].id,
      ),
    ).toHaveLength(1);
  });

  it('channel deadline refund: 7 sweeps, 7 deadline jobs and 6 fulfilments at once; the sale is refunded once or fulfilled once, never both', async () => {
    const s = await sold();
    await getDb()
      .update(channelSales)
      .set({ fulfilBy: new Date(Date.now() - 1000) })
      .where(eq(channelSales.id, s.sale.id));
    const sent = harness.jobs.sent.length;
    const outcomes = await race<unknown>(
      20,
      (i) =>
        i % 3 === 0
          ? refundUnfulfilledSales(undefined, getDb())
          : i % 3 === 1
            ? expireChannelSaleJob.run({ saleId: s.sale.id }, { provider: 'local', attempt: 1 })
            : fulfil(s, s.sale.id, ['T1']),
      statusOrOk,
    );
    // A refused fulfilment is a 409 saying the sale was refunded; nothing else fails.
    for (const o of outcomes.filter((x) => x.status !== 200)) {
      expect(o.status).toBe(409);
      expect((o.value as { body: { errors: { message: string } } }).body.errors.message).toMatch(/refunded/);
    }
    const [after] = await getDb().select().from(channelSales).where(eq(channelSales.id, s.sale.id));
    const refundJobs = harness.jobs.sent.slice(sent).filter((j) => j.name === 'marketplace.refundPurchase');
    const refundedHooks = await webhooksOf(s.partnerId, 'channelSale.refunded', s.channel.id);
    const [payout] = await getDb().select().from(payouts).where(eq(payouts.listingId, s.marketListingId));
    if (after.status === 'REFUNDED') {
      expect(refundJobs.map((j) => j.input)).toEqual([expect.objectContaining({ refundId: `rfd_${s.sale.id}` })]);
      expect(refundedHooks).toHaveLength(1);
      expect(payout.status).toBe('CANCELLED');
      expect((await mailsOf(s.partnerId, 'purchaseRefunded')).map((x) => x.toAddress)).toEqual([BUYER]);
      expect(await holderOf(s.partnerId, 'T1')).toBe(HOLDER);
      expect(await mailsOf(s.partnerId, 'ticketsDelivered')).toEqual([]);
    } else {
      expect(after.status).toBe('FULFILLED');
      expect(refundJobs).toEqual([]);
      expect(refundedHooks).toEqual([]);
      expect(payout.status).toBe('SCHEDULED');
      expect(await holderOf(s.partnerId, 'T1')).toBe(BUYER);
      expect((await mailsOf(s.partnerId, 'ticketsDelivered')).map((x) => x.toAddress)).toEqual([BUYER]);
    }
  });

  it('channel refund on show cancellation: the show cancelled 20 times at once closes the sale once, one channelSale.refunded, one buyer refund', async () => {
    const s = await sold();
    const sent = harness.jobs.sent.length;
    const outcomes = await race(
      20,
      () =>
        callRoute(cancelPost, `/v1/events/${s.ref}/cancellation`, s.key, {
          method: 'POST',
          params: { externalReferenceId: s.ref },
        }),
      routeStatus,
    );
    expect(statuses(outcomes)).toEqual(Array(20).fill(200));
    const [after] = await getDb().select().from(channelSales).where(eq(channelSales.id, s.sale.id));
    expect(after.status).toBe('REFUNDED');
    expect(
      (await webhooksOf(s.partnerId, 'channelSale.refunded', s.channel.id)).map(
        (x) => (x.data as { reason: string }).reason,
      ),
    ).toEqual(['The show was cancelled; the buyer was refunded']);
    const refundJobs = harness.jobs.sent.slice(sent).filter((j) => j.name === 'marketplace.refundPurchase');
    expect(refundJobs.map((j) => j.input)).toEqual([
      expect.objectContaining({ refundId: `rfd_${s.intention.id}_cancelled` }),
    ]);
    expect((await mailsOf(s.partnerId, 'purchaseRefunded')).map((x) => x.toAddress)).toEqual([BUYER]);
  });
});

describe('fulfilment against a fan’s own moves on the same ticket', () => {
  it('10 fulfilments and 10 P2P transfers of the ticket at once: one transfer and one fulfilment at most, in order, the others clear 409s', async () => {
    const s = await sold();
    await postRules(s.key, [{ externalReferenceEventId: s.ref, ruleType: 'P2P_TRANSFER', rules: { allowed: true } }]);
    const outcomes = await race<unknown>(
      20,
      (i) =>
        i % 2
          ? transferTickets(
              s.partnerId,
              { ticketIds: ['T1'], fromEmail: HOLDER, toEmail: `friend${i}@example.com` },
              getDb(),
            )
          : fulfil(s, s.sale.id, ['T1']),
      statusOrOk,
    );
    const [after] = await getDb().select().from(channelSales).where(eq(channelSales.id, s.sale.id));
    const holder = await holderOf(s.partnerId, 'T1');
    const transfersWon = outcomes.filter((o, i) => i % 2 === 1 && o.status === 200);
    // Serialised on the ticket's lock: at most one transfer (the holder's), at most one fulfilment. A
    // fulfilment after the transfer takes the ticket from its new holder (the channel names tickets,
    // not holders); the ticket.updated chain then names each holder it really left, in order.
    expect(transfersWon.length).toBeLessThanOrEqual(1);
    const updates = (await webhooksOf(s.partnerId, 'ticket.updated'))
      .reverse()
      .map((u) => u.data as { oldOwnerEmail: string; newOwnerEmail: string });
    expect(updates.length).toBe(transfersWon.length + (after.status === 'FULFILLED' ? 1 : 0));
    expect(updates.length).toBeGreaterThan(0);
    updates.forEach((u, i) => expect(u.oldOwnerEmail).toBe(i ? updates[i - 1].newOwnerEmail : HOLDER));
    expect(updates.at(-1)!.newOwnerEmail).toBe(holder);
    if (after.status === 'FULFILLED') {
      expect(holder).toBe(BUYER);
      expect((await mailsOf(s.partnerId, 'ticketsDelivered')).map((x) => x.toAddress)).toEqual([BUYER]);
    } else {
      expect(after.status).toBe('PENDING_FULFILMENT');
      expect(holder).toMatch(/^friend\d+@example\.com$/);
      expect(await mailsOf(s.partnerId, 'ticketsDelivered')).toEqual([]);
    }
    // Never a 5xx: a refused fulfilment is a 409; a refused transfer a 409, or the 403 of a holder who
    // no longer holds the ticket when it starts, both with the reason the fan pages say (NOT_OWNED).
    outcomes.forEach((o, i) => {
      if (o.status === 200) return;
      if (i % 2) {
        expect([403, 409]).toContain(o.status);
        expect(o.fanReason).toBe('NOT_OWNED');
      } else expect(o.status).toBe(409);
    });
  });

  it('20 fulfilments while the ticket is being put on sale by its holder (under the ticket lock): all refused as on sale in the market', async () => {
    const s = await sold();
    // The holder's own listing of T1, taken off sale; it goes back on sale under the ticket lock below.
    const own = await createListing(
      { partnerId: s.partnerId, sellerEmail: HOLDER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    await unlist(s.partnerId, own.id, getDb());
    const [t1] = await getDb().select().from(listingItems).where(eq(listingItems.listingId, own.id));
    const outcomes = await relistUnderTicketLock(t1.ticketPk, own.id, () =>
      race(20, () => fulfil(s, s.sale.id, ['T1']), routeStatus),
    );
    expect(statuses(outcomes)).toEqual(Array(20).fill(409));
    for (const o of outcomes)
      expect(o.value!.body.errors.details).toEqual([{ path: 'ticketIds[0]', message: 'T1 is on sale in the market' }]);
    expect(await holderOf(s.partnerId, 'T1')).toBe(HOLDER);
    expect((await getDb().select().from(listings).where(eq(listings.id, own.id)))[0].status).toBe('ACTIVE');
    expect(await webhooksOf(s.partnerId, 'ticket.updated')).toEqual([]);
    expect(await mailsOf(s.partnerId, 'ticketsDelivered')).toEqual([]);
  });
});
