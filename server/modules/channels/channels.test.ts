import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { GET as meGet } from '@/app/v1/me/route';
import { GET as channelsMeGet } from '@/app/v1/channels/me/route';
import { GET as listGet } from '@/app/v1/channels/listings/route';
import { POST as bulkPost } from '@/app/v1/channels/listings/bulk/route';
import { DELETE as oneDelete, GET as oneGet, PUT as onePut } from '@/app/v1/channels/listings/[listingId]/route';
import { getDb } from '@/db';
import { channelListings, shows } from '@/db/schema';
import {
  createApiKey,
  createChannel,
  listApiKeys,
  listChannels,
  revokeApiKey,
  setChannelDisabled,
} from '@/server/modules/partners';
import { setScopeProtection } from '@/server/modules/protection';
import { createBuyIntention } from '@/server/modules/marketplace';
import { buyIntentions, listings } from '@/db/schema/marketplace';
import { callRoute, makePartner, pushEvent, testShow } from '@/server/testing/fixtures';
import { postRules } from '@/server/testing/market';

const STAFF = 'staff@encore.test';

/** A partner with one event (shows 1 and 2, option GA at 40 EUR, types STD and VIP), a channel and its key. */
async function setUp(name = 'Channel partner') {
  const p = await makePartner(name);
  const ref = `evt-${p.partner.id}`;
  const types = { priceTypes: [{ priceTypeId: 'STD' }, { priceTypeId: 'VIP' }] };
  await pushEvent(p.apiKey, ref, [testShow('1', types), testShow('2', types)]);
  const channel = await createChannel({ partnerId: p.partner.id, name: 'Resale Hub' }, getDb());
  const { secret } = await createApiKey({ partnerId: p.partner.id, kind: 'channels', channelId: channel.id }, getDb());
  return { ...p, partnerId: p.partner.id, ref, channel, key: secret };
}

/** The market listings (marketplace) a channel listing became, slot by slot. */
async function marketListingsOf(channelId: string, externalId: string) {
  const [row] = await getDb()
    .select({ id: channelListings.id })
    .from(channelListings)
    .where(and(eq(channelListings.channelId, channelId), eq(channelListings.externalId, externalId)));
  return getDb().select().from(listings).where(eq(listings.channelListingId, row.id)).orderBy(listings.channelSlot);
}

const listing = (ref: string, extra: Record<string, unknown> = {}) => ({
  eventId: ref,
  showId: '1',
  ticketOptionId: 'GA',
  quantity: 2,
  price: 45,
  currency: 'EUR',
  ...extra,
});

const call = callRoute;

const put = (key: string, id: string, body: unknown) =>
  call(onePut, `/v1/channels/listings/${id}`, key, { method: 'PUT', body, params: { listingId: id } });
const get = (key: string, id: string) =>
  call(oneGet, `/v1/channels/listings/${id}`, key, { params: { listingId: id } });
const del = (key: string, id: string) =>
  call(oneDelete, `/v1/channels/listings/${id}`, key, { method: 'DELETE', params: { listingId: id } });
const bulk = (key: string, listings: unknown[]) =>
  call(bulkPost, '/v1/channels/listings/bulk', key, { method: 'POST', body: { listings } });
const list = (key: string, query = '') => call(listGet, `/v1/channels/listings${query}`, key);

describe('channels and their keys', () => {
  it('a channels key opens the Channels API as its channel, and only it; a partner key never does', async () => {
    const s = await setUp();
    const me = await call(channelsMeGet, '/v1/channels/me', s.key);
    expect(me.body.data).toMatchObject({ partnerId: s.partnerId, channelId: s.channel.id, channelName: 'Resale Hub' });
    // The partner's initial channels key belongs to its default channel.
    const initial = await call(channelsMeGet, '/v1/channels/me', s.channelsApiKey);
    expect(initial.body.data.channelName).toBe('Default channel');
    expect((await listChannels(s.partnerId, getDb())).map((c) => c.name)).toEqual(['Default channel', 'Resale Hub']);

    const partnerKeyOnChannels = await list(s.apiKey);
    expect(partnerKeyOnChannels.status).toBe(403);
    expect(partnerKeyOnChannels.body.errors.message).toContain('channels API key');
    const channelKeyOnPartner = await call(meGet, '/v1/me', s.key);
    expect(channelKeyOnPartner.status).toBe(403);

    // Disabling the channel refuses its keys (and not the partner's other channel); enabling restores them.
    await setChannelDisabled({ partnerId: s.partnerId, channelId: s.channel.id, disabled: true }, getDb());
    const refused = await list(s.key);
    expect(refused.status).toBe(403);
    expect(refused.body.errors.message).toBe('This channel is disabled. Contact Encore support.');
    expect((await list(s.channelsApiKey)).status).toBe(200);
    await setChannelDisabled({ partnerId: s.partnerId, channelId: s.channel.id, disabled: false }, getDb());
    expect((await list(s.key)).status).toBe(200);

    // Several keys for rotation; a revoked one answers 401.
    const second = await createApiKey({ partnerId: s.partnerId, kind: 'channels', channelId: s.channel.id }, getDb());
    const keys = await listApiKeys(s.partnerId, getDb(), s.channel.id);
    expect(keys).toHaveLength(2);
    await revokeApiKey(s.partnerId, keys.find((k) => k.id !== second.key.id)!.id, getDb());
    expect((await list(s.key)).status).toBe(401);
    expect((await list(second.secret)).status).toBe(200);

    // Another partner's channel cannot be given a key here.
    const other = await setUp('Other partner');
    await expect(
      createApiKey({ partnerId: s.partnerId, kind: 'channels', channelId: other.channel.id }, getDb()),
    ).rejects.toThrow('Channel not found');
  });
});

describe('listings in', () => {
  it('stores 1,000 listings in one request, naming the bad ones by index; a repeat makes no duplicates', async () => {
    const s = await setUp();
    const items = Array.from({ length: 1000 }, (_, i) =>
      i % 2
        ? {
            listingId: `L-${i}`,
            ...listing(s.ref, { seats: [{ section: 'A', row: '1', seat: String(i) }], quantity: undefined }),
          }
        : { listingId: `L-${i}`, ...listing(s.ref, { showId: String(1 + (i % 4 === 0 ? 1 : 0)), priceTypeId: 'VIP' }) },
    );
    items[10] = { ...items[10], currency: 'USD' };
    items[20] = { ...items[20], showId: 'nope' };
    items[30] = { ...items[30], price: 1000 };
    items[40] = { ...items[40], quantity: undefined, seats: undefined } as unknown as (typeof items)[number];
    items[50] = { ...items[50], unknownField: 1 } as unknown as (typeof items)[number];
    await postRules(s.apiKey, [
      { externalReferenceEventId: s.ref, ruleType: 'PRICE_LIMITS', rules: { maxPercentOfFace: 150 } },
    ]);

    const res = await bulk(s.key, items);
    expect(res.status).toBe(400);
    expect(res.body.errors.message).toMatch(/^5 of 1000 listings were refused .*; 995 were stored$/);
    const details = res.body.errors.details as { path: string; message: string }[];
    expect(details.map((d) => d.path)).toEqual(['[10].currency', '[20].showId', '[30].price', '[40].quantity', '[50]']);
    expect(details[2].message).toMatch(/^ABOVE_CAP: the price is above the cap of 60 EUR/);

    const page = await list(s.key, '?pageSize=200');
    expect(page.body.data).toMatchObject({ total: 995, page: 1, pageSize: 200 });
    expect(page.body.data.items).toHaveLength(200);
    const one = await get(s.key, 'L-1');
    expect(one.body.data).toMatchObject({
      listingId: 'L-1',
      status: 'ACTIVE',
      eventId: s.ref,
      showId: '1',
      quantity: 1,
      seats: [{ section: 'A', row: '1', seat: '1' }],
      soldWhole: false,
      price: 45,
      currency: 'EUR',
    });
    expect((await get(s.key, 'L-4')).body.data).toMatchObject({ showId: '2', priceTypeId: 'VIP', quantity: 2 });

    // The same request again: every good one is replaced, none added.
    const again = await bulk(s.key, items);
    expect(again.body.errors.message).toContain('995 were stored');
    expect((await list(s.key)).body.data.total).toBe(995);
    // Fixed, the refused ones go in.
    const fixed = await bulk(s.key, [
      { ...items[10], currency: 'EUR' },
      { ...items[20], showId: '1' },
      { ...items[30], price: 50 },
    ]);
    expect(fixed).toMatchObject({ status: 200, body: { data: { stored: 3 } } });
    expect((await list(s.key, `?eventId=${s.ref}&status=ACTIVE`)).body.data.total).toBe(998);
  });

  it('the market’s rules apply: show LIVE with resale and protection, the window, tickets per listing', async () => {
    const s = await setUp();
    await postRules(s.apiKey, [
      { externalReferenceEventId: s.ref, ruleType: 'MAX_TICKETS_PER_LISTING', rules: { max: 2 } },
      { externalReferenceEventId: s.ref, showId: '2', ruleType: 'LISTING_WINDOW', rules: { opensHoursBeforeShow: 24 } },
    ]);
    const whole = await put(s.key, 'W', listing(s.ref, { quantity: 3, soldWhole: true }));
    expect(whole.status).toBe(409);
    expect(whole.body.errors.message).toBe('This listing cannot be on sale: at most 2 tickets per listing');
    expect(whole.body.errors.details).toEqual([
      { path: 'quantity', message: 'TOO_MANY: at most 2 tickets per listing', in: 'body' },
    ]);
    // Not sold whole: buyers take them one at a time, so the per-listing limit does not apply.
    expect((await put(s.key, 'W', listing(s.ref, { quantity: 3 }))).status).toBe(200);
    const early = await put(s.key, 'E', listing(s.ref, { showId: '2' }));
    expect(early.body.errors.details[0].message).toMatch(/^WINDOW_NOT_OPEN/);

    const db = getDb();
    const [show1] = await db
      .select({ pk: shows.id, eventPk: shows.eventId })
      .from(shows)
      .where(and(eq(shows.partnerId, s.partnerId), eq(shows.showId, '1')));
    await setScopeProtection(
      { partnerId: s.partnerId, eventPk: show1.eventPk, showPk: show1.pk, active: false, unlockHours: null },
      STAFF,
      getDb(),
    );
    const unprotected = await put(s.key, 'P', listing(s.ref));
    expect(unprotected.status).toBe(409);
    expect(unprotected.body.errors.details[0].message).toMatch(/^PROTECTION_OFF/);

    const missing = await put(s.key, 'M', listing(s.ref, { ticketOptionId: 'NOPE' }));
    expect(missing).toMatchObject({ status: 404, body: { errors: { message: 'Ticket option not found' } } });
    const noType = await put(s.key, 'M', listing(s.ref, { priceTypeId: 'NOPE' }));
    expect(noType.body.errors.message).toBe('Price type not found');
    const bad = await put(s.key, 'M', listing(s.ref, { quantity: 2, seats: [{ seat: '1' }] }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors.details[0]).toMatchObject({
      path: 'quantity',
      message: 'must equal the number of seats',
    });
  });

  it('delete takes a listing off sale, a PUT puts it back; one a buyer holds or bought cannot change', async () => {
    const s = await setUp();
    expect((await put(s.key, 'D', listing(s.ref))).body.data.status).toBe('ACTIVE');
    expect((await del(s.key, 'D')).body.data.status).toBe('CANCELLED');
    expect((await del(s.key, 'D')).body.data.status).toBe('CANCELLED');
    const back = await put(s.key, 'D', listing(s.ref, { price: 42 }));
    expect(back.body.data).toMatchObject({ status: 'ACTIVE', price: 42 });
    expect((await del(s.key, 'nothing')).status).toBe(404);

    // In the market: a split listing of 2 is two singles; a buyer holds one of them.
    const mirrors = await marketListingsOf(s.channel.id, 'D');
    expect(mirrors.map((m) => [m.type, m.status, m.ticketCount, m.priceMinor])).toEqual([
      ['SINGLE', 'ACTIVE', 1, 4200],
      ['SINGLE', 'ACTIVE', 1, 4200],
    ]);
    const hold = await createBuyIntention(s.partnerId, { items: [mirrors[0].id], user: 'buyer@example.com' }, getDb());
    const held = await put(s.key, 'D', listing(s.ref, { price: 41 }));
    expect(held.status).toBe(409);
    expect(held.body.errors.message).toContain('held by a buyer who is paying for it');
    expect((await del(s.key, 'D')).status).toBe(409);
    const inBulk = await bulk(s.key, [
      { listingId: 'D', ...listing(s.ref) },
      { listingId: 'F', ...listing(s.ref) },
    ]);
    expect(inBulk.body.errors.message).toMatch(/^1 of 2 listings were refused .*; 1 were stored$/);
    expect(inBulk.body.errors.details[0].path).toBe('[0]');
    expect((await get(s.key, 'D')).body.data).toMatchObject({ status: 'RESERVED', price: 42 });

    // The hold runs out and no sweep has run: the channel reads its listing as on sale (nothing written),
    // and its next PUT ends the hold in its own transaction and goes through.
    await getDb()
      .update(buyIntentions)
      .set({ expiresAt: sql`now() - interval '1 second'` as unknown as Date })
      .where(eq(buyIntentions.id, hold.id));
    expect((await get(s.key, 'D')).body.data).toMatchObject({ status: 'ACTIVE', price: 42 });
    expect((await list(s.key)).body.data.items.find((l: { listingId: string }) => l.listingId === 'D')).toMatchObject({
      status: 'ACTIVE',
    });
    const [stored] = await getDb().select().from(buyIntentions).where(eq(buyIntentions.id, hold.id));
    expect(stored.status).toBe('PENDING');
    expect((await put(s.key, 'D', listing(s.ref, { price: 41 }))).body.data).toMatchObject({
      status: 'ACTIVE',
      price: 41,
    });
    const [ended] = await getDb().select().from(buyIntentions).where(eq(buyIntentions.id, hold.id));
    expect(ended.status).toBe('EXPIRED');
  });

  it('a channel sees only its own listings: not another channel’s, not another partner’s', async () => {
    const a = await setUp('Partner A');
    const b = await setUp('Partner B');
    expect((await put(a.key, 'SAME', listing(a.ref))).status).toBe(200);
    // Another partner's channel: its own listing of the same id is another listing; A's stays unseen.
    expect((await get(b.key, 'SAME')).status).toBe(404);
    expect((await list(b.key)).body.data.total).toBe(0);
    expect((await del(b.key, 'SAME')).status).toBe(404);
    // It cannot list on A's event either: the catalogue is its own partner's.
    expect((await put(b.key, 'X', listing(a.ref))).body.errors.message).toBe('Event not found');
    // A second channel of the same partner sees nothing of the first.
    const other = await createChannel({ partnerId: a.partnerId, name: 'Second' }, getDb());
    const { secret } = await createApiKey({ partnerId: a.partnerId, kind: 'channels', channelId: other.id }, getDb());
    expect((await get(secret, 'SAME')).status).toBe(404);
    expect((await put(secret, 'SAME', listing(a.ref, { price: 41 }))).status).toBe(200);
    expect((await get(a.key, 'SAME')).body.data.price).toBe(45);
  });
});
