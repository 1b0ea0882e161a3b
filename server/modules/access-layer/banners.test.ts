import { describe, expect, it } from 'vitest';
import { PUT as inventoryPut } from '@/app/v1/marketdata/events/[externalReferenceId]/inventory/route';
import { GET as accessLayerGet, POST as accessLayerPost } from '@/app/v1/wrapper/accesslayer/route';
import { getDb } from '@/db';
import { createListing } from '@/server/modules/marketplace';
import { createCallerFactory } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/router';
import { apiRequest, routeParams, testBanner as banner } from '@/server/testing/fixtures';
import { sellerMarket } from '@/server/testing/market';
import { bannerVisible } from './schemas';

const createCaller = createCallerFactory(appRouter);
const staff = createCaller({ staff: { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' } });
const anonymous = createCaller({ staff: null });
const SELLER = 'seller@example.com';

async function sellLayer(key: string, ref: string, tickets = ['T1']) {
  const res = await accessLayerPost(
    apiRequest('/v1/wrapper/accesslayer', {
      key,
      body: {
        user: SELLER,
        tickets: tickets.map((ticketId) => ({ eventId: ref, showId: '1', ticketId, ticketOptionId: 'GA' })),
      },
    }),
  );
  return (await res.json()).data;
}
async function buyLayer(key: string, ref: string) {
  const res = await accessLayerGet(apiRequest(`/v1/wrapper/accesslayer?type=buy&eventId=${ref}&showId=1`, { key }));
  return (await res.json()).data;
}

describe('banners', () => {
  it('visibility rules: all that are set must hold', () => {
    const none = { onlyWhenPrimarySoldOut: false, hoursBeforeShow: null, onlyForSellersWithSellable: false };
    const state = { primarySoldOut: false, hoursUntilShow: 100, hasSellableTickets: true };
    expect(bannerVisible(none, state)).toBe(true);
    expect(bannerVisible({ ...none, onlyWhenPrimarySoldOut: true }, state)).toBe(false);
    expect(bannerVisible({ ...none, onlyWhenPrimarySoldOut: true }, { ...state, primarySoldOut: true })).toBe(true);
    expect(bannerVisible({ ...none, hoursBeforeShow: 48 }, state)).toBe(false);
    expect(bannerVisible({ ...none, hoursBeforeShow: 48 }, { ...state, hoursUntilShow: 10 })).toBe(true);
    expect(bannerVisible({ ...none, hoursBeforeShow: 48 }, { ...state, hoursUntilShow: -1 })).toBe(false);
    expect(bannerVisible({ ...none, onlyForSellersWithSellable: true }, { ...state, hasSellableTickets: false })).toBe(
      false,
    );
    // The buy access layer does not know the seller: the rule does not apply there.
    expect(bannerVisible({ ...none, onlyForSellersWithSellable: true }, { ...state, hasSellableTickets: null })).toBe(
      true,
    );
  });

  it('staff configure them; the sell access layer answers them as sellBanner components', async () => {
    const m = await sellerMarket({ seller: SELLER, name: 'Banners sell' });
    await expect(anonymous.banners.list({ partnerId: m.partnerId })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const partnerWide = await staff.banners.create(banner(m.partnerId, { onlyForSellersWithSellable: true }));
    const showOnly = await staff.banners.create(
      banner(m.partnerId, {
        eventRef: m.ref,
        showId: '1',
        title: 'Sold out? Resell here',
        onlyWhenPrimarySoldOut: true,
        ctaUrl: 'https://partner.example.com/resale',
      }),
    );
    await staff.banners.create(banner(m.partnerId, { placement: 'BUY', title: 'Buyers only' }));
    await staff.banners.create(banner(m.partnerId, { title: 'Paused', active: false }));

    const data = await sellLayer(m.key, m.ref);
    expect(data.components).toEqual([
      {
        type: 'banner',
        class: 'sellBanner',
        sellBanner: {
          title: 'Sold out? Resell here',
          description: 'Official resale',
          image: 'https://cdn.example.com/b.png',
          visible: false, // the primary is not sold out
          colors: { background: '#112233', text: '#ffffff' },
          callToAction: { text: 'Sell now', url: 'https://partner.example.com/resale', enabled: true },
        },
      },
      expect.objectContaining({
        sellBanner: expect.objectContaining({
          title: 'Sell your tickets safely',
          visible: true, // T1 is sellable
          callToAction: { text: 'Sell now', url: `http://encore.test/resale/${m.partnerId}`, enabled: true },
        }),
      }),
    ]);

    // The primary sells out: the show's banner shows. T1 listed (nothing sellable): the seller rule fails.
    const res = await inventoryPut(
      apiRequest(`/v1/marketdata/events/${m.ref}/inventory`, { method: 'PUT', key: m.key, body: { soldOut: true } }),
      routeParams({ externalReferenceId: m.ref }),
    );
    expect(res.status).toBe(200);
    await createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 }, getDb());
    const after = await sellLayer(m.key, m.ref);
    expect(
      after.components.map((c: { sellBanner: { title: string; visible: boolean } }) => [
        c.sellBanner.title,
        c.sellBanner.visible,
      ]),
    ).toEqual([
      ['Sold out? Resell here', true],
      ['Sell your tickets safely', false],
    ]);

    // The buy access layer has the BUY (and BOTH) banners, after its own components.
    const buy = await buyLayer(m.key, m.ref);
    const staffBanners = buy.components.filter((c: { class: string }) => c.class === 'sellBanner');
    expect(
      staffBanners.map((c: { sellBanner: { title: string; callToAction: { url: string } } }) => c.sellBanner.title),
    ).toEqual(['Buyers only']);
    expect(staffBanners[0].sellBanner.callToAction.url).toMatch(
      /^http:\/\/encore\.test\/market\/evt_\w+\?show=shw_\w+$/,
    );

    // Edit and delete; another partner's banner is never reachable.
    await staff.banners.update({ ...banner(m.partnerId, { title: 'Renamed' }), bannerId: partnerWide.id });
    const other = await sellerMarket({ seller: SELLER, name: 'Banners other' });
    await expect(staff.banners.delete({ partnerId: other.partnerId, bannerId: showOnly.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await staff.banners.delete({ partnerId: m.partnerId, bannerId: showOnly.id });
    const list = await staff.banners.list({ partnerId: m.partnerId });
    expect(list.items.map((b) => b.title).sort()).toEqual(['Buyers only', 'Paused', 'Renamed']);
    expect((await sellLayer(other.key, other.ref)).components).toEqual([]);
  });

  it('refuses bad input naming the field', async () => {
    const m = await sellerMarket({ seller: SELLER, name: 'Banners input' });
    /** The refused fields and their messages, from zod's issues or the module's details. */
    const refused = async (extra: Record<string, unknown>) => {
      const err = await staff.banners.create(banner(m.partnerId, extra)).then(
        () => null,
        (e: unknown) =>
          e as {
            code: string;
            cause?: { issues?: { path: string[]; message: string }[]; details?: { path: string; message: string }[] };
          },
      );
      expect(err?.code).toBe('BAD_REQUEST');
      const cause = err!.cause!;
      return cause.issues
        ? Object.fromEntries(cause.issues.map((i) => [i.path.join('.'), i.message]))
        : Object.fromEntries((cause.details ?? []).map((d) => [d.path, d.message]));
    };
    expect(await refused({ backgroundColor: 'red' })).toEqual({ backgroundColor: 'must be a colour like #1a2b3c' });
    expect(await refused({ imageUrl: 'http://cdn.example.com/x.png' })).toEqual({ imageUrl: 'must be an https URL' });
    expect(await refused({ title: ' ' })).toEqual({ title: 'Enter a title' });
    expect(await refused({ hoursBeforeShow: 0 })).toEqual({ hoursBeforeShow: 'At least 1 hour' });
    expect((await refused({ eventRef: 'nope' })).eventRef).toContain('No event');
    expect((await refused({ eventRef: m.ref, showId: '7' })).showId).toContain('no show');
    expect((await refused({ showId: '1' })).eventRef).toContain('Name the event');
  });
});
