import { describe, expect, it } from 'vitest';
import { PUT as inventoryPut } from '@/app/v1/marketdata/events/[externalReferenceId]/inventory/route';
import { POST as bulkPost } from '@/app/v1/wrapper/accesslayer/bulk/route';
import { GET as accessLayerGet } from '@/app/v1/wrapper/accesslayer/route';
import { getDb, getSql } from '@/db';
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
    expect(empty.body.data.url).toMatch(/^http:\/\/encore\.test\/market\/evt_\w+\?show=shw_\w+$/);

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

  it('speaks the event country’s language when the partner names none, and links without a language', async () => {
    const m = await sellerMarket({ seller: SELLER, name: 'Buy layer France' });
    await getSql()`update events set location = '{"country": "FR"}'::jsonb where partner_id = ${m.partnerId}`;
    const q = `type=buy&eventId=${m.ref}&showId=1`;
    const french = await get(m.key, q);
    expect(french.body.data.components[0].button.text).toBe('Pas encore de billets en revente');
    // The fan's own language (remembered, browser) still comes first on the page the link opens.
    expect(new URL(french.body.data.url).searchParams.has('lang')).toBe(false);
    const german = await get(m.key, `${q}&lang=de`);
    expect(german.body.data.components[0].button.text).toBe('Noch keine Tickets im Weiterverkauf');
    expect(new URL(german.body.data.url).searchParams.get('lang')).toBe('de');
    const bulkFrench = await bulk(m.key, [{ eventId: m.ref, showIds: ['1'] }]);
    expect(bulkFrench.body.data[0].components[0].button.text).toBe('Pas encore de billets en revente');
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

describe('the map component', () => {
  const SVG =
    '<svg viewBox="0 0 300 100" xmlns="http://www.w3.org/2000/svg">' +
    '<g id="a" data-label="Grada A"><rect width="90" height="90"/></g>' +
    '<rect data-section="B" x="100" width="90" height="90" onclick="alert(1)"/>' +
    '<rect data-section="C" aria-label="Palco C" x="200" width="90" height="90"/>' +
    '<rect id="frame" width="300" height="100"/></svg>';

  it('gives each section of the event’s map its tickets on sale and from-price, and none without seating', async () => {
    const m = await sellerMarket({
      seller: SELLER,
      name: 'Map layer',
      tickets: [
        { ticketId: 'T1', orderId: 'O1', props: { seating: { section: ' A', row: '1', seat: '1' } } },
        { ticketId: 'T2', orderId: 'O1', props: { seating: { section: 'A', row: '1', seat: '2' } } },
        { ticketId: 'T3', props: { seating: { section: 'b', row: '2', seat: '1' } } },
        { ticketId: 'T4', props: { seating: { section: 'Pista', row: '3', seat: '1' } } },
        { ticketId: 'T5', props: { seating: { section: 'Frame', row: '3', seat: '2' } } },
      ],
    });
    const terms = { buyerFeePercent: 10, buyerFeeFixed: 0, sellerFeePercent: 0, sellerFeeFixed: 0, payoutDelayDays: 0 };
    await setMarketTerms(m.partnerId, terms, getDb());
    const list = (ticketIds: string[], price: number) =>
      createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds, price }, getDb());
    await list(['T1', 'T2'], 50);
    await list(['T3'], 30);
    const q = `type=buy&eventId=${m.ref}&showId=1&lang=es`;
    // No seating: no map.
    const none = await get(m.key, q);
    expect(types(none.body.data.components)).not.toContain('map/sectionMap');

    // Stored as a partner's old map could be (before maps were cleaned on write): cleaned again when read.
    await getSql()`update events set seating = ${JSON.stringify({ image: 'https://cdn.example.com/plan.png', svgCode: SVG })}::jsonb
      where partner_id = ${m.partnerId} and external_reference_id = ${m.ref}`;
    const res = await get(m.key, q);
    expect(res.status).toBe(200);
    const map = res.body.data.components.find((c: { type: string }) => c.type === 'map');
    expect(map.class).toBe('sectionMap');
    expect(map.map.visible).toBe(true);
    expect(map.map.image).toBe('https://cdn.example.com/plan.png');
    expect(map.map.svg).toContain('data-section="B"');
    expect(map.map.svg).not.toContain('onclick');
    expect(map.map.url).toBe(res.body.data.url);
    const base = res.body.data.url;
    // The SVG's sections in its order (an id counts when a ticket names it: `frame` does), then those only tickets name.
    expect(map.map.sections).toEqual([
      { sectionId: 'A', label: 'Grada A', available: 2, minPrice: 55, currency: 'EUR', url: `${base}&section=A` },
      { sectionId: 'b', label: 'b', available: 1, minPrice: 33, currency: 'EUR', url: `${base}&section=b` },
      { sectionId: 'C', label: 'Palco C', available: 0, minPrice: null, currency: null, url: `${base}&section=C` },
      {
        sectionId: 'Frame',
        label: 'Frame',
        available: 0,
        minPrice: null,
        currency: null,
        url: `${base}&section=Frame`,
      },
      {
        sectionId: 'Pista',
        label: 'Pista',
        available: 0,
        minPrice: null,
        currency: null,
        url: `${base}&section=Pista`,
      },
    ]);

    // The bulk form keeps the button, modal and banner only.
    const many = await bulk(m.key, [{ eventId: m.ref, showIds: ['1'] }]);
    expect(types(many.body.data[0].components)).not.toContain('map/sectionMap');
  });
});
