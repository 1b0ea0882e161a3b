import { afterEach, describe, expect, it } from 'vitest';
import { GET as buyingFlowGet } from '@/app/v1/marketplace/buyingflow/url/entrypoint/route';
import { GET as orderSellingFlowGet } from '@/app/v1/marketplace/sellingflow/url/order/entrypoint/route';
import { GET as sellingFlowGet } from '@/app/v1/marketplace/sellingflow/url/entrypoint/route';
import { getDb } from '@/db';
import { resetEnvCache } from '@/server/env';
import { AppError } from '@/server/lib/errors';
import { getPartner, setPartnerReturnOrigins } from '@/server/modules/partners';
import { apiRequest, makePartner, pushEvent, routeParams, testShow } from '@/server/testing/fixtures';
import { json, syncTickets } from '@/server/testing/ticket-api';
import { createCallerFactory } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/router';
import { framingOriginsOf, sellingFlowUrl } from '@/server/modules/fan-pages';

const staff = createCallerFactory(appRouter)({
  staff: { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' },
});

/** A partner with one event (show 1) and one ticket; the paths of its three embeddable pages. */
async function partnerWithPages(name: string) {
  const { partner, apiKey } = await makePartner(name);
  await pushEvent(apiKey, 'E1', [testShow('1')]);
  const ticket = { externalReferenceEventId: 'E1', showId: '1', ticketOptionId: 'GA', ticketId: 'T1' };
  expect(
    (
      await syncTickets(apiKey, [
        { ...ticket, buyer: 'fan@example.com', orderId: 'O1', ticketAccess: { type: 'OTHER', locator: 'T1' } },
      ])
    ).status,
  ).toBe(200);
  const entry = await buyingFlowUrl(apiKey, 'returnTo', 'https://anywhere.example/');
  const market = new URL(entry.body.data).pathname;
  const sell = new URL(await sellingFlowUrl(partner.id, { ticketId: 'T1' }, getDb())).pathname;
  return { partnerId: partner.id, apiKey, pages: [market, sell, `/resale/${partner.id}`] };
}

function buyingFlowUrl(key: string, field: 'returnTo' | 'returnURL', returnTo: string) {
  const q = new URLSearchParams({ externalReferenceEventId: 'E1', showId: '1', [field]: returnTo });
  return buyingFlowGet(apiRequest(`/v1/marketplace/buyingflow/url/entrypoint?${q}`, { key }), routeParams({})).then(
    json,
  );
}

/** The selling entrypoints (one ticket, T1; or order O1) with these query parameters. */
function sellingUrls(key: string, params: Record<string, string>) {
  const one = new URLSearchParams({ ticketId: 'T1', ...params });
  const order = new URLSearchParams({ orderId: 'O1', ...params });
  return Promise.all([
    sellingFlowGet(apiRequest(`/v1/marketplace/sellingflow/url/entrypoint?${one}`, { key }), routeParams({})).then(
      json,
    ),
    orderSellingFlowGet(
      apiRequest(`/v1/marketplace/sellingflow/url/order/entrypoint?${order}`, { key }),
      routeParams({}),
    ).then(json),
  ]);
}

afterEach(() => {
  delete process.env.ALLOW_PRIVATE_PARTNER_URLS;
  resetEnvCache();
});

describe("a partner's allowed return origins", () => {
  it('are set by staff, normalised and deduplicated; a bad one is a 400 naming returnOrigins', async () => {
    const { partner } = await makePartner('Origins');
    const set = await staff.partners.setReturnOrigins({
      partnerId: partner.id,
      returnOrigins: ['https://Tickets.A.example/', '', 'https://tickets.a.example:443', ' https://m.a.example '],
    });
    expect(set.returnOrigins).toEqual(['https://tickets.a.example', 'https://m.a.example']);
    expect((await getPartner(partner.id, getDb())).returnOrigins).toEqual([
      'https://tickets.a.example',
      'https://m.a.example',
    ]);

    for (const bad of ['https://a.example/path', 'http://a.example', 'not an origin', 'http://localhost:3000']) {
      const err = await staff.partners
        .setReturnOrigins({ partnerId: partner.id, returnOrigins: ['https://ok.example', bad] })
        .catch((e: unknown) => e);
      expect(err, bad).toMatchObject({ code: 'BAD_REQUEST' });
      const cause = (err as { cause?: unknown }).cause;
      expect(cause).toBeInstanceOf(AppError);
      expect((cause as AppError).details?.[0].path).toBe('returnOrigins[1]');
      expect((cause as AppError).message).toContain(bad);
    }
    const tooMany = await staff.partners
      .setReturnOrigins({
        partnerId: partner.id,
        returnOrigins: Array.from({ length: 21 }, (_, i) => `https://${i}.example`),
      })
      .catch((e: unknown) => e);
    expect(tooMany).toMatchObject({ code: 'BAD_REQUEST' });
    // Nothing bad was stored.
    expect((await getPartner(partner.id, getDb())).returnOrigins).toEqual([
      'https://tickets.a.example',
      'https://m.a.example',
    ]);
    await expect(
      setPartnerReturnOrigins({ partnerId: 'ptr_nobody', returnOrigins: [] }, getDb()),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // Clearing the list.
    expect((await staff.partners.setReturnOrigins({ partnerId: partner.id, returnOrigins: [] })).returnOrigins).toEqual(
      [],
    );
  });

  it('allow http on loopback only with ALLOW_PRIVATE_PARTNER_URLS', async () => {
    const { partner } = await makePartner('Loopback');
    await expect(
      setPartnerReturnOrigins({ partnerId: partner.id, returnOrigins: ['http://localhost:3000'] }, getDb()),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    process.env.ALLOW_PRIVATE_PARTNER_URLS = '1';
    resetEnvCache();
    const set = await setPartnerReturnOrigins(
      { partnerId: partner.id, returnOrigins: ['http://localhost:3000'] },
      getDb(),
    );
    expect(set.returnOrigins).toEqual(['http://localhost:3000']);
  });

  it('make another origin a 400 naming returnTo (or returnURL) on the buying flow entry; none set: any', async () => {
    const a = await partnerWithPages('Return A');
    expect((await buyingFlowUrl(a.apiKey, 'returnTo', 'https://evil.example/')).status).toBe(200);
    await setPartnerReturnOrigins({ partnerId: a.partnerId, returnOrigins: ['https://tickets.a.example'] }, getDb());
    const ok = await buyingFlowUrl(a.apiKey, 'returnTo', 'https://tickets.a.example/my-tickets');
    expect(ok.status).toBe(200);
    expect(new URL(ok.body.data).searchParams.get('returnTo')).toBe('https://tickets.a.example/my-tickets');
    for (const field of ['returnTo', 'returnURL'] as const) {
      for (const other of [
        'https://evil.example/',
        'https://tickets.a.example.evil.example/',
        'http://tickets.a.example/',
      ]) {
        const res = await buyingFlowUrl(a.apiKey, field, other);
        expect(res.status, `${field} ${other}`).toBe(400);
        expect(res.body.errors.details).toEqual([
          { path: field, message: 'is not on an allowed return origin (https://tickets.a.example)', in: 'query' },
        ]);
      }
    }
  });

  it("check the selling entrypoints' optional returnTo (or returnURL) like the buying flow's, and carry it", async () => {
    const a = await partnerWithPages('Sell Return');
    // Optional: without it the URLs carry none.
    for (const res of await sellingUrls(a.apiKey, {})) {
      expect(res.status).toBe(200);
      expect(new URL(res.body.data).searchParams.has('returnTo')).toBe(false);
    }
    // No origins set: any absolute URL, carried as returnTo (returnURL too).
    for (const res of await sellingUrls(a.apiKey, { returnURL: 'https://anywhere.example/back' }))
      expect(new URL(res.body.data).searchParams.get('returnTo')).toBe('https://anywhere.example/back');
    await setPartnerReturnOrigins({ partnerId: a.partnerId, returnOrigins: ['https://tickets.a.example'] }, getDb());
    const [one, order] = await sellingUrls(a.apiKey, { returnTo: 'https://tickets.a.example/my-tickets', lang: 'es' });
    expect(one.status).toBe(200);
    const oneUrl = new URL(one.body.data);
    expect(oneUrl.pathname).toMatch(/^\/sell\/tkt_/);
    expect(oneUrl.searchParams.get('returnTo')).toBe('https://tickets.a.example/my-tickets');
    expect(oneUrl.searchParams.get('lang')).toBe('es');
    expect(new URL(order.body.data).searchParams.get('order')).toBe('1');
    expect(new URL(order.body.data).searchParams.get('returnTo')).toBe('https://tickets.a.example/my-tickets');
    for (const field of ['returnTo', 'returnURL'] as const) {
      for (const other of [
        'https://evil.example/',
        'https://tickets.a.example.evil.example/',
        'http://tickets.a.example/',
      ]) {
        for (const res of await sellingUrls(a.apiKey, { [field]: other })) {
          expect(res.status, `${field} ${other}`).toBe(400);
          expect(res.body.errors.details).toEqual([
            { path: field, message: 'is not on an allowed return origin (https://tickets.a.example)', in: 'query' },
          ]);
        }
      }
    }
    // Not a URL at all: a 400 naming the field, never a 500.
    for (const res of await sellingUrls(a.apiKey, { returnTo: 'javascript:alert(1)' })) {
      expect(res.status).toBe(400);
      expect(res.body.errors.details[0]).toMatchObject({ path: 'returnTo', in: 'query' });
    }
    // Another partner's origin is refused: B's list never allows A's returnTo.
    const b = await partnerWithPages('Sell Return B');
    await setPartnerReturnOrigins({ partnerId: b.partnerId, returnOrigins: ['https://tickets.b.example'] }, getDb());
    for (const res of await sellingUrls(b.apiKey, { returnTo: 'https://tickets.a.example/' }))
      expect(res.status).toBe(400);
  });

  it("are one partner's own: A's origins never allow B's returnTo, nor let A frame B's pages", async () => {
    const [a, b] = await Promise.all([partnerWithPages('Tenant A'), partnerWithPages('Tenant B')]);
    await setPartnerReturnOrigins({ partnerId: a.partnerId, returnOrigins: ['https://tickets.a.example'] }, getDb());
    await setPartnerReturnOrigins({ partnerId: b.partnerId, returnOrigins: ['https://tickets.b.example'] }, getDb());
    expect((await buyingFlowUrl(b.apiKey, 'returnTo', 'https://tickets.a.example/')).status).toBe(400);
    expect((await buyingFlowUrl(a.apiKey, 'returnTo', 'https://tickets.b.example/')).status).toBe(400);
    expect((await buyingFlowUrl(b.apiKey, 'returnTo', 'https://tickets.b.example/')).status).toBe(200);
    for (const page of a.pages)
      expect(await framingOriginsOf(page, getDb()), page).toEqual(['https://tickets.a.example']);
    for (const page of b.pages)
      expect(await framingOriginsOf(page, getDb()), page).toEqual(['https://tickets.b.example']);
  });

  it('frame only the embeddable pages, by the current origins (a change is seen at once)', async () => {
    const a = await partnerWithPages('Framing');
    for (const page of a.pages) expect(await framingOriginsOf(page, getDb())).toEqual([]);
    await staff.partners.setReturnOrigins({ partnerId: a.partnerId, returnOrigins: ['https://tickets.a.example'] });
    for (const page of a.pages) expect(await framingOriginsOf(page, getDb())).toEqual(['https://tickets.a.example']);
    await staff.partners.setReturnOrigins({
      partnerId: a.partnerId,
      returnOrigins: ['https://tickets.a.example', 'https://m.a.example'],
    });
    expect(await framingOriginsOf(a.pages[0], getDb())).toEqual(['https://tickets.a.example', 'https://m.a.example']);
    const market = a.pages[0];
    for (const never of [
      `/checkout?listings=x`,
      `/checkout/bi_x`,
      `/pay/bi_x`,
      `/dashboard/partners/${a.partnerId}`,
      `${market}/x`,
      '/market/evt_unknown',
      '/sell/tkt_unknown',
      '/resale/ptr_unknown',
      '/resale/%00',
      `/resale/${'x'.repeat(5000)}`,
    ]) {
      expect(await framingOriginsOf(never, getDb()), never).toEqual([]);
    }
  });
});
