import { describe, expect, it } from 'vitest';
import { PUT as inventoryPut } from '@/app/v1/marketdata/events/[externalReferenceId]/inventory/route';
import { POST as bulkPost } from '@/app/v1/wrapper/accesslayer/bulk/route';
import { GET as accessLayerGet } from '@/app/v1/wrapper/accesslayer/route';
import { getDb } from '@/db';
import { createListing, setMarketTerms } from '@/server/modules/marketplace';
import { apiRequest, routeParams } from '@/server/testing/fixtures';
import { sellerMarket } from '@/server/testing/market';

const SELLER = 'seller@example.com';

async function get(key: string, query: string) {
  const res = await accessLayerGet(apiRequest(`/v1/wrapper/accesslayer?${query}`, { key }));
  return { status: res.status, body: await res.json() };
}
async function bulk(key: string, body: unknown, query = 'type=buy') {
  const res = await bulkPost(apiRequest(`/v1/wrapper/accesslayer/bulk?${query}`, { key, body }));
  return { status: res.status, body: await res.json() };
}
async function soldOut(key: string, ref: string) {
  const res = await inventoryPut(
    apiRequest(`/v1/marketdata/events/${ref}/inventory`, { method: 'PUT', key, body: { soldOut: true } }),
    routeParams({ externalReferenceId: ref }),
  );
  expect(res.status).toBe(200);
}

const types = (components: { type: string; class: string }[]) => components.map((c) => `${c.type}/${c.class}`);

describe('buy access layer (GET type=buy)', () => {
  it('builds the components from the show’s market: price with fees, sold out on primary, list of offers', async () => {
    const m = await sellerMarket({
      seller: SELLER,
      name: 'Buy layer',
      tickets: [{ ticketId: 'T1' }, { ticketId: 'T2' }, { ticketId: 'T3' }],
    });
    const q = `type=buy&eventId=${m.ref}&showId=1`;
    // No listings yet: a disabled button only.
    const empty = await get(m.key, q);
    expect(empty.status).toBe(200);
    expect(empty.body.errors).toEqual([]);
    expect(empty.body.data.market).toEqual({
      listings: 0,
      tickets: 0,
      lowestPrice: null,
      currency: null,
      primarySoldOut: false,
      resaleEnabled: true,
    });
    expect(empty.body.data.components).toEqual([
      {
        type: 'button',
        class: 'buyButton',
        button: { text: 'No resale tickets yet', url: empty.body.data.url, enabled: false },
      },
    ]);
    expect(empty.body.data.url).toMatch(/^http:\/\/encore\.test\/market\/evt_\w+\?show=shw_\w+&lang=en$/);

    await setMarketTerms(
      m.partnerId,
      {
        buyerFeePercent: 10,
        buyerFeeFixed: 0,
        sellerFeePercent: 0,
        sellerFeeFixed: 0,
        payoutDelayDays: 0,
      },
      getDb(),
    );
    const cheap = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 30 },
      getDb(),
    );
    await createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T2'], price: 40 }, getDb());
    await soldOut(m.key, m.ref);
    const res = await get(m.key, `${q}&lang=es`);
    expect(res.body.data.market).toEqual({
      listings: 2,
      tickets: 2,
      lowestPrice: 33,
      currency: 'EUR',
      primarySoldOut: true,
      resaleEnabled: true,
    });
    expect(types(res.body.data.components)).toEqual([
      'button/buyButton',
      'modal/soldOutModal',
      'banner/resaleBanner',
      'list/listings',
    ]);
    const [button, modal, banner, list] = res.body.data.components;
    expect(button.button).toMatchObject({ enabled: true, url: res.body.data.url });
    expect(button.button.text).toMatch(/^Comprar entradas de reventa desde 33,00\s€$/);
    expect(modal.modal).toMatchObject({ title: 'Agotado', callToAction: { enabled: true, url: res.body.data.url } });
    expect(modal.modal.description).toContain('Buy layer');
    expect(banner.banner.description).toMatch(/^2 entradas a la venta/);
    expect(list.list.items.map((i: { listingId: string; price: number }) => [i.listingId, i.price])).toEqual([
      [cheap.id, 33],
      [expect.any(String), 44],
    ]);
    expect(list.list.items[0].url).toBe(`http://encore.test/checkout?listings=${cheap.id}&lang=es`);
  });

  it('validates type, eventId and showId, and keeps partners apart', async () => {
    const m = await sellerMarket({ seller: SELLER, name: 'Buy layer checks' });
    const noType = await get(m.key, `eventId=${m.ref}&showId=1`);
    expect([noType.status, noType.body.errors.details[0].path]).toEqual([400, 'type']);
    const sell = await get(m.key, `type=sell&eventId=${m.ref}&showId=1`);
    expect([sell.status, sell.body.errors.details[0]]).toEqual([
      400,
      expect.objectContaining({ path: 'type', message: 'must be buy' }),
    ]);
    const missing = await get(m.key, 'type=buy');
    expect(missing.status).toBe(400);
    expect(missing.body.errors.details.map((d: { path: string }) => d.path)).toEqual(['eventId', 'showId']);
    const noShow = await get(m.key, `type=buy&eventId=${m.ref}&showId=9`);
    expect([noShow.status, noShow.body.errors.message]).toEqual([404, 'Show not found']);
    const other = await sellerMarket({ seller: SELLER, name: 'Buy layer other' });
    const foreign = await get(other.key, `type=buy&eventId=${m.ref}&showId=1`);
    expect([foreign.status, foreign.body.errors.message]).toEqual([404, 'Event not found']);
  });

  it('offers nothing to buy where resale is off', async () => {
    const m = await sellerMarket({ seller: SELLER, name: 'Buy layer off', show: { resaleEnabled: false } });
    const res = await get(m.key, `type=buy&eventId=${m.ref}&showId=1`);
    expect(res.body.data.market.resaleEnabled).toBe(false);
    expect(types(res.body.data.components)).toEqual(['button/buyButton']);
    expect(res.body.data.components[0].button.enabled).toBe(false);
  });
});

describe('buy access layer (POST bulk)', () => {
  it('answers button, modal and banner only, per show in order, unknown shows as found: false', async () => {
    const m = await sellerMarket({ seller: SELLER, name: 'Buy layer bulk' });
    await createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 }, getDb());
    await soldOut(m.key, m.ref);
    const res = await bulk(m.key, [
      { eventId: m.ref, showIds: ['1', '2'] },
      { eventId: 'unknown', showIds: ['1'] },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([]);
    const [one, two, three] = res.body.data;
    expect(one).toMatchObject({
      eventId: m.ref,
      showId: '1',
      found: true,
      market: { listings: 1, primarySoldOut: true },
    });
    expect(types(one.components)).toEqual(['button/buyButton', 'modal/soldOutModal', 'banner/resaleBanner']);
    expect(two).toEqual({ eventId: m.ref, showId: '2', found: false, market: null, url: null, components: [] });
    expect(three).toMatchObject({ eventId: 'unknown', found: false, components: [] });
  });

  it('validates the body and type', async () => {
    const m = await sellerMarket({ seller: SELLER, name: 'Buy layer bulk checks' });
    const noShows = await bulk(m.key, [{ eventId: m.ref, showIds: [] }]);
    expect([noShows.status, noShows.body.errors.details[0].path]).toEqual([400, '[0].showIds']);
    const notArray = await bulk(m.key, { eventId: m.ref, showIds: ['1'] });
    expect(notArray.status).toBe(400);
    const noType = await bulk(m.key, [{ eventId: m.ref, showIds: ['1'] }], '');
    expect([noType.status, noType.body.errors.details[0].path]).toEqual([400, 'type']);
  });
});
