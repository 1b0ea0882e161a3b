import { describe, expect, it } from 'vitest';
import { PUT as detailsPut } from '@/app/v1/marketdata/events/[externalReferenceId]/inventory/details/route';
import { PUT as inventoryPut } from '@/app/v1/marketdata/events/[externalReferenceId]/inventory/route';
import { getDb } from '@/db';
import { showDirectory } from '@/server/modules/catalog';
import { apiRequest, makePartner, pushEvent, routeParams, testShow } from '@/server/testing/fixtures';
import { and, eq } from 'drizzle-orm';
import { showInventories } from './inventory';

async function put(key: string, ref: string, body: unknown, query = '') {
  const res = await inventoryPut(
    apiRequest(`/v1/marketdata/events/${ref}/inventory${query}`, { method: 'PUT', key, body }),
    routeParams({ externalReferenceId: ref }),
  );
  return { status: res.status, body: await res.json() };
}
async function putDetails(key: string, ref: string, body: unknown) {
  const res = await detailsPut(
    apiRequest(`/v1/marketdata/events/${ref}/inventory/details`, { method: 'PUT', key, body }),
    routeParams({ externalReferenceId: ref }),
  );
  return { status: res.status, body: await res.json() };
}

/** A partner with event `ref` of `shows` shows (1, 2, …), each with option GA and price type ADULT. */
async function event(shows: number, name = 'Inventory') {
  const { partner, apiKey } = await makePartner(name);
  const ref = `inv-${partner.id}`;
  await pushEvent(
    apiKey,
    ref,
    Array.from({ length: shows }, (_, i) =>
      testShow(String(i + 1), { priceTypes: [{ priceTypeId: 'ADULT', title: 'Adult' }] }),
    ),
  );
  const d = showDirectory(getDb());
  const pks = await getDb()
    .select({ showId: d.showId, showPk: d.showPk })
    .from(d)
    .where(and(eq(d.partnerId, partner.id), eq(d.eventRef, ref)));
  return { key: apiKey, ref, showPk: Object.fromEntries(pks.map((p) => [p.showId, p.showPk])) };
}

describe('PUT …/inventory', () => {
  it('stores capacity at event level and the rest on the show; answers the whole event; only what is sent changes', async () => {
    const e = await event(1);
    // One show: showId may be left out.
    const first = await put(e.key, e.ref, { capacity: 5000, releasedTickets: 4000, soldPercentage: 50 });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      externalReferenceId: e.ref,
      shows: [expect.objectContaining({ showId: '1', ticketOptions: [expect.objectContaining({ ticketId: 'GA' })] })],
      inventory: {
        capacity: 5000,
        shows: [
          { showId: '1', releasedTickets: 4000, reservedSpace: null, soldOut: null, soldPercentage: 50, details: [] },
        ],
      },
    });
    const second = await put(e.key, e.ref, { soldOut: true }, '?showId=1');
    expect(second.body.data.inventory).toEqual({
      capacity: 5000,
      shows: [
        { showId: '1', releasedTickets: 4000, reservedSpace: null, soldOut: true, soldPercentage: 50, details: [] },
      ],
    });
    expect((await showInventories([e.showPk['1']], getDb())).get(e.showPk['1'])).toMatchObject({
      primarySoldOut: true,
    });
  });

  it('requires showId when the event has several shows, and refuses bad values naming the field', async () => {
    const e = await event(2, 'Inventory shows');
    const missing = await put(e.key, e.ref, { releasedTickets: 10 });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.details).toEqual([expect.objectContaining({ path: 'showId', in: 'query' })]);
    expect((await put(e.key, e.ref, { releasedTickets: 10 }, '?showId=2')).status).toBe(200);
    const unknownShow = await put(e.key, e.ref, { releasedTickets: 10 }, '?showId=9');
    expect([unknownShow.status, unknownShow.body.errors.message]).toEqual([404, 'Show not found']);
    const unknownEvent = await put(e.key, 'nope', { releasedTickets: 10 });
    expect([unknownEvent.status, unknownEvent.body.errors.message]).toEqual([404, 'Event not found']);
    for (const [body, path] of [
      [{ soldPercentage: 101 }, 'soldPercentage'],
      [{ soldPercentage: -1 }, 'soldPercentage'],
      [{ releasedTickets: -1 }, 'releasedTickets'],
      [{ reservedSpace: 1.5 }, 'reservedSpace'],
      [{ capacity: -3 }, 'capacity'],
      [{ soldOut: 'yes' }, 'soldOut'],
    ] as const) {
      const res = await put(e.key, e.ref, body, '?showId=1');
      expect([res.status, res.body.errors.details[0].path], JSON.stringify(body)).toEqual([400, path]);
    }
    const typo = await put(e.key, e.ref, { soldout: true }, '?showId=1');
    expect(typo.status).toBe(400);
  });

  it('never touches another partner’s event', async () => {
    const a = await event(1, 'Inventory A');
    const b = await event(1, 'Inventory B');
    const res = await put(b.key, a.ref, { capacity: 1 });
    expect([res.status, res.body.errors.message]).toEqual([404, 'Event not found']);
    expect((await showInventories([a.showPk['1']], getDb())).size).toBe(0);
  });
});

describe('PUT …/inventory/details', () => {
  it('takes the array or { items }, per option, per price type or per pair', async () => {
    const e = await event(2, 'Inventory details');
    const res = await putDetails(e.key, e.ref, [
      { showId: '1', ticketOptionId: 'GA', inventory: { releasedTickets: 100 } },
      { showId: '1', priceTypeId: 'ADULT', inventory: { reservedSpace: 5 } },
      { showId: '2', ticketOptionId: 'GA', priceTypeId: 'ADULT', inventory: { soldOut: true, soldPercentage: 100 } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.inventory.shows).toEqual([
      expect.objectContaining({
        showId: '1',
        details: [
          {
            ticketOptionId: null,
            priceTypeId: 'ADULT',
            releasedTickets: null,
            reservedSpace: 5,
            soldOut: null,
            soldPercentage: null,
          },
          {
            ticketOptionId: 'GA',
            priceTypeId: null,
            releasedTickets: 100,
            reservedSpace: null,
            soldOut: null,
            soldPercentage: null,
          },
        ],
      }),
      expect.objectContaining({
        showId: '2',
        details: [
          {
            ticketOptionId: 'GA',
            priceTypeId: 'ADULT',
            releasedTickets: null,
            reservedSpace: null,
            soldOut: true,
            soldPercentage: 100,
          },
        ],
      }),
    ]);
    // `{ items }` form; only what is sent changes.
    const again = await putDetails(e.key, e.ref, {
      items: [{ showId: '1', ticketOptionId: 'GA', inventory: { soldPercentage: 40 } }],
    });
    expect(again.status).toBe(200);
    expect(again.body.data.inventory.shows[0].details[1]).toMatchObject({
      ticketOptionId: 'GA',
      releasedTickets: 100,
      soldPercentage: 40,
    });
    // Details are not the show's own inventory: the show is not sold out on primary.
    expect((await showInventories([e.showPk['2']], getDb())).size).toBe(0);
  });

  it('refuses an item with neither id, capacity, bad counts and foreign ids, naming the item; applies none', async () => {
    const e = await event(1, 'Inventory details bad');
    const neither = await putDetails(e.key, e.ref, [{ showId: '1', inventory: { releasedTickets: 1 } }]);
    expect(neither.status).toBe(400);
    expect(neither.body.errors.details[0].path).toBe('[0].ticketOptionId');
    expect(neither.body.errors.message).toContain('or priceTypeId (or both) is required');
    const capacity = await putDetails(e.key, e.ref, [
      { showId: '1', ticketOptionId: 'GA', inventory: { capacity: 1 } },
    ]);
    expect(capacity.status).toBe(400);
    expect(capacity.body.errors.message).toContain('[0].inventory.capacity is event-level only');
    const pct = await putDetails(e.key, e.ref, [
      { showId: '1', ticketOptionId: 'GA', inventory: { soldPercentage: 150 } },
    ]);
    expect(pct.body.errors.details[0].path).toBe('[0].inventory.soldPercentage');
    const noShowId = await putDetails(e.key, e.ref, [{ ticketOptionId: 'GA', inventory: {} }]);
    expect(noShowId.body.errors.details[0].path).toBe('[0].showId');
    const foreign = await putDetails(e.key, e.ref, [
      { showId: '1', ticketOptionId: 'GA', inventory: { releasedTickets: 1 } },
      { showId: '1', ticketOptionId: 'VIP', inventory: { releasedTickets: 1 } },
    ]);
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors.details).toEqual([expect.objectContaining({ path: '[1].ticketOptionId' })]);
    const ok = await put(e.key, e.ref, {});
    expect(ok.body.data.inventory.shows[0].details).toEqual([]);
    const notArray = await putDetails(e.key, e.ref, { showId: '1' });
    expect(notArray.status).toBe(400);
  });
});
