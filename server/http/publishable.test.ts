import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as me } from '@/app/v1/me/route';
import {
  GET as accessLayerGet,
  OPTIONS as accessLayerOptions,
  POST as sellLayerPost,
} from '@/app/v1/wrapper/accesslayer/route';
import { getDb, getSql } from '@/db';
import { env, resetEnvCache } from '@/server/env';
import { sha256Hex } from '@/server/lib/ids';
import { listAuditEntries } from '@/server/modules/audit';
import { createListing } from '@/server/modules/marketplace';
import {
  authenticateApiKey,
  createPartnerCredentials,
  forgetCheckedKeys,
  kindOfKey,
  modeOfKey,
  publishableKeyOf,
  rotatePublishableKey,
} from '@/server/modules/partners';
import { createCallerFactory } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/router';
import { apiRequest, makePartner, pushEvent, testShow } from '@/server/testing/fixtures';
import { sellerMarket } from '@/server/testing/market';
import { race, statuses } from '@/server/testing/race';
import { v1HandlerFile } from '@/server/testing/v1-routes';
import { buyAccessLayerRoute, resaleEntryRoute } from '@/server/modules/access-layer';
import type { RouteContract } from '@/server/lib/contract';
import { CLIENT_ADDRESS_HEADER } from './client-address';
import { allRoutes } from './registry';

/*
 * A partner's publishable keys (`pk_live_…`, its twin's `pk_test_…`), the widget's. They open the buy access
 * layer's GET and the fan's resale entry (`<encore-sell>`) and nothing else, from the partner's widget origins
 * only (CORS), limited per key and origin; a secret key's call never carries a CORS header.
 */

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

const staff = createCallerFactory(appRouter)({
  staff: { id: 'stf_pk', email: 'pk@encore.test', name: 'Keys', role: 'admin' },
});
const SELLER = 'pk-seller@example.com';
const SHOP = 'https://shop.partner.example';
const EVIL = 'https://evil.example';

/** The buy access layer's GET with `key`, from a page of `origin` (none: a server's call). */
async function buyLayer(key: string, ref: string, origin?: string, showId = '1', headers: Record<string, string> = {}) {
  const res = await accessLayerGet(
    apiRequest(`/v1/wrapper/accesslayer?type=buy&eventId=${encodeURIComponent(ref)}&showId=${showId}`, {
      key,
      headers: { ...(origin ? { origin } : {}), ...headers },
    }),
  );
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** Sets or, for undefined, removes a variable of the environment. */
function setEnv(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

let live: { partnerId: string; key: string; pk: string; testPk: string };
let ref: string;
let listingId: string;

beforeAll(async () => {
  const m = await sellerMarket({ seller: SELLER, name: 'Publishable' });
  ref = m.ref;
  listingId = (
    await createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 30 }, getDb())
  ).id;
  const twin = await staff.partners.testMode.get({ partnerId: m.partnerId });
  const pk = await publishableKeyOf(m.partnerId, getDb());
  const testPk = await publishableKeyOf(twin!.id, getDb());
  live = { partnerId: m.partnerId, key: m.key, pk: pk!.key, testPk: testPk!.key };
}, 60_000);

describe('publishable keys', () => {
  it('are made with every partner: pk_live_ for it, pk_test_ for its twin, printed by partner:create', async () => {
    const created = await createPartnerCredentials(`Credentials ${Date.now()}`, getDb());
    expect(Object.keys(created)).toEqual([
      'partnerId',
      'apiKey',
      'channelsApiKey',
      'publishableKey',
      'testPartnerId',
      'testApiKey',
      'testChannelsApiKey',
      'testPublishableKey',
    ]);
    expect(created.publishableKey).toMatch(/^pk_live_[A-Za-z0-9]{32}$/);
    expect(created.testPublishableKey).toMatch(/^pk_test_[A-Za-z0-9]{32}$/);
    expect([created.publishableKey, created.testPublishableKey].map(kindOfKey)).toEqual(['publishable', 'publishable']);
    expect([created.publishableKey, created.testPublishableKey].map(modeOfKey)).toEqual(['live', 'test']);
    // Shown whole on the dashboard (it is not a secret), never among the secret keys.
    expect(await staff.partners.publishableKeys.get({ partnerId: created.partnerId })).toMatchObject({
      key: created.publishableKey,
      prefix: created.publishableKey.slice(0, 14),
      revokedAt: null,
    });
    expect(await staff.partners.publishableKeys.get({ partnerId: created.testPartnerId })).toMatchObject({
      key: created.testPublishableKey,
    });
    const secret = await staff.partners.keys.list({ partnerId: created.partnerId });
    expect(secret.map((k) => k.kind).sort()).toEqual(['channels', 'partner']);
    // Stored hashed like any key, and the hash is what authenticates it.
    const [row] = await getSql()<
      { hash: string }[]
    >`select hash from api_keys where publishable_key = ${created.publishableKey}`;
    expect(row.hash).toBe(sha256Hex(created.publishableKey));
  });

  it('open the buy access layer, live and test, with the same answer a secret key gets', async () => {
    const withSecret = await buyLayer(live.key, ref);
    const withPk = await buyLayer(live.pk, ref, SHOP);
    expect(withPk.status).toBe(200);
    expect(withPk.body).toEqual(withSecret.body);
    const list = withPk.body.data.components.find((c: { type: string }) => c.type === 'list');
    expect(list.list.items.map((i: { listingId: string }) => i.listingId)).toEqual([listingId]);

    // The twin's pk_test_ reads the twin's data space: the live event is not there, its own is.
    expect((await buyLayer(live.testPk, ref, SHOP)).status).toBe(404);
    const twinKeys = await createPartnerCredentials(`Twin ${Date.now()}`, getDb());
    const testRef = `pk-test-${Date.now()}`;
    await pushEvent(twinKeys.testApiKey, testRef, [testShow('1')]);
    expect((await buyLayer(twinKeys.testPublishableKey, testRef, SHOP)).status).toBe(200);
    expect((await buyLayer(twinKeys.publishableKey, testRef, SHOP)).status).toBe(404);
  });

  it('answer 403 on every other operation of the registry, genuine or not, live or test', async () => {
    const bogus = `pk_live_${'Z'.repeat(32)}`;
    let checked = 0;
    // The widget's two reads (the buy access layer, the fan's resale entry) and no other operation take one.
    const open: RouteContract[] = [buyAccessLayerRoute, resaleEntryRoute];
    expect(allRoutes.filter((r) => r.publishableKey)).toEqual(open);
    for (const route of allRoutes) {
      if (open.includes(route)) continue;
      const mod = (await import(v1HandlerFile(route.path))) as Record<string, Handler>;
      const handler = mod[route.method];
      expect(handler, `${route.method} ${route.path}`).toBeTypeOf('function');
      const path = route.path.replace(/\{(\w+)\}/g, 'x');
      const params = Object.fromEntries([...route.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], 'x']));
      for (const key of [live.pk, live.testPk, bogus]) {
        const res = await handler(
          new Request(`http://encore.test${path}?type=buy`, {
            method: route.method,
            headers: { authorization: key, origin: SHOP, 'content-type': 'application/json' },
            body: route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}',
          }),
          { params: Promise.resolve(params) },
        );
        const what = `${route.method} ${route.path} with ${key.slice(0, 8)}`;
        if (route.auth === 'none') {
          // The OpenAPI document is public: no key is needed, so none is refused.
          expect(res.status, what).toBe(200);
          continue;
        }
        const body = await res.json();
        expect(res.status, `${what}: ${JSON.stringify(body)}`).toBe(403);
        expect(body.errors.message, what).toContain('publishable key');
        // No CORS header: a page cannot read even the refusal.
        expect(res.headers.get('access-control-allow-origin'), what).toBeNull();
        checked += 1;
      }
    }
    // Every operation but the widget's two reads and the public document, with three keys each.
    expect(checked).toBe((allRoutes.length - 3) * 3);
    // The same path's POST (the sell access layer) included.
    const sell = await sellLayerPost(
      apiRequest('/v1/wrapper/accesslayer', { key: live.pk, body: { user: 'a@b.c', tickets: [] } }),
    );
    expect(sell.status).toBe(403);
  });

  it('a key whose prefix says another mode than its partner is refused (401), like a secret key', async () => {
    const p = await makePartner('Mode mismatch');
    const twin = await staff.partners.testMode.get({ partnerId: p.partner.id });
    const wrong = `pk_live_${'M'.repeat(32)}${Date.now()}`;
    // Stored for the test twin (whose own key is revoked first: one active per partner row).
    await getDb().execute(
      sql`update api_keys set revoked_at = now() where partner_id = ${twin!.id} and kind = 'publishable'`,
    );
    await getDb().execute(sql`insert into api_keys (id, partner_id, kind, prefix, hash, publishable_key)
      values (${`key_pkmix_${Date.now()}`}, ${twin!.id}, 'publishable', ${wrong.slice(0, 14)}, ${sha256Hex(wrong)}, ${wrong})`);
    forgetCheckedKeys();
    expect(await authenticateApiKey(wrong, getSql())).toBeNull();
    expect((await buyLayer(wrong, ref)).status).toBe(401);
  });

  it('rotate: a new key at once, the old one refused, a second rotation of it a 409; recorded', async () => {
    const p = await createPartnerCredentials(`Rotate ${Date.now()}`, getDb());
    const r = `pk-rot-${Date.now()}`;
    await pushEvent(p.apiKey, r, [testShow('1')]);
    const old = (await staff.partners.publishableKeys.get({ partnerId: p.partnerId }))!;
    expect((await buyLayer(old.key, r)).status).toBe(200);
    const rotated = await staff.partners.publishableKeys.rotate({ partnerId: p.partnerId, keyId: old.id });
    expect(rotated.key.key).toMatch(/^pk_live_[A-Za-z0-9]{32}$/);
    expect(rotated.revoked.id).toBe(old.id);
    const refused = await buyLayer(old.key, r, SHOP);
    expect(refused.status).toBe(401);
    // The widget may read why (the key is not known, so no partner's origins to hold it to).
    expect(refused.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect((await buyLayer(rotated.key.key, r)).status).toBe(200);
    expect((await staff.partners.publishableKeys.get({ partnerId: p.partnerId }))?.key).toBe(rotated.key.key);
    await expect(
      staff.partners.publishableKeys.rotate({ partnerId: p.partnerId, keyId: old.id }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    // Another partner's key is not this partner's to rotate: the same 409, nothing changed.
    const other = (await staff.partners.publishableKeys.get({ partnerId: live.partnerId }))!;
    await expect(
      staff.partners.publishableKeys.rotate({ partnerId: p.partnerId, keyId: other.id }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await staff.partners.publishableKeys.get({ partnerId: live.partnerId }))?.key).toBe(live.pk);
    // A publishable key is not revoked alone (the partner would have none).
    await expect(staff.partners.keys.revoke({ partnerId: p.partnerId, keyId: rotated.key.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const { items } = await listAuditEntries({ partnerId: p.partnerId, action: 'publishable_key.rotated' }, getDb());
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      before: { id: old.id, prefix: old.prefix },
      after: { id: rotated.key.id, prefix: rotated.key.prefix },
    });
  });

  it('20 rotations of one key at once make exactly one new key', async () => {
    const p = await createPartnerCredentials(`Rotate race ${Date.now()}`, getDb());
    const old = (await staff.partners.publishableKeys.get({ partnerId: p.partnerId }))!;
    const outcomes = await race(20, () => rotatePublishableKey({ partnerId: p.partnerId, keyId: old.id }, getDb()));
    expect(statuses(outcomes)).toEqual([200, ...Array<number>(19).fill(409)]);
    const rows = await getSql()<{ active: number; all: number }[]>`
      select count(*) filter (where revoked_at is null)::int as active, count(*)::int as all
      from api_keys where partner_id = ${p.partnerId} and kind = 'publishable'`;
    expect(rows[0]).toEqual({ active: 1, all: 2 });
  });
});

describe('CORS for publishable keys', () => {
  it('no widget origins: any page may use the key (its origin echoed), and the partner page warns', async () => {
    for (const origin of [SHOP, EVIL, 'http://localhost:8080']) {
      const res = await buyLayer(live.pk, ref, origin);
      expect(res.status, origin).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('vary')).toContain('Origin');
      expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After');
    }
    // A server's call with the key (no Origin): answered, with no CORS header to give.
    const server = await buyLayer(live.pk, ref);
    expect(server.status).toBe(200);
    expect(server.headers.get('access-control-allow-origin')).toBeNull();
    expect((await staff.partners.get({ partnerId: live.partnerId })).widgetOrigins).toEqual([]);
  });

  it('with widget origins: only their pages; another page or none is a 403 without CORS headers', async () => {
    const p = await createPartnerCredentials(`Origins ${Date.now()}`, getDb());
    const r = `pk-orig-${Date.now()}`;
    await pushEvent(p.apiKey, r, [testShow('1')]);
    const saved = await staff.partners.setWidgetOrigins({
      partnerId: p.partnerId,
      widgetOrigins: [`${SHOP}/`, '', 'HTTPS://Shop2.Partner.Example:443', SHOP],
    });
    expect(saved.widgetOrigins).toEqual([SHOP, 'https://shop2.partner.example']);

    const allowed = await buyLayer(p.publishableKey, r, SHOP);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(SHOP);
    for (const origin of [EVIL, 'https://shop.partner.example.evil.example', 'http://shop.partner.example', 'null']) {
      const refused = await buyLayer(p.publishableKey, r, origin);
      expect(refused.status, origin).toBe(403);
      expect(refused.body.errors.details[0]).toMatchObject({ path: 'Origin', in: 'header' });
      expect(refused.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
    const noOrigin = await buyLayer(p.publishableKey, r);
    expect([noOrigin.status, noOrigin.body.errors.message]).toEqual([403, expect.stringContaining('no Origin header')]);
    // Encore's own page (the dashboard's Embed preview): no Origin on a same-origin GET, Sec-Fetch-Site says so.
    const own = await accessLayerGet(
      apiRequest(`/v1/wrapper/accesslayer?type=buy&eventId=${encodeURIComponent(r)}&showId=1`, {
        key: p.publishableKey,
        headers: { 'sec-fetch-site': 'same-origin' },
      }),
    );
    expect([own.status, own.headers.get('access-control-allow-origin')]).toEqual([200, null]);
    const crossSite = await accessLayerGet(
      apiRequest(`/v1/wrapper/accesslayer?type=buy&eventId=${encodeURIComponent(r)}&showId=1`, {
        key: p.publishableKey,
        headers: { 'sec-fetch-site': 'cross-site' },
      }),
    );
    expect(crossSite.status).toBe(403);
    // Not an origin at all: a 400 naming the header.
    const bad = await buyLayer(p.publishableKey, r, 'https://shop.partner.example/path');
    expect([bad.status, bad.body.errors.details[0]]).toEqual([400, expect.objectContaining({ path: 'Origin' })]);
    // The twin has its own list: still empty, so any origin for pk_test_.
    expect((await staff.partners.get({ partnerId: p.testPartnerId })).widgetOrigins).toEqual([]);

    // Emptied again: any origin at once (this instance forgot the key it remembered with the old list).
    await staff.partners.setWidgetOrigins({ partnerId: p.partnerId, widgetOrigins: [] });
    expect((await buyLayer(p.publishableKey, r, EVIL)).status).toBe(200);
  });

  it('widget origins are checked like return origins, named by index, and every change is audited', async () => {
    const p = await makePartner('Origins audit');
    const err = await staff.partners
      .setWidgetOrigins({
        partnerId: p.partner.id,
        widgetOrigins: [SHOP, 'ftp://files.example', 'https://a.example/x'],
      })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'BAD_REQUEST' });
    expect(String((err as Error).message)).toContain('ftp://files.example');
    expect((await staff.partners.get({ partnerId: p.partner.id })).widgetOrigins).toEqual([]);
    await staff.partners.setWidgetOrigins({ partnerId: p.partner.id, widgetOrigins: [SHOP] });
    const { items } = await listAuditEntries(
      { partnerId: p.partner.id, action: 'partner.widget_origins.updated' },
      getDb(),
    );
    expect(items[0]).toMatchObject({ before: { widgetOrigins: [] }, after: { widgetOrigins: [SHOP] } });
  });

  it('the preflight allows a GET with Authorization from any page, and nothing else', async () => {
    const preflight = (origin: string | null, method: string, headers = 'authorization') =>
      accessLayerOptions(
        new Request('http://encore.test/v1/wrapper/accesslayer?type=buy&eventId=e&showId=1', {
          method: 'OPTIONS',
          headers: {
            ...(origin ? { origin } : {}),
            'access-control-request-method': method,
            'access-control-request-headers': headers,
          },
        }),
      );
    const ok = await preflight(EVIL, 'GET');
    expect(ok.status).toBe(204);
    expect(Object.fromEntries([...ok.headers].filter(([k]) => k.startsWith('access-control-')))).toEqual({
      'access-control-allow-origin': EVIL,
      'access-control-allow-methods': 'GET',
      'access-control-allow-headers': 'Authorization, Content-Type',
      'access-control-max-age': '7200',
    });
    expect(ok.headers.get('vary')).toContain('Origin');
    expect(ok.headers.get('x-request-id')).toBeTruthy();
    // The sell access layer's POST on the same path is never allowed from a page.
    const post = await preflight(EVIL, 'POST', 'authorization, content-type, idempotency-key');
    expect(post.status).toBe(204);
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight(null, 'GET')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a secret key is never answered with CORS headers, with or without an Origin', async () => {
    const withOrigin = await buyLayer(live.key, ref, SHOP);
    expect(withOrigin.status).toBe(200);
    expect(withOrigin.headers.get('access-control-allow-origin')).toBeNull();
    const bad = await buyLayer(`sk_live_${'x'.repeat(32)}`, ref, SHOP);
    expect(bad.status).toBe(401);
    expect(bad.headers.get('access-control-allow-origin')).toBeNull();
    const sell = await sellLayerPost(
      apiRequest('/v1/wrapper/accesslayer', { key: live.key, body: { user: 'a@b.c' }, headers: { origin: SHOP } }),
    );
    expect(sell.headers.get('access-control-allow-origin')).toBeNull();
    const meRes = await me(apiRequest('/v1/me', { key: live.key, headers: { origin: SHOP } }));
    expect(meRes.status).toBe(200);
    expect(meRes.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('limits and isolation', () => {
  it('limits a key per client address and origin, and per origin on the instance: the over-limit call is a 429 and counts nothing', async () => {
    const p = await createPartnerCredentials(`Limit ${Date.now()}`, getDb());
    const r = `pk-lim-${Date.now()}`;
    await pushEvent(p.apiKey, r, [testShow('1')]);
    const saved = [process.env.PUBLISHABLE_KEY_RATE_LIMIT, process.env.PUBLISHABLE_KEY_SITE_RATE_LIMIT];
    // Small figures, so the windows fill in a few calls: 3 per address, 5 per site (of each key).
    process.env.PUBLISHABLE_KEY_RATE_LIMIT = '3';
    process.env.PUBLISHABLE_KEY_SITE_RATE_LIMIT = '5';
    resetEnvCache();
    try {
      expect(env().PUBLISHABLE_KEY_RATE_LIMIT).toBe(3);
      const from = (address: string, origin = SHOP, key = p.publishableKey) =>
        buyLayer(key, r, origin, '1', { [CLIENT_ADDRESS_HEADER]: address });
      const a = [];
      for (let i = 0; i < 3; i++) a.push(await from('203.0.113.1'));
      expect(a.map((x) => [x.status, x.headers.get('x-ratelimit-remaining')])).toEqual([
        [200, '2'],
        [200, '1'],
        [200, '0'],
      ]);
      const over = await from('203.0.113.1');
      expect(over.status).toBe(429);
      expect(over.body.errors.message).toContain('from one address and site');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      // Readable by the widget, which should wait that long.
      expect(over.headers.get('access-control-allow-origin')).toBe(SHOP);
      // Another fan of the same site has a window of their own, until the site's (5, the refused call not
      // counted) is full: a fourth and a fifth call pass, the sixth from anyone on that site is refused.
      expect((await from('203.0.113.2')).status).toBe(200);
      expect((await from('203.0.113.3')).status).toBe(200);
      const site = await from('203.0.113.4');
      expect([site.status, site.body.errors.message]).toEqual([429, expect.stringContaining('from one site')]);
      // Another origin and another key have their own windows; the partner's secret key is not limited by them.
      expect((await from('203.0.113.1', EVIL)).status).toBe(200);
      expect((await from('203.0.113.1', SHOP, p.testPublishableKey)).status).toBe(404);
      expect((await buyLayer(p.apiKey, r)).status).toBe(200);
    } finally {
      setEnv('PUBLISHABLE_KEY_RATE_LIMIT', saved[0]);
      setEnv('PUBLISHABLE_KEY_SITE_RATE_LIMIT', saved[1]);
      resetEnvCache();
    }
  });

  it("keeps partners apart: A's key reads none of B's shows (404), and a disabled partner's key is a 403", async () => {
    const b = await createPartnerCredentials(`Tenant B ${Date.now()}`, getDb());
    const refB = `pk-b-${Date.now()}`;
    await pushEvent(b.apiKey, refB, [testShow('1')]);
    const cross = await buyLayer(live.pk, refB, SHOP);
    expect([cross.status, cross.body.errors.message]).toEqual([404, 'Event not found']);
    expect((await buyLayer(b.publishableKey, ref, SHOP)).status).toBe(404);
    expect((await buyLayer(b.publishableKey, refB, SHOP)).status).toBe(200);
    await staff.partners.setDisabled({ partnerId: b.partnerId, disabled: true });
    const disabled = await buyLayer(b.publishableKey, refB, SHOP);
    expect([disabled.status, disabled.body.errors.message]).toEqual([403, expect.stringContaining('disabled')]);
    expect((await buyLayer(b.testPublishableKey, refB, SHOP)).status).toBe(403);
  });
});
