import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { getDb, getSql } from '@/db';
import { channelHubForFile } from '@/server/testing/channel-hub';
import { POST as cancelPost } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { GET as accessLayerGet } from '@/app/v1/wrapper/accesslayer/route';
import { GET as listedGet } from '@/app/v1/marketplace/items/events/[eventId]/listedTickets/route';
import { POST as intentionPost } from '@/app/v1/marketplace/buyingflow/buyIntention/route';
import { PUT as onePut } from '@/app/v1/channels/listings/[listingId]/route';
import { GET as oneGet } from '@/app/v1/channels/listings/[listingId]/route';
import { GET as salesGet } from '@/app/v1/channels/sales/route';
import { GET as saleGet } from '@/app/v1/channels/sales/[saleId]/route';
import { POST as fulfilPost } from '@/app/v1/channels/sales/[saleId]/fulfilment/route';
import { channelSales, mails, payouts, refunds, tickets } from '@/db/schema';
import { channelSeller, createBuyIntention, refundPurchaseJob } from '@/server/modules/marketplace';
import { buyerIntention } from '@/server/modules/fan-pages';
import { createApiKey, createChannel, getChannel, setChannelDisabled, updateChannel } from '@/server/modules/partners';
import { setPartnerProtection } from '@/server/modules/protection';
import { ticketsForSale } from '@/server/modules/tickets';
import { dispatchDue, listMessages } from '@/server/modules/webhooks';
import { callRoute } from '@/server/testing/fixtures';
import { sellerMarket } from '@/server/testing/market';
import { payOnSandbox } from '@/server/testing/payments';
import { channelListingCounts } from './listings';
import { refundUnfulfilledSales } from './sales';

const HOLDER = 'holder@example.com';
const BUYER = 'buyer@example.com';

const harness = channelHubForFile();
const { channelIds } = harness;

const call = callRoute;

/** A partner (tickets T1–T4 of show 1, option GA at 40 EUR, held by the channel's customer) and a channel with a webhook URL. */
async function setUp(name: string) {
  const m = await sellerMarket({
    seller: HOLDER,
    name,
    tickets: [
      { ticketId: 'T1' },
      { ticketId: 'T2' },
      { ticketId: 'T3' },
      { ticketId: 'T4' },
      { ticketId: 'V1', ticketOptionId: 'GA', priceTypeId: undefined },
    ],
  });
  const channel = await createChannel({ partnerId: m.partnerId, name: 'Resale Hub' }, getDb());
  channelIds.push(channel.id);
  await updateChannel(
    {
      partnerId: m.partnerId,
      channelId: channel.id,
      name: 'Resale Hub',
      webhookUrl: harness.hub.url,
    },
    getDb(),
  );
  const { secret } = await createApiKey({ partnerId: m.partnerId, kind: 'channels', channelId: channel.id }, getDb());
  return { ...m, channel, channelKey: secret };
}

const put = (key: string, id: string, body: unknown) =>
  call(onePut, `/v1/channels/listings/${id}`, key, { method: 'PUT', body, params: { listingId: id } });

async function listed(key: string) {
  const res = await call(listedGet, '/v1/marketplace/items/events/x/listedTickets', key, { params: { eventId: 'x' } });
  return res;
}

/** Buys market listings as a fan would: a buy intention through the partner API, then the sandbox card. */
async function buy(key: string, items: string[]) {
  const res = await call(intentionPost, '/v1/marketplace/buyingflow/buyIntention', key, {
    method: 'POST',
    body: { items, user: BUYER },
  });
  expect(res.status).toBe(200);
  const paid = await payOnSandbox(res.body.data.paymentUrl);
  expect(paid.status).toBe(303);
  return res.body.data;
}

describe('channel listings in the market', () => {
  it('bought from a Spanish page, are delivered with a Spanish mail (the buy intention’s language)', async () => {
    const s = await setUp('Channel sale es');
    const seats = [{ ticketId: 'T1', section: 'A', row: '1', seat: '1' }];
    const whole = { eventId: s.ref, showId: '1', ticketOptionId: 'GA', price: 45, currency: 'EUR', soldWhole: true };
    expect((await put(s.channelKey, 'ES', { ...whole, seats })).status).toBe(200);
    const market = await call(listedGet, `/v1/marketplace/items/events/${s.ref}/listedTickets`, s.key, {
      params: { eventId: s.ref },
    });
    const [row] = market.body.data as { listingId: string }[];
    const intention = await createBuyIntention(
      s.partnerId,
      { items: [row.listingId], user: BUYER, locale: 'es' },
      getDb(),
    );
    expect((await payOnSandbox(intention.paymentUrl)).status).toBe(303);
    const [sale] = await getDb().select().from(channelSales).where(eq(channelSales.channelId, s.channel.id));
    const done = await call(fulfilPost, `/v1/channels/sales/${sale.id}/fulfilment`, s.channelKey, {
      method: 'POST',
      body: { ticketIds: ['T1'] },
      params: { saleId: sale.id },
    });
    expect(done.status).toBe(200);
    const toBuyer = await getDb()
      .select()
      .from(mails)
      .where(and(eq(mails.partnerId, s.partnerId), eq(mails.toAddress, BUYER)));
    expect(toBuyer.map((m) => [m.kind, m.locale, m.subject]).sort()).toEqual([
      ['purchaseConfirmation', 'es', `Tus entradas para ${s.ref}`],
      ['ticketsDelivered', 'es', `Ya tienes tus entradas para ${s.ref}`],
    ]);
    expect(toBuyer.find((m) => m.kind === 'ticketsDelivered')!.textBody).toContain('Tu entrada:');
  });

  it('are bought through the buying flow, told to the channel signed, fulfilled with the partner’s tickets', async () => {
    const s = await setUp('Channel sales');
    const listedBefore = await call(listedGet, `/v1/marketplace/items/events/${s.ref}/listedTickets`, s.key, {
      params: { eventId: s.ref },
    });
    expect(listedBefore.body.data).toEqual([]);
    const whole = { eventId: s.ref, showId: '1', ticketOptionId: 'GA', price: 45, currency: 'EUR', soldWhole: true };
    expect(
      (
        await put(s.channelKey, 'PAIR', {
          ...whole,
          seats: [
            { ticketId: 'T1', section: 'A', row: '1', seat: '1' },
            { ticketId: 'T2', section: 'A', row: '1', seat: '2' },
          ],
        })
      ).status,
    ).toBe(200);
    expect((await put(s.channelKey, 'SPLIT', { ...whole, soldWhole: false, quantity: 2, price: 44 })).status).toBe(200);

    // Beside fans' listings, marked with their source: the pair whole, the split one as two singles.
    const market = await call(listedGet, `/v1/marketplace/items/events/${s.ref}/listedTickets`, s.key, {
      params: { eventId: s.ref },
    });
    const rows = market.body.data as {
      listingId: string;
      type: string;
      ticketCount: number;
      source: string;
      price: number;
      seats: unknown[];
    }[];
    expect(rows.map((r) => [r.type, r.ticketCount, r.price, r.source])).toEqual([
      ['SINGLE', 1, 44, 'CHANNEL'],
      ['SINGLE', 1, 44, 'CHANNEL'],
      ['PACK', 2, 45, 'CHANNEL'],
    ]);
    expect(rows[2].seats).toEqual([
      { ticketId: 'T1', section: 'A', row: '1', seat: '1' },
      { ticketId: 'T2', section: 'A', row: '1', seat: '2' },
    ]);

    // One buyer holds the pair: a second intention on it is refused, the channel cannot change it.
    const intention = await call(intentionPost, '/v1/marketplace/buyingflow/buyIntention', s.key, {
      method: 'POST',
      body: { items: [rows[2].listingId], user: BUYER },
    });
    expect(intention.status).toBe(200);
    const second = await call(intentionPost, '/v1/marketplace/buyingflow/buyIntention', s.key, {
      method: 'POST',
      body: { items: [rows[2].listingId], user: 'other@example.com' },
    });
    expect(second.status).toBe(409);
    const held = await put(s.channelKey, 'PAIR', { ...whole, quantity: 2, price: 40 });
    expect(held.status).toBe(409);
    const view = await call(oneGet, '/v1/channels/listings/PAIR', s.channelKey, { params: { listingId: 'PAIR' } });
    expect(view.body.data).toMatchObject({ status: 'RESERVED', quantitySold: 0 });

    expect((await payOnSandbox(intention.body.data.paymentUrl)).status).toBe(303);
    const sold = await call(oneGet, '/v1/channels/listings/PAIR', s.channelKey, { params: { listingId: 'PAIR' } });
    expect(sold.body.data).toMatchObject({ status: 'SOLD', quantitySold: 2 });
    // The staff's counts per state read the same states.
    expect((await channelListingCounts(s.partnerId, getDb())).get(s.channel.id)).toEqual({ SOLD: 1, ACTIVE: 1 });

    // The channel hears of it, signed with its own secret.
    await dispatchDue(getSql(), { now: new Date(Date.now() + 1000) });
    const req = harness.hub.requests.find((r) => r.body.includes('channelListing.sold') && r.body.includes(s.ref))!;
    expect(req).toBeDefined();
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(req.headers[h])]),
    );
    const { signingSecret } = await getChannel(s.partnerId, s.channel.id, getDb());
    const message = new Webhook(signingSecret).verify(req.body, headers) as {
      action: string;
      data: Record<string, unknown>;
    };
    expect(message.action).toBe('channelListing.sold');
    expect(message.data).toMatchObject({
      status: 'PENDING_FULFILMENT',
      listingId: 'PAIR',
      quantity: 2,
      buyerEmail: BUYER,
      currency: 'EUR',
      price: 45,
      amount: 90,
      seats: [
        { ticketId: 'T1', section: 'A', row: '1', seat: '1' },
        { ticketId: 'T2', section: 'A', row: '1', seat: '2' },
      ],
    });
    const saleId = message.data.saleId as string;
    const fulfilBy = new Date(message.data.fulfilBy as string).getTime();
    expect(fulfilBy).toBeGreaterThan(Date.now() + 23 * 3600_000);
    // The buyer's confirmation says the tickets are on their way.
    const confirmation = await getDb()
      .select()
      .from(mails)
      .where(and(eq(mails.partnerId, s.partnerId), eq(mails.toAddress, BUYER), eq(mails.kind, 'purchaseConfirmation')));
    expect(confirmation[0].textBody).toContain('2 tickets come from a partner resale platform');
    // Its guarantee claims no ownership check at payment (a channel's tickets come at fulfilment).
    expect(confirmation[0].textBody).toContain('Tickets from a partner resale platform reach you once');
    expect(confirmation[0].textBody).not.toContain('still holds the ticket');
    // Nothing was mailed to the channel's seller marker.
    expect(
      await getDb()
        .select()
        .from(mails)
        .where(eq(mails.toAddress, channelSeller(s.channel.id))),
    ).toEqual([]);

    // No face value on the channel's payout until its tickets are known.
    const [unfulfilled] = await getDb()
      .select()
      .from(payouts)
      .where(eq(payouts.sellerEmail, channelSeller(s.channel.id)));
    expect(unfulfilled.faceMinor).toBeNull();

    // Fulfilment: exactly the tickets of the sale, named by the listing.
    const fulfil = (body: unknown, key = s.channelKey) =>
      call(fulfilPost, `/v1/channels/sales/${saleId}/fulfilment`, key, { method: 'POST', body, params: { saleId } });
    expect((await fulfil({ ticketIds: ['T1'] })).body.errors.details[0]).toMatchObject({ path: 'ticketIds' });
    const unknown = await fulfil({ ticketIds: ['T1', 'NOPE'] });
    expect(unknown).toMatchObject({ status: 404, body: { errors: { message: 'Ticket not found: NOPE' } } });
    const others = await fulfil({ ticketIds: ['T1', 'T3'] });
    expect(others.status).toBe(409);
    expect(others.body.errors.details).toEqual([
      { path: 'ticketIds[1]', message: 'T3 is not one of the tickets the listing named' },
    ]);
    // The buyer's order page: the listing is the channel's, its tickets still on their way.
    const before = (await buyerIntention(intention.body.data.id, getDb()))!;
    expect(before.listings.map((l) => [l.fromChannel, l.ticketCount])).toEqual([[true, 2]]);
    expect(before.tickets).toEqual([]);
    const done = await fulfil({ ticketIds: ['T1', 'T2'] });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ status: 'FULFILLED', ticketIds: ['T1', 'T2'] });
    expect((await ticketsForSale(s.partnerId, ['T1', 'T2'], getDb())).map((t) => t.buyerEmail)).toEqual([BUYER, BUYER]);
    // The partner is told of each new owner; the buyer gets the links.
    const partnerLog = await listMessages({ partnerId: s.partnerId, action: 'ticket.updated' }, getDb());
    expect(
      partnerLog.items.map((m) => m.data).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    ).toEqual([
      { id: 'T1', newOwnerEmail: BUYER, oldOwnerEmail: HOLDER },
      { id: 'T2', newOwnerEmail: BUYER, oldOwnerEmail: HOLDER },
    ]);
    const delivered = await getDb()
      .select()
      .from(mails)
      .where(and(eq(mails.partnerId, s.partnerId), eq(mails.toAddress, BUYER), eq(mails.kind, 'ticketsDelivered')));
    expect(delivered[0].textBody).toMatch(/Your 2 tickets:/);
    expect(delivered[0].textBody.match(/\/t\/[0-9a-f]{64}/g)).toHaveLength(2);
    // Now the order page links them.
    expect((await buyerIntention(intention.body.data.id, getDb()))!.tickets.map((t) => t.ticketId)).toEqual([
      'T1',
      'T2',
    ]);
    // Again with the same tickets: the same answer; other tickets: 409.
    expect((await fulfil({ ticketIds: ['T2', 'T1'] })).body.data.status).toBe('FULFILLED');
    expect((await fulfil({ ticketIds: ['T3', 'T4'] })).status).toBe(409);
    // The channel's payout is scheduled like a fan seller's.
    const [payout] = await getDb()
      .select()
      .from(payouts)
      .where(eq(payouts.sellerEmail, channelSeller(s.channel.id)));
    expect(payout).toMatchObject({ status: 'SCHEDULED', amountMinor: 9000, currency: 'EUR' });
    // Its split as recorded at the sale and at the hand-over: price = payout + seller fee + partner fee.
    expect(payout.grossMinor).toBe(payout.amountMinor + payout.sellerFeeMinor! + payout.partnerFeeMinor!);
    // And the face value of the tickets handed over: T1 and T2, 40.00 each.
    expect(payout.faceMinor).toBe(2 * 4000);

    const page = await call(salesGet, '/v1/channels/sales?status=FULFILLED', s.channelKey);
    expect(page.body.data).toMatchObject({ total: 1, items: [{ saleId, listingId: 'PAIR', status: 'FULFILLED' }] });

    // Another partner's channel, and another channel of this partner, see nothing of it.
    const other = await setUp('Other partner');
    expect((await call(saleGet, `/v1/channels/sales/${saleId}`, other.channelKey, { params: { saleId } })).status).toBe(
      404,
    );
    expect((await fulfil({ ticketIds: ['T1', 'T2'] }, other.channelKey)).status).toBe(404);
    const second2 = await createChannel({ partnerId: s.partnerId, name: 'Second' }, getDb());
    const { secret } = await createApiKey({ partnerId: s.partnerId, kind: 'channels', channelId: second2.id }, getDb());
    expect((await call(salesGet, '/v1/channels/sales', secret)).body.data.total).toBe(0);
    // A partner key cannot fulfil; a channels key cannot buy.
    expect((await fulfil({ ticketIds: ['T1', 'T2'] }, s.key)).status).toBe(403);
  });

  it('an unfulfilled sale past its deadline is refunded in part and reported; a disabled channel leaves the market', async () => {
    const s = await setUp('Channel refunds');
    const body = { eventId: s.ref, showId: '1', ticketOptionId: 'GA', price: 44, currency: 'EUR', quantity: 2 };
    expect((await put(s.channelKey, 'SPLIT', body)).status).toBe(200);
    const market = await listed(s.key);
    void market;
    const rows = (
      await call(listedGet, `/v1/marketplace/items/events/${s.ref}/listedTickets`, s.key, {
        params: { eventId: s.ref },
      })
    ).body.data as { listingId: string }[];
    const intention = await buy(s.key, [rows[0].listingId]);
    const view = await call(oneGet, '/v1/channels/listings/SPLIT', s.channelKey, { params: { listingId: 'SPLIT' } });
    expect(view.body.data).toMatchObject({ status: 'ACTIVE', quantitySold: 1 });
    // Partly sold: it cannot change any more.
    expect((await put(s.channelKey, 'SPLIT', { ...body, price: 43 })).status).toBe(409);

    const [sale] = await getDb().select().from(channelSales).where(eq(channelSales.channelId, s.channel.id));
    expect(await refundUnfulfilledSales(undefined, getDb())).toBe(0);
    await getDb()
      .update(channelSales)
      .set({ fulfilBy: new Date(Date.now() - 1000) })
      .where(eq(channelSales.id, sale.id));
    expect(await refundUnfulfilledSales({ saleId: sale.id }, getDb())).toBe(1);
    expect(await refundUnfulfilledSales({ saleId: sale.id }, getDb())).toBe(0);
    const after = await call(saleGet, `/v1/channels/sales/${sale.id}`, s.channelKey, { params: { saleId: sale.id } });
    expect(after.body.data).toMatchObject({ status: 'REFUNDED' });
    expect((await getDb().select().from(payouts).where(eq(payouts.listingId, sale.listingId)))[0].status).toBe(
      'CANCELLED',
    );
    // The buyer gets back what they paid for that part, once, however often the job runs.
    const job = harness.jobs.sent.filter((j) => j.name === 'marketplace.refundPurchase').at(-1)!;
    expect(job.input).toMatchObject({ amountMinor: intention.total * 100, refundId: `rfd_${sale.id}` });
    const ctx = { provider: 'local' as const, attempt: 1 };
    await refundPurchaseJob.run(refundPurchaseJob.input.parse(job.input), ctx);
    await refundPurchaseJob.run(refundPurchaseJob.input.parse(job.input), ctx);
    const made = await getDb()
      .select()
      .from(refunds)
      .where(eq(refunds.id, `rfd_${sale.id}`));
    expect(made).toMatchObject([{ amountMinor: 4400, status: 'succeeded' }]);
    // The buyer's order page says so.
    expect((await buyerIntention(intention.id, getDb()))!.listings[0]).toMatchObject({
      fromChannel: true,
      status: 'CANCELLED',
    });
    const fulfilLate = await call(fulfilPost, `/v1/channels/sales/${sale.id}/fulfilment`, s.channelKey, {
      method: 'POST',
      body: { ticketIds: ['T3'] },
      params: { saleId: sale.id },
    });
    expect(fulfilLate.status).toBe(409);
    // The channel is told.
    const log = await listMessages(
      { partnerId: s.partnerId, channelId: s.channel.id, action: 'channelSale.refunded' },
      getDb(),
    );
    expect(log.items).toHaveLength(1);
    expect(log.items[0].data).toMatchObject({ saleId: sale.id, status: 'REFUNDED' });

    // Disabled, the channel's listings leave the market.
    await setChannelDisabled({ partnerId: s.partnerId, channelId: s.channel.id, disabled: true }, getDb());
    const gone = await call(listedGet, `/v1/marketplace/items/events/${s.ref}/listedTickets`, s.key, {
      params: { eventId: s.ref },
    });
    expect(gone.body.data).toEqual([]);
  });

  it('hold like fans’ listings: of 50 buyers at once exactly one gets a channel’s listing; the buy access layer lists it', async () => {
    const s = await setUp('Channel rush');
    const body = {
      eventId: s.ref,
      showId: '1',
      ticketOptionId: 'GA',
      price: 44,
      currency: 'EUR',
      quantity: 2,
      soldWhole: true,
    };
    expect((await put(s.channelKey, 'RUSH', body)).status).toBe(200);
    const layer = await call(accessLayerGet, `/v1/wrapper/accesslayer?type=buy&eventId=${s.ref}&showId=1`, s.key);
    const list = (layer.body.data.components as { type: string; list?: { items: Record<string, unknown>[] } }[]).find(
      (c) => c.type === 'list',
    )!;
    expect(list.list!.items).toEqual([expect.objectContaining({ quantity: 2, source: 'CHANNEL' })]);
    const listingId = list.list!.items[0].listingId as string;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(intentionPost, '/v1/marketplace/buyingflow/buyIntention', s.key, {
          method: 'POST',
          body: { items: [listingId], user: `rush${i}@example.com` },
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(49);
    const view = await call(oneGet, '/v1/channels/listings/RUSH', s.channelKey, { params: { listingId: 'RUSH' } });
    expect(view.body.data.status).toBe('RESERVED');
  });

  it('a cancelled show closes its channel sales as refunded (the buyer is refunded in full by the market) and tells the channel', async () => {
    const s = await setUp('Channel cancel');
    const body = { eventId: s.ref, showId: '1', ticketOptionId: 'GA', price: 44, currency: 'EUR', quantity: 1 };
    expect((await put(s.channelKey, 'C1', body)).status).toBe(200);
    const [row] = (
      await call(listedGet, `/v1/marketplace/items/events/${s.ref}/listedTickets`, s.key, {
        params: { eventId: s.ref },
      })
    ).body.data as { listingId: string }[];
    await buy(s.key, [row.listingId]);
    const cancelled = await call(cancelPost, `/v1/events/${s.ref}/cancellation`, s.key, {
      method: 'POST',
      params: { externalReferenceId: s.ref },
    });
    expect(cancelled.status).toBe(200);
    const [sale] = await getDb().select().from(channelSales).where(eq(channelSales.channelId, s.channel.id));
    expect(sale.status).toBe('REFUNDED');
    const log = await listMessages(
      { partnerId: s.partnerId, channelId: s.channel.id, action: 'channelSale.refunded' },
      getDb(),
    );
    expect(log.items.map((m) => (m.data as { reason: string }).reason)).toEqual([
      'The show was cancelled; the buyer was refunded',
    ]);
    // Its deadline refunds nothing more.
    await getDb()
      .update(channelSales)
      .set({ fulfilBy: new Date(Date.now() - 1000) })
      .where(eq(channelSales.id, sale.id));
    expect(await refundUnfulfilledSales({ saleId: sale.id }, getDb())).toBe(0);
    const view = await call(oneGet, '/v1/channels/listings/C1', s.channelKey, { params: { listingId: 'C1' } });
    expect(view.body.data.status).toBe('SOLD');
  });

  it('a ticket whose code its holder has seen is refused in a listing’s seats and in fulfilment while the partner does not reissue; accepted with reissue', async () => {
    const s = await setUp('Channel code revealed');
    // The holder was shown T1's code (the secure view records it; code-revealed.test.ts tests that part).
    await getDb()
      .update(tickets)
      .set({ codeShownAt: new Date() })
      .where(and(eq(tickets.partnerId, s.partnerId), eq(tickets.ticketId, 'T1')));
    const body = { eventId: s.ref, showId: '1', ticketOptionId: 'GA', price: 44, currency: 'EUR', soldWhole: false };
    const named = await put(s.channelKey, 'NAMED', { ...body, seats: [{ ticketId: 'T1', section: 'A' }] });
    expect(named.status).toBe(409);
    expect(named.body.errors.details).toEqual([
      expect.objectContaining({ path: 'seats', message: expect.stringMatching(/^CODE_REVEALED: ticket T1/) }),
    ]);

    expect((await put(s.channelKey, 'ANY', { ...body, quantity: 1 })).status).toBe(200);
    const [row] = (
      await call(listedGet, `/v1/marketplace/items/events/${s.ref}/listedTickets`, s.key, {
        params: { eventId: s.ref },
      })
    ).body.data as { listingId: string }[];
    await buy(s.key, [row.listingId]);
    const [sale] = await getDb().select().from(channelSales).where(eq(channelSales.channelId, s.channel.id));
    const fulfil = (ticketIds: string[]) =>
      call(fulfilPost, `/v1/channels/sales/${sale.id}/fulfilment`, s.channelKey, {
        method: 'POST',
        body: { ticketIds },
        params: { saleId: sale.id },
      });
    const refused = await fulfil(['T1']);
    expect(refused.status).toBe(409);
    expect(refused.body.errors.details).toEqual([
      {
        path: 'ticketIds[0]',
        message: 'T1 has a code already shown to its holder, and the partner does not issue a new code after a resale',
      },
    ]);
    expect((await fulfil(['T2'])).status).toBe(200);

    await setPartnerProtection({ partnerId: s.partnerId, unlockHours: 3, reissue: true }, 'staff@encore.test', getDb());
    expect((await put(s.channelKey, 'NAMED', { ...body, seats: [{ ticketId: 'T1', section: 'A' }] })).status).toBe(200);
  });

  it('hands a ticket to one channel sale only: 20 fulfilments of 20 sales naming it at once give one 200 and 19 clear 409s', async () => {
    const s = await setUp('Channel fulfil race');
    const body = { eventId: s.ref, showId: '1', ticketOptionId: 'GA', price: 44, currency: 'EUR', quantity: 20 };
    expect((await put(s.channelKey, 'MANY', { ...body, soldWhole: false })).status).toBe(200);
    const rows = (
      await call(listedGet, `/v1/marketplace/items/events/${s.ref}/listedTickets`, s.key, {
        params: { eventId: s.ref },
      })
    ).body.data as { listingId: string }[];
    expect(rows).toHaveLength(20);
    // Twenty buyers, one single each: twenty sales waiting for their ticket.
    for (const [i, row] of rows.entries()) {
      const res = await call(intentionPost, '/v1/marketplace/buyingflow/buyIntention', s.key, {
        method: 'POST',
        body: { items: [row.listingId], user: `race-buyer-${i}@example.com` },
      });
      expect(res.status).toBe(200);
      expect((await payOnSandbox(res.body.data.paymentUrl)).status).toBe(303);
    }
    const sales = await getDb().select().from(channelSales).where(eq(channelSales.channelId, s.channel.id));
    expect(sales).toHaveLength(20);

    const answers = await Promise.all(
      sales.map((sale) =>
        call(fulfilPost, `/v1/channels/sales/${sale.id}/fulfilment`, s.channelKey, {
          method: 'POST',
          body: { ticketIds: ['T1'] },
          params: { saleId: sale.id },
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.body.errors.details).toEqual([
        { path: 'ticketIds[0]', message: 'T1 was already handed over by another channel sale' },
      ]);
    }
    const after = await getDb().select().from(channelSales).where(eq(channelSales.channelId, s.channel.id));
    const fulfilled = after.filter((sale) => sale.status === 'FULFILLED');
    expect(fulfilled).toHaveLength(1);
    expect(after.filter((sale) => sale.status === 'PENDING_FULFILMENT')).toHaveLength(19);
    // One new holder, one ticket.updated, one delivery mail.
    const [t1] = await ticketsForSale(s.partnerId, ['T1'], getDb());
    expect(t1.buyerEmail).toBe(fulfilled[0].buyerEmail);
    const updates = await listMessages({ partnerId: s.partnerId, action: 'ticket.updated' }, getDb());
    expect(updates.items.filter((m) => (m.data as { id: string }).id === 'T1')).toHaveLength(1);
    const delivered = await getDb()
      .select()
      .from(mails)
      .where(and(eq(mails.partnerId, s.partnerId), eq(mails.kind, 'ticketsDelivered')));
    expect(delivered.map((m) => m.toAddress)).toEqual([fulfilled[0].buyerEmail]);

    // Late, alone: the same ticket for another sale is refused the same way; another ticket still goes.
    const late = after.find((sale) => sale.status === 'PENDING_FULFILMENT')!;
    const again = await call(fulfilPost, `/v1/channels/sales/${late.id}/fulfilment`, s.channelKey, {
      method: 'POST',
      body: { ticketIds: ['T1'] },
      params: { saleId: late.id },
    });
    expect(again.status).toBe(409);
    const other = await call(fulfilPost, `/v1/channels/sales/${late.id}/fulfilment`, s.channelKey, {
      method: 'POST',
      body: { ticketIds: ['T3'] },
      params: { saleId: late.id },
    });
    expect(other.status).toBe(200);
  });
});
