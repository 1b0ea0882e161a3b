import { describe, expect, it } from 'vitest';
import { POST as accessLayerPost } from '@/app/v1/wrapper/accesslayer/route';
import { getDb } from '@/db';
import { redeemOneTimeToken } from '@/server/modules/fans';
import { createBuyIntention, createListing } from '@/server/modules/marketplace';
import { completeSandboxOnboarding, setUpPayoutAccount } from '@/server/modules/payments';
import { apiRequest } from '@/server/testing/fixtures';
import { sellerMarket, postRules } from '@/server/testing/market';
import { payOnSandbox } from '@/server/testing/payments';
import { aggregateOrder } from './sell';

const SELLER = 'seller@example.com';

async function call(key: string, body: unknown, query = '') {
  const res = await accessLayerPost(apiRequest(`/v1/wrapper/accesslayer${query}`, { key, body }));
  return { status: res.status, body: await res.json() };
}

/** A market with tickets T1–T4 of order O1 (T1, T2) and O2 (T3, T4), all owned by SELLER. */
async function market(name = 'Access layer') {
  return sellerMarket({
    seller: SELLER,
    name,
    tickets: [
      { ticketId: 'T1', orderId: 'O1' },
      { ticketId: 'T2', orderId: 'O1' },
      { ticketId: 'T3', orderId: 'O2' },
      { ticketId: 'T4', orderId: 'O2' },
    ],
  });
}

const item = (ref: string, ticketId: string, extra: Record<string, unknown> = {}) => ({
  eventId: ref,
  showId: '1',
  ticketId,
  ticketOptionId: 'GA',
  ...extra,
});

async function sell(partnerId: string, ticketIds: string[]) {
  const listing = await createListing({ partnerId, sellerEmail: SELLER, ticketIds, price: 40 }, getDb());
  const intention = await createBuyIntention(partnerId, { items: [listing.id], user: 'buyer@example.com' }, getDb());
  const paid = await payOnSandbox(intention.paymentUrl);
  expect(paid.status).toBe(303);
  return listing;
}

const keys = (ctas: { key: string }[]) => ctas.map((c) => c.key);

describe('sell access layer: tickets mode', () => {
  it('answers each ticket’s status with the spec’s CTAs, sync, and errors: []', async () => {
    const m = await market();
    const listed = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T2'], price: 40 },
      getDb(),
    );
    const sold = await sell(m.partnerId, ['T3']);
    const res = await call(m.key, {
      user: SELLER,
      tickets: [
        item(m.ref, 'T1'),
        item(m.ref, 'T2'),
        item(m.ref, 'T3'),
        item(m.ref, 'UNKNOWN-1'),
        item(m.ref, 'UNKNOWN-2', { showId: '2' }),
        item('no-such-event', 'T4'),
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([]);
    const byId = Object.fromEntries(res.body.data.tickets.map((t: { ticketId: string }) => [t.ticketId, t])) as Record<
      string,
      { status: string; sync: boolean; callToActions: { key: string; url: string; text: string; enabled: boolean }[] }
    >;

    expect(byId.T1).toMatchObject({ status: 'SELLABLE', sync: true, ticketOptionId: 'GA', priceTypeId: null });
    expect(keys(byId.T1.callToActions)).toEqual(['SELL']);
    expect(byId.T1.callToActions[0]).toMatchObject({ text: 'Sell', enabled: true });
    expect(byId.T1.callToActions[0].url).toMatch(/^http:\/\/encore\.test\/sell\/tkt_\w+$/);

    // Listed: EDIT and P2P (disabled: no P2P_TRANSFER rule), plus PENDING_PAYOUT_INFO (no payout account).
    expect(byId.T2.status).toBe('FOR_SALE');
    expect(keys(byId.T2.callToActions)).toEqual(['EDIT', 'P2P', 'PENDING_PAYOUT_INFO']);
    expect(byId.T2.callToActions[0].url).toBe(`http://encore.test/listing/${listed.id}`);
    expect(byId.T2.callToActions[1].enabled).toBe(false);

    expect(byId.T3.status).toBe('SOLD');
    expect(keys(byId.T3.callToActions)).toEqual(['DETAILS', 'PENDING_PAYOUT_INFO']);
    expect(byId.T3.callToActions[0].url).toBe(`http://encore.test/listing/${sold.id}`);

    // Unknown to Encore: judged by the rules, SELLABLE with sync false and a URL that synchronises first.
    expect(byId['UNKNOWN-1']).toMatchObject({ status: 'SELLABLE', sync: false });
    const syncUrl = new URL(byId['UNKNOWN-1'].callToActions[0].url);
    expect(syncUrl.pathname).toBe(`/resale/${m.partnerId}`);
    expect(Object.fromEntries(syncUrl.searchParams)).toMatchObject({
      sync: '1',
      ticketId: 'UNKNOWN-1',
      eventId: m.ref,
    });
    // A show Encore was never sent: NOT_SELLABLE, no action (rule 4).
    expect(byId['UNKNOWN-2']).toMatchObject({ status: 'NOT_SELLABLE', sync: false, callToActions: [] });
    expect(byId.T4).toMatchObject({ status: 'NOT_SELLABLE', callToActions: [] });
    expect(res.body.data.components).toEqual([]);
    expect(res.body.data.user).toBe(SELLER);
  });

  it('drops PENDING_PAYOUT_INFO once the seller’s payout account is active; P2P follows the rule', async () => {
    const m = await market('Access layer payout');
    await createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 }, getDb());
    await postRules(m.key, [{ externalReferenceEventId: m.ref, ruleType: 'P2P_TRANSFER', rules: { allowed: true } }]);
    const { account } = await setUpPayoutAccount(
      m.partnerId,
      {
        sellerEmail: SELLER,
        returnUrl: 'http://encore.test/x',
      },
      getDb(),
    );
    expect(await completeSandboxOnboarding(account.id, getDb())).toMatchObject({ status: 'active' });
    const res = await call(m.key, { user: SELLER, tickets: [item(m.ref, 'T1')] });
    expect(keys(res.body.data.tickets[0].callToActions)).toEqual(['EDIT', 'P2P']);
    expect(res.body.data.tickets[0].callToActions[1].enabled).toBe(true);
  });

  it('evaluates the rules on every call (a listing window closing makes the ticket NOT_SELLABLE at once)', async () => {
    const m = await market('Access layer window');
    const before = await call(m.key, { user: SELLER, tickets: [item(m.ref, 'T1')] });
    expect(before.body.data.tickets[0].status).toBe('SELLABLE');
    await postRules(m.key, [
      { externalReferenceEventId: m.ref, ruleType: 'LISTING_WINDOW', rules: { opensHoursBeforeShow: 24 } },
    ]);
    const after = await call(m.key, { user: SELLER, tickets: [item(m.ref, 'T1'), item(m.ref, 'NEW-1')] });
    expect(after.body.data.tickets[0]).toMatchObject({ status: 'NOT_SELLABLE', callToActions: [] });
    // A ticket Encore does not know is judged by the same rules.
    expect(after.body.data.tickets[1]).toMatchObject({ status: 'NOT_SELLABLE', sync: false, callToActions: [] });
  });

  it('translates the texts by lang and, with autologin, signs the user in with one token per URL', async () => {
    const m = await market('Access layer lang');
    await createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T2'], price: 40 }, getDb());
    const res = await call(
      m.key,
      { user: SELLER, autologin: true, tickets: [item(m.ref, 'T1'), item(m.ref, 'T2')] },
      '?lang=es',
    );
    const ctas = res.body.data.tickets.flatMap(
      (t: { callToActions: { text: string; url: string }[] }) => t.callToActions,
    );
    expect(ctas.map((c: { text: string }) => c.text)).toEqual([
      'Vender',
      'Editar publicación',
      'Transferir a otra persona',
      'Completa tus datos de cobro',
    ]);
    const tokens = ctas.map((c: { url: string }) => new URL(c.url).searchParams.get('token'));
    expect(new Set(tokens).size).toBe(4);
    expect(ctas.every((c: { url: string }) => new URL(c.url).searchParams.get('lang') === 'es')).toBe(true);
    expect(await redeemOneTimeToken(tokens[0]!, getDb())).toEqual({ partnerId: m.partnerId, email: SELLER });
    expect(await redeemOneTimeToken(tokens[0]!, getDb())).toBeNull();
    // Without autologin, no token.
    const plain = await call(m.key, { user: SELLER, tickets: [item(m.ref, 'T1')] });
    expect(new URL(plain.body.data.tickets[0].callToActions[0].url).searchParams.has('token')).toBe(false);
  });

  it('adds the seller’s sales: soldTickets flat, soldOrders grouped by order', async () => {
    const m = await market('Access layer sales');
    await sell(m.partnerId, ['T1', 'T2']);
    await sell(m.partnerId, ['T3']);
    const res = await call(m.key, {
      user: SELLER,
      includeTicketSales: true,
      includeOrderSales: true,
      tickets: [item(m.ref, 'T4')],
    });
    expect(res.body.data.soldTickets.map((s: { ticketId: string }) => s.ticketId).sort()).toEqual(['T1', 'T2', 'T3']);
    expect(res.body.data.soldTickets[0]).toMatchObject({ eventId: m.ref, showId: '1', price: 40, currency: 'EUR' });
    const orders = Object.fromEntries(
      res.body.data.soldOrders.map((o: { orderId: string; tickets: { ticketId: string }[] }) => [
        o.orderId,
        o.tickets.map((t) => t.ticketId).sort(),
      ]),
    );
    expect(orders).toEqual({ O1: ['T1', 'T2'], O2: ['T3'] });
    // Another seller sees none of them.
    const other = await call(m.key, { user: 'someone@example.com', includeTicketSales: true });
    expect(other.body.data).toEqual({ user: 'someone@example.com', soldTickets: [] });
  });
});

describe('sell access layer: modes and validation', () => {
  it('seller-only mode: no flag gives an empty 200; tickets and orders together give 400', async () => {
    const m = await market('Access layer modes');
    const empty = await call(m.key, { user: SELLER });
    expect(empty).toEqual({ status: 200, body: { status: 200, data: { user: SELLER }, errors: [] } });
    const both = await call(m.key, {
      user: SELLER,
      tickets: [item(m.ref, 'T1')],
      orders: [{ orderId: 'O1', eventId: m.ref, showId: '1', combinations: [{ ticketOptionId: 'GA' }] }],
    });
    expect(both.status).toBe(400);
    expect(both.body.errors.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'orders', message: 'tickets and orders must not be sent together' }),
      ]),
    );
    const noUser = await call(m.key, { tickets: [item(m.ref, 'T1')] });
    expect(noUser.status).toBe(400);
    expect(JSON.stringify(noUser.body.errors.details)).toContain('user');
    const noTicketId = await call(m.key, {
      user: SELLER,
      tickets: [{ eventId: m.ref, showId: '1', ticketOptionId: 'GA' }],
    });
    expect(noTicketId.status).toBe(400);
    expect(JSON.stringify(noTicketId.body.errors.details)).toContain('tickets[0].ticketId');
    const emptyTickets = await call(m.key, { user: SELLER, tickets: [] });
    expect(emptyTickets.status).toBe(400);
  });

  it('never shows one partner’s tickets, listings or sales to another', async () => {
    const a = await market('Access layer A');
    const b = await market('Access layer B');
    await sell(a.partnerId, ['T1']);
    // Partner B names A's event: unknown to B, so NOT_SELLABLE with sync false, and no sales of A.
    const res = await call(b.key, { user: SELLER, includeTicketSales: true, tickets: [item(a.ref, 'T1')] });
    expect(res.body.data.tickets[0]).toMatchObject({ status: 'NOT_SELLABLE', sync: false, callToActions: [] });
    expect(res.body.data.soldTickets).toEqual([]);
  });
});

describe('sell access layer: orders mode', () => {
  it('aggregates orders by the spec’s cascade, counting sold tickets Encore knows', async () => {
    const m = await market('Access layer orders');
    const sold = await sell(m.partnerId, ['T1', 'T2']); // O1 sold whole
    const listed = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T3'], price: 40 },
      getDb(),
    );
    const res = await call(m.key, {
      user: SELLER,
      orders: [
        // Only T3 is sent for O2... plus T4 sellable: some SELLABLE and some listed → SELLABLE + MANAGE.
        {
          orderId: 'O2',
          eventId: m.ref,
          showId: '1',
          tickets: [
            { ticketId: 'T3', ticketOptionId: 'GA' },
            { ticketId: 'T4', ticketOptionId: 'GA' },
          ],
        },
        // O1 sent with no tickets listed: its two sold tickets (one listing) count → SOLD + DETAILS.
        { orderId: 'O1', eventId: m.ref, showId: '1', combinations: [] },
        // An order unknown to Encore, all sellable by the rules → SELLABLE + SELL (sync URL).
        {
          orderId: 'O9',
          eventId: m.ref,
          showId: '1',
          combinations: [{ ticketOptionId: 'GA' }, { ticketOptionId: 'GA' }],
        },
        // An order of a show Encore never got: NOT_SELLABLE, no action.
        { orderId: 'O8', eventId: 'unknown', showId: '1', combinations: [{ ticketOptionId: 'GA' }] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([]);
    const [o2, o1, o9, o8] = res.body.data.orders;
    expect(o2).toMatchObject({ orderId: 'O2', status: 'SELLABLE' });
    expect(keys(o2.callToActions)).toEqual(['MANAGE']);
    expect(o1).toMatchObject({ orderId: 'O1', status: 'SOLD' });
    expect(o1.callToActions).toEqual([
      expect.objectContaining({ key: 'DETAILS', url: `http://encore.test/listing/${sold.id}` }),
    ]);
    expect(o9).toMatchObject({ status: 'SELLABLE' });
    expect(keys(o9.callToActions)).toEqual(['SELL']);
    expect(new URL(o9.callToActions[0].url).searchParams.get('sync')).toBe('1');
    expect(o8).toEqual({ orderId: 'O8', status: 'NOT_SELLABLE', callToActions: [] });
    // No PENDING_PAYOUT_INFO in orders mode, though the seller has no payout account.
    expect(JSON.stringify(res.body.data.orders)).not.toContain('PENDING_PAYOUT_INFO');
    expect(res.body.data.components).toEqual([]);
    // O2 with only its listed ticket sent: one listing, listed → FOR_SALE + EDIT.
    const only = await call(m.key, {
      user: SELLER,
      orders: [{ orderId: 'O2', eventId: m.ref, showId: '1', tickets: [{ ticketId: 'T3', ticketOptionId: 'GA' }] }],
    });
    expect(only.body.data.orders[0]).toMatchObject({ status: 'FOR_SALE' });
    expect(only.body.data.orders[0].callToActions).toEqual([
      expect.objectContaining({ key: 'EDIT', url: `http://encore.test/listing/${listed.id}` }),
    ]);
  });

  it('cascade, case by case and in order', () => {
    const u = (status: 'SELLABLE' | 'NOT_SELLABLE' | 'FOR_SALE' | 'SOLD', listingId: string | null = null) => ({
      status,
      listingId,
    });
    // 1. all NOT_SELLABLE
    expect(aggregateOrder([u('NOT_SELLABLE'), u('NOT_SELLABLE')])).toMatchObject({ status: 'NOT_SELLABLE', cta: null });
    expect(aggregateOrder([])).toMatchObject({ status: 'NOT_SELLABLE', cta: null });
    // 2. some SELLABLE and some listed or sold (before "all SELLABLE" and the groups)
    expect(aggregateOrder([u('SELLABLE'), u('SOLD', 'l1')])).toMatchObject({ status: 'SELLABLE', cta: 'MANAGE' });
    expect(aggregateOrder([u('SELLABLE'), u('FOR_SALE', 'l1'), u('NOT_SELLABLE')])).toMatchObject({
      status: 'SELLABLE',
      cta: 'MANAGE',
    });
    // 3. all SELLABLE
    expect(aggregateOrder([u('SELLABLE'), u('SELLABLE')])).toMatchObject({ status: 'SELLABLE', cta: 'SELL' });
    // 4. one group, some listed
    expect(aggregateOrder([u('FOR_SALE', 'l1'), u('SOLD', 'l1')])).toEqual({
      status: 'FOR_SALE',
      cta: 'EDIT',
      listingId: 'l1',
    });
    // 5. one group, all sold
    expect(aggregateOrder([u('SOLD', 'l1'), u('SOLD', 'l1')])).toEqual({
      status: 'SOLD',
      cta: 'DETAILS',
      listingId: 'l1',
    });
    // 6. different groups
    expect(aggregateOrder([u('SOLD', 'l1'), u('SOLD', 'l2')])).toMatchObject({ status: 'FOR_SALE', cta: 'MANAGE' });
    expect(aggregateOrder([u('FOR_SALE', 'l1'), u('SOLD', 'l2'), u('NOT_SELLABLE')])).toMatchObject({
      status: 'FOR_SALE',
      cta: 'MANAGE',
    });
  });
});
