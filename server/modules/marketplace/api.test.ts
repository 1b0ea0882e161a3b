import { describe, expect, it } from 'vitest';
import { POST as buyIntentionPost } from '@/app/v1/marketplace/buyingflow/buyIntention/route';
import { GET as buyingFlowGet } from '@/app/v1/marketplace/buyingflow/url/entrypoint/route';
import { POST as checkoutPost } from '@/app/v1/marketplace/checkout/url/route';
import { GET as listedGet } from '@/app/v1/marketplace/items/events/[eventId]/listedTickets/route';
import { DELETE as removeDelete } from '@/app/v1/marketplace/items/ticket/[ticketId]/route';
import { GET as byTicketGet } from '@/app/v1/marketplace/listings/ticket/[ticketId]/route';
import { GET as orderGet } from '@/app/v1/marketplace/sellingflow/url/order/entrypoint/route';
import { GET as sellGet } from '@/app/v1/marketplace/sellingflow/url/entrypoint/route';
import { getDb } from '@/db';
import { apiRequest, makePartner, pushEvent, routeParams, testShow } from '@/server/testing/fixtures';
import { json, syncTickets } from '@/server/testing/ticket-api';
import { redeemOneTimeToken } from '@/server/modules/fans';
import { createListing } from './listings';

const SELLER = 'seller@example.com';

async function market() {
  const { partner, apiKey } = await makePartner('Market API');
  const ref = `evt/${partner.id} ü`; // partner ids may hold any character
  const date = new Date(Date.now() + 30 * 24 * 3600_000).toISOString();
  await pushEvent(apiKey, ref, [testShow('1', { date }), testShow('2', { date })]);
  const tickets = ['A', 'B', 'C'].map((ticketId, i) => ({
    externalReferenceEventId: ref,
    showId: i === 2 ? '2' : '1',
    ticketOptionId: 'GA',
    ticketId,
    buyer: SELLER,
    ticketAccess: { type: 'OTHER', locator: ticketId },
    orderId: 'ORD 1',
  }));
  expect((await syncTickets(apiKey, tickets)).status).toBe(200);
  const [a, b, c] = await Promise.all(
    ['A', 'B', 'C'].map((t) =>
      createListing({ partnerId: partner.id, sellerEmail: SELLER, ticketIds: [t], price: 40 }, getDb()),
    ),
  );
  return { partnerId: partner.id, key: apiKey, ref, a, b, c };
}

const get = (handler: typeof buyingFlowGet, key: string, path: string, params: Record<string, string> = {}) =>
  handler(apiRequest(path, { key }), routeParams(params)).then(json);

describe('marketplace API', () => {
  it('answers entry URLs with Encore ids, requires returnTo (returnURL is its synonym) and names unknown ids', async () => {
    const m = await market();
    const base = `/v1/marketplace/buyingflow/url/entrypoint?externalReferenceEventId=${encodeURIComponent(m.ref)}&showId=1`;
    const missing = await get(buyingFlowGet, m.key, base);
    expect(missing.status).toBe(400);
    expect(missing.body.errors.details).toEqual([{ path: 'returnTo', message: 'is required', in: 'query' }]);
    const ok = await get(buyingFlowGet, m.key, `${base}&returnURL=${encodeURIComponent('https://p.example/back')}`);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatch(
      /^http:\/\/encore\.test\/market\/evt_[A-Za-z0-9]+\?show=shw_[A-Za-z0-9]+&returnTo=https%3A%2F%2Fp\.example%2Fback$/,
    );
    expect(
      (await get(buyingFlowGet, m.key, `${base.replace('showId=1', 'showId=9')}&returnTo=https://x.example`)).body
        .errors.message,
    ).toBe('Show not found');
    const badReturn = await get(buyingFlowGet, m.key, `${base}&returnTo=javascript:alert(1)`);
    expect(badReturn.status).toBe(400);
    expect(badReturn.body.errors.details[0].path).toBe('returnTo');

    const trusted = await get(
      buyingFlowGet,
      m.key,
      `${base}&returnTo=https://x.example&loginTrust[withMethod]=email&loginTrust[user]=fan@example.com`,
    );
    const token = new URL(trusted.body.data).searchParams.get('token');
    expect(token).toMatch(/^ott_/);
    expect(await redeemOneTimeToken(token!, getDb())).toEqual({ partnerId: m.partnerId, email: 'fan@example.com' });
    const halfTrusted = await get(
      buyingFlowGet,
      m.key,
      `${base}&returnTo=https://x.example&loginTrust[user]=fan@example.com`,
    );
    expect([halfTrusted.status, halfTrusted.body.errors.details[0].path]).toEqual([400, 'loginTrust[user]']);
    expect(
      (await get(sellGet, m.key, '/v1/marketplace/sellingflow/url/entrypoint?ticketId=A&lang=es')).body.data,
    ).toMatch(/\/sell\/tkt_\w+\?lang=es$/);
    expect(
      (await get(orderGet, m.key, '/v1/marketplace/sellingflow/url/order/entrypoint?orderId=ORD%201')).status,
    ).toBe(200);
    const noOrder = await get(orderGet, m.key, '/v1/marketplace/sellingflow/url/order/entrypoint?orderId=nope');
    expect([noOrder.status, noOrder.body.errors.message]).toEqual([404, 'Order not found']);
  });

  it('keeps each partner to its own listings: another partner gets 404, never data', async () => {
    const m = await market();
    const other = await market();
    const theirTicket = await get(byTicketGet, other.key, '/v1/marketplace/listings/ticket/A', { ticketId: 'A' });
    expect(theirTicket.body.data.id).toBe(other.a.id);
    const foreign = await buyIntentionPost(
      apiRequest('/v1/marketplace/buyingflow/buyIntention', {
        key: m.key,
        body: { items: [other.a.id], user: 'b@example.com' },
      }),
    ).then(json);
    expect([foreign.status, foreign.body.errors.message]).toEqual([404, `Listing not found: ${other.a.id}`]);
    const listed = await get(listedGet, m.key, `/v1/marketplace/items/events/x/listedTickets`, {
      eventId: 'no-such-event',
    });
    expect([listed.status, listed.body.errors.message]).toEqual([404, 'Event not found']);
    const mine = await get(listedGet, m.key, `/v1/marketplace/items/events/x/listedTickets?showId=1`, {
      eventId: m.ref,
    });
    expect(mine.body.data.map((l: { listingId: string }) => l.listingId).sort()).toEqual([m.a.id, m.b.id].sort());
  });

  it('refuses bad bodies with the field named, mixed shows, and removing a held listing', async () => {
    const m = await market();
    const post = (body: unknown) =>
      buyIntentionPost(apiRequest('/v1/marketplace/buyingflow/buyIntention', { key: m.key, body })).then(json);
    const badUser = await post({ items: [m.a.id], user: 'not-an-email' });
    expect([badUser.status, badUser.body.errors.details[0].path]).toEqual([400, 'user']);
    const empty = await post({ items: [], user: 'b@example.com' });
    expect([empty.status, empty.body.errors.details[0].path]).toEqual([400, 'items']);
    const mixed = await checkoutPost(
      apiRequest('/v1/marketplace/checkout/url', { key: m.key, body: { listingIds: [m.a.id, m.c.id] } }),
    ).then(json);
    expect([mixed.status, mixed.body.errors.details[0].path]).toEqual([400, 'listingIds']);

    const held = await post({ items: [m.a.id], user: 'b@example.com' });
    expect(held.status).toBe(200);
    expect(held.body.data).toMatchObject({ status: 'PENDING', items: [m.a.id], total: 40 });
    const remove = (ticketId: string) =>
      removeDelete(
        apiRequest(`/v1/marketplace/items/ticket/${ticketId}`, { key: m.key, method: 'DELETE' }),
        routeParams({ ticketId }),
      ).then(json);
    expect((await remove('A')).status).toBe(409);
    const removed = await remove('B');
    expect([removed.status, removed.body.data.status]).toEqual([200, 'UNLISTED']);
    expect((await remove('B')).status).toBe(404);
  });
});
