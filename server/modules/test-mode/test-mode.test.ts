import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { POST as cancelEvent } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { POST as applyRules } from '@/app/v1/events/rules/route';
import { PUT as updateEvent } from '@/app/v1/events/route';
import { GET as channelsMe } from '@/app/v1/channels/me/route';
import { GET as listChannelListings } from '@/app/v1/channels/listings/route';
import {
  DELETE as deleteChannelListing,
  GET as getChannelListing,
  PUT as putChannelListing,
} from '@/app/v1/channels/listings/[listingId]/route';
import { GET as me } from '@/app/v1/me/route';
import { POST as buyIntention } from '@/app/v1/marketplace/buyingflow/buyIntention/route';
import { GET as buyingFlowUrl } from '@/app/v1/marketplace/buyingflow/url/entrypoint/route';
import { POST as checkoutUrl } from '@/app/v1/marketplace/checkout/url/route';
import { GET as listedTickets } from '@/app/v1/marketplace/items/events/[eventId]/listedTickets/route';
import { GET as listingByTicket } from '@/app/v1/marketplace/listings/ticket/[ticketId]/route';
import { GET as sellingFlowUrl } from '@/app/v1/marketplace/sellingflow/url/entrypoint/route';
import { PUT as putInventory } from '@/app/v1/marketdata/events/[externalReferenceId]/inventory/route';
import { POST as saveLead } from '@/app/v1/marketdata/ticket-leads/route';
import { GET as secureUrl } from '@/app/v1/tickets/[ticketId]/url/route';
import { getDb, getSql } from '@/db';
import { createCallerFactory } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/router';
import { sha256Hex } from '@/server/lib/ids';
import { listLeads } from '@/server/modules/market-data';
import { opsSearch, overviewFilterOptions } from '@/server/modules/ops';
import { createListing } from '@/server/modules/marketplace';
import {
  authenticateApiKey,
  forgetCheckedKeys,
  kindOfKey,
  lockTestPartnerForWipe,
  modeOfKey,
  testPartnerOf,
} from '@/server/modules/partners';
import { getPayoutAccount, setUpPayoutAccount, startPayment } from '@/server/modules/payments';
import { callRoute, makePartner, pushEvent, testShow } from '@/server/testing/fixtures';
import { FakeStripe } from '@/server/testing/fake-stripe';
import { setEnvInFile } from '@/server/testing/env';
import { admit, deleteTicket, putTicket, syncTickets } from '@/server/testing/ticket-api';
import { wipeTestData } from './index';

type Handler = Parameters<typeof callRoute>[0];
const staff = createCallerFactory(appRouter)({
  staff: { id: 'stf_test_mode', email: 'test-mode@encore.test', name: 'TM', role: 'admin' },
});

setEnvInFile({ ALLOW_PRIVATE_PARTNER_URLS: '1' });

const SELLER = 'seller@example.com';
const date = new Date(Date.now() + 200 * 24 * 3600_000).toISOString();

/** One data space (live or test), built through the partner and Channels APIs as a partner would. */
interface Space {
  label: 'live' | 'test';
  partnerId: string;
  key: string;
  channelsKey: string;
  /** Ids that exist only in this space. */
  event: string;
  ticket: string;
  listingId: string;
  channelListing: string;
}

async function buildSpace(label: Space['label'], partnerId: string, key: string, channelsKey: string): Promise<Space> {
  const event = `ONLY-${label}`;
  const ticket = `T-${label}`;
  // The same partner ids in both spaces too: each space has its own, so neither collides.
  for (const ref of [event, 'SHARED']) await pushEvent(key, ref, [testShow('1', { date })]);
  const rules = await callRoute(applyRules as Handler, '/v1/events/rules', key, {
    method: 'POST',
    body: [
      {
        externalReferenceEventId: event,
        ruleType: 'PRICE_LIMITS',
        rules: { minPercentOfFace: 50, maxPercentOfFace: 150 },
      },
    ],
  });
  expect(rules.status, JSON.stringify(rules.body)).toBe(200);
  const tickets = ['T-shared', ticket, `${ticket}-2`].map((ticketId, i) => ({
    externalReferenceEventId: i === 0 ? 'SHARED' : event,
    showId: '1',
    ticketOptionId: 'GA',
    ticketId,
    buyer: SELLER,
    ticketAccess: { type: 'OTHER', locator: 'x' },
    price: 40,
  }));
  const synced = await syncTickets(key, tickets);
  expect(synced.status, JSON.stringify(synced.body)).toBe(200);
  const listing = await createListing({ partnerId, sellerEmail: SELLER, ticketIds: [ticket], price: '40' }, getDb());
  const intention = await callRoute(buyIntention as Handler, '/v1/marketplace/buyingflow/buyIntention', key, {
    method: 'POST',
    body: { items: [listing.id], user: `buyer-${label}@example.com` },
  });
  expect(intention.status, JSON.stringify(intention.body)).toBe(200);
  const lead = await callRoute(saveLead as Handler, '/v1/marketdata/ticket-leads', key, {
    method: 'POST',
    body: {
      type: 'WISHLIST',
      externalReferenceEventId: event,
      showId: '1',
      buyer: { email: `lead-${label}@example.com` },
    },
  });
  expect(lead.status, JSON.stringify(lead.body)).toBe(200);
  const inventory = await callRoute(putInventory as Handler, `/v1/marketdata/events/${event}/inventory`, key, {
    method: 'PUT',
    body: { capacity: 100, releasedTickets: 90 },
    params: { externalReferenceId: event },
  });
  expect(inventory.status, JSON.stringify(inventory.body)).toBe(200);
  const channelListing = `CH-${label}`;
  const pair = await callRoute(putChannelListing as Handler, `/v1/channels/listings/${channelListing}`, channelsKey, {
    method: 'PUT',
    body: { eventId: event, showId: '1', ticketOptionId: 'GA', quantity: 2, price: 40, currency: 'EUR' },
    params: { listingId: channelListing },
  });
  expect(pair.status, JSON.stringify(pair.body)).toBe(200);
  await staff.webhooks.endpoint.upsert({ partnerId, url: 'http://127.0.0.1:9/hooks', enabled: false });
  await staff.webhooks.messages.sendTest({ partnerId });
  return { label, partnerId, key, channelsKey, event, ticket, listingId: listing.id, channelListing };
}

let live: Space;
let test: Space;
let keys: Awaited<ReturnType<typeof makePartner>>;

beforeAll(async () => {
  keys = await makePartner('Test mode');
  expect(keys.testPartner).toMatchObject({ mode: 'test', livePartnerId: keys.partner.id });
  live = await buildSpace('live', keys.partner.id, keys.apiKey, keys.channelsApiKey);
  test = await buildSpace('test', keys.testPartner.id, keys.testApiKey, keys.testChannelsApiKey);
}, 60_000);

/** Both directions: what `owner` made is unknown to `other`. */
const directions = () =>
  [
    [test, live],
    [live, test],
  ] as const;

describe('test keys', () => {
  it('are sk_test_… and sk_test_ch_…, of the twin, and /v1/me says the mode', async () => {
    expect(keys.apiKey).toMatch(/^sk_live_/);
    expect(keys.channelsApiKey).toMatch(/^sk_ch_/);
    expect(keys.testApiKey).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    expect(keys.testChannelsApiKey).toMatch(/^sk_test_ch_[A-Za-z0-9]{32}$/);
    expect([keys.testApiKey, keys.testChannelsApiKey].map(kindOfKey)).toEqual(['partner', 'channels']);
    expect([keys.apiKey, keys.channelsApiKey, keys.testApiKey, keys.testChannelsApiKey].map(modeOfKey)).toEqual([
      'live',
      'live',
      'test',
      'test',
    ]);
    for (const [key, partnerId, mode] of [
      [keys.apiKey, keys.partner.id, 'live'],
      [keys.testApiKey, keys.testPartner.id, 'test'],
    ] as const) {
      const res = await callRoute(me as Handler, '/v1/me', key);
      expect(res.body.data).toMatchObject({ partnerId, mode, keyKind: 'partner', keyPrefix: key.slice(0, 14) });
    }
    const ch = await callRoute(channelsMe as Handler, '/v1/channels/me', keys.testChannelsApiKey);
    expect(ch.body.data).toMatchObject({ partnerId: keys.testPartner.id, mode: 'test', keyKind: 'channels' });
    // A test channels key is a channels key: the partner API refuses it (and the Channels API a test partner key).
    expect((await callRoute(me as Handler, '/v1/me', keys.testChannelsApiKey)).status).toBe(403);
    expect((await callRoute(channelsMe as Handler, '/v1/channels/me', keys.testApiKey)).status).toBe(403);
  });

  it('opens nothing when the prefix and the partner disagree on the mode', async () => {
    // A key whose secret says live, stored for the test partner (and the reverse): never accepted.
    for (const [partnerId, secret] of [
      [keys.testPartner.id, `sk_live_${'M'.repeat(32)}${Date.now()}`],
      [keys.partner.id, `sk_test_${'M'.repeat(32)}${Date.now()}`],
    ]) {
      await getDb().execute(sql`insert into api_keys (id, partner_id, kind, prefix, hash)
        values (${`key_mismatch_${partnerId}`}, ${partnerId}, 'partner', ${secret.slice(0, 14)}, ${sha256Hex(secret)})`);
      forgetCheckedKeys();
      expect(await authenticateApiKey(secret, getSql())).toBeNull();
      expect((await callRoute(me as Handler, '/v1/me', secret)).status).toBe(401);
    }
  });

  it('stop working when the live partner is disabled', async () => {
    const other = await makePartner('Disabled twin');
    await staff.partners.setDisabled({ partnerId: other.partner.id, disabled: true });
    expect((await callRoute(me as Handler, '/v1/me', other.testApiKey)).status).toBe(403);
  });
});

describe('isolation, both directions, per operation family', () => {
  it('catalogue: events and rules', async () => {
    for (const [owner, other] of directions()) {
      const put = await callRoute(updateEvent as Handler, '/v1/events', other.key, {
        method: 'PUT',
        body: { externalReferenceId: owner.event, title: 'x' },
      });
      expect(put.status, `${other.label} updating ${owner.label}'s event`).toBe(404);
      const cancel = await callRoute(cancelEvent as Handler, `/v1/events/${owner.event}/cancellation`, other.key, {
        method: 'POST',
        params: { externalReferenceId: owner.event },
      });
      expect(cancel.status).toBe(404);
      const rules = await callRoute(applyRules as Handler, '/v1/events/rules', other.key, {
        method: 'POST',
        body: [
          {
            externalReferenceEventId: owner.event,
            ruleType: 'PRICE_LIMITS',
            rules: { minPercentOfFace: 50, maxPercentOfFace: 150 },
          },
        ],
      });
      expect(rules.status).toBe(404);
    }
  });

  it('tickets', async () => {
    for (const [owner, other] of directions()) {
      const url = await callRoute(secureUrl as Handler, `/v1/tickets/${owner.ticket}/url`, other.key, {
        params: { ticketId: owner.ticket },
      });
      expect(url.status).toBe(404);
      expect((await putTicket(other.key, owner.ticket, { price: 41 })).status).toBe(404);
      expect((await admit(other.key, owner.ticket)).status).toBe(404);
      expect((await deleteTicket(other.key, `${owner.ticket}-2`)).status).toBe(404);
      // Its owner still has both.
      const mine = await callRoute(secureUrl as Handler, `/v1/tickets/${owner.ticket}-2/url`, owner.key, {
        params: { ticketId: `${owner.ticket}-2` },
      });
      expect(mine.status).toBe(200);
    }
  });

  it('marketplace: URLs, listings and buy intentions', async () => {
    for (const [owner, other] of directions()) {
      const q = `externalReferenceEventId=${owner.event}&showId=1&returnTo=https://example.com`;
      const buying = await callRoute(
        buyingFlowUrl as Handler,
        `/v1/marketplace/buyingflow/url/entrypoint?${q}`,
        other.key,
      );
      expect(buying.status).toBe(404);
      const selling = await callRoute(
        sellingFlowUrl as Handler,
        `/v1/marketplace/sellingflow/url/entrypoint?ticketId=${owner.ticket}-2&returnTo=https://example.com`,
        other.key,
      );
      expect(selling.status).toBe(404);
      const listed = await callRoute(
        listedTickets as Handler,
        `/v1/marketplace/items/events/${owner.event}/listedTickets?showId=1`,
        other.key,
        { params: { eventId: owner.event } },
      );
      expect(listed.status).toBe(404);
      const byTicket = await callRoute(
        listingByTicket as Handler,
        `/v1/marketplace/listings/ticket/${owner.ticket}?sellerEmail=${SELLER}`,
        other.key,
        { params: { ticketId: owner.ticket } },
      );
      expect(byTicket.status).toBe(404);
      const checkout = await callRoute(checkoutUrl as Handler, '/v1/marketplace/checkout/url', other.key, {
        method: 'POST',
        body: { listingIds: [owner.listingId] },
      });
      expect(checkout.status).toBe(404);
      const intention = await callRoute(buyIntention as Handler, '/v1/marketplace/buyingflow/buyIntention', other.key, {
        method: 'POST',
        body: { items: [owner.listingId], user: 'x@example.com' },
      });
      expect(intention.status).toBe(404);
      // The owner sees its own listing.
      const own = await callRoute(
        listedTickets as Handler,
        `/v1/marketplace/items/events/${owner.event}/listedTickets?showId=1`,
        owner.key,
        { params: { eventId: owner.event } },
      );
      expect(own.status).toBe(200);
    }
  });

  it('market data: leads and inventory', async () => {
    for (const [owner, other] of directions()) {
      const inventory = await callRoute(
        putInventory as Handler,
        `/v1/marketdata/events/${owner.event}/inventory`,
        other.key,
        {
          method: 'PUT',
          body: { capacity: 1 },
          params: { externalReferenceId: owner.event },
        },
      );
      expect(inventory.status).toBe(404);
      const leads = (await listLeads({ partnerId: other.partnerId }, getDb())).items.map((l) => l.buyerEmail);
      expect(leads).toContain(`lead-${other.label}@example.com`);
      expect(leads).not.toContain(`lead-${owner.label}@example.com`);
    }
  });

  it('Channels API', async () => {
    for (const [owner, other] of directions()) {
      const params = { listingId: owner.channelListing };
      const path = `/v1/channels/listings/${owner.channelListing}`;
      expect((await callRoute(getChannelListing as Handler, path, other.channelsKey, { params })).status).toBe(404);
      const del = await callRoute(deleteChannelListing as Handler, path, other.channelsKey, {
        method: 'DELETE',
        params,
      });
      expect(del.status).toBe(404);
      const list = await callRoute(listChannelListings as Handler, '/v1/channels/listings', other.channelsKey);
      const ids = (list.body.data.items as { listingId: string }[]).map((i) => i.listingId);
      expect(ids).toEqual([other.channelListing]);
      expect((await callRoute(getChannelListing as Handler, path, owner.channelsKey, { params })).status).toBe(200);
    }
  });

  it('webhooks: endpoints and messages', async () => {
    for (const [owner, other] of directions()) {
      const theirs = await staff.webhooks.messages.list({ partnerId: other.partnerId });
      const ours = await staff.webhooks.messages.list({ partnerId: owner.partnerId });
      const ids = new Set(theirs.items.map((m) => m.id));
      expect(ours.items.length).toBeGreaterThan(0);
      expect(ours.items.filter((m) => ids.has(m.id))).toEqual([]);
      for (const m of ours.items) {
        await expect(
          staff.webhooks.messages.get({ partnerId: other.partnerId, messageId: m.id }),
        ).rejects.toMatchObject({
          code: 'NOT_FOUND',
        });
      }
    }
    // Each space has its own endpoint: changing the test one leaves the live one alone.
    await staff.webhooks.endpoint.upsert({
      partnerId: test.partnerId,
      url: 'http://127.0.0.1:8/test-hooks',
      enabled: false,
    });
    expect((await staff.webhooks.endpoint.get({ partnerId: live.partnerId }))?.url).toBe('http://127.0.0.1:9/hooks');
  });

  it("staff's cross-partner views: the overview's partners are live ones, search marks test data", async () => {
    const { partners } = await overviewFilterOptions(undefined, getDb());
    const ids = partners.map((p) => p.id);
    expect(ids).toContain(live.partnerId);
    expect(ids).not.toContain(test.partnerId);
    // The same ticketId in both spaces: two hits, the test one named as such.
    const found = await opsSearch({ q: 'T-shared' }, getDb());
    if (found.kind === 'email') throw new Error('searched as an e-mail');
    const names = Object.fromEntries(
      found.tickets
        .filter((t) => [live.partnerId, test.partnerId].includes(t.partnerId))
        .map((t) => [t.partnerId, t.partnerName]),
    );
    expect(names).toEqual({
      [live.partnerId]: keys.partner.name,
      [test.partnerId]: `${keys.partner.name} (test mode)`,
    });
  });

  it('the staff list shows live partners only; the twin is found from its live partner', async () => {
    const { items } = await staff.partners.list({ search: keys.partner.name });
    expect(items.map((p) => p.id)).toEqual([keys.partner.id]);
    expect((await staff.partners.testMode.get({ partnerId: keys.partner.id }))?.id).toBe(keys.testPartner.id);
    expect(await staff.partners.testMode.get({ partnerId: keys.testPartner.id })).toBeNull();
    expect((await testPartnerOf(keys.partner.id, getDb()))?.id).toBe(keys.testPartner.id);
  });
});

describe('payments in test mode', () => {
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await FakeStripe.start();
  });
  afterAll(() => stripe.stop());

  it('always use the sandbox, even with PAYMENTS_PROVIDER=stripe', async () => {
    const pay = (partnerId: string) =>
      startPayment(
        partnerId,
        {
          purpose: 'test',
          reference: `ref-${Date.now()}-${Math.random()}`,
          description: 'Test',
          amountMinor: 1000,
          currency: 'EUR',
          buyerEmail: 'fan@example.com',
        },
        getDb(),
      );
    const testPayment = await pay(test.partnerId);
    expect(testPayment.payment.provider).toBe('sandbox');
    expect(testPayment.url).toMatch(/\/pay\//);
    const livePayment = await pay(live.partnerId);
    expect(livePayment.payment.provider).toBe('stripe');
    expect(livePayment.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    // The test space's sellers' payout accounts are the sandbox's too, and found with the sandbox.
    const { account } = await setUpPayoutAccount(
      test.partnerId,
      {
        sellerEmail: SELLER,
        returnUrl: 'https://example.com',
      },
      getDb(),
    );
    expect(account.provider).toBe('sandbox');
    expect((await getPayoutAccount(test.partnerId, SELLER, getDb()))?.id).toBe(account.id);
  });
});

/**
 * Rows per table holding `partnerId` (every table with a partner_id column; views over them, which owners
 * define for others' SQL, hold no rows of their own), plus the tickets' history.
 */
async function rowsOf(partnerId: string): Promise<Record<string, number>> {
  const tables = await getDb().execute<{ table_name: string }>(sql`
    select c.table_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.column_name = 'partner_id' and c.table_schema = 'public' and t.table_type = 'BASE TABLE'
    order by c.table_name`);
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    if (table_name === 'audit_log') continue; // append-only: it keeps its rows
    const [{ n }] = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from ${sql.identifier(table_name)} where partner_id = ${partnerId}`,
    );
    counts[table_name] = n;
  }
  for (const [name, parent] of [
    ['ticket_events', sql`ticket_events x join tickets p on p.id = x.ticket_pk`],
    ['ticket_previous_links', sql`ticket_previous_links x join tickets p on p.id = x.ticket_pk`],
    ['ticket_batch_errors', sql`ticket_batch_errors x join ticket_batches p on p.id = x.batch_id`],
    ['lead_notifications', sql`lead_notifications x join leads p on p.id = x.lead_id`],
  ] as const) {
    const [{ n }] = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from ${parent} where p.partner_id = ${partnerId}`,
    );
    counts[name] = n;
  }
  return counts;
}

/** The settings a wipe keeps: rows of these tables stay. */
const KEPT = ['api_keys', 'channels', 'partner_integrations', 'webhook_endpoints', 'market_settings'];

describe('wiping test data', () => {
  it('refuses a live partner: the guard is the first statement, and nothing is deleted', async () => {
    const before = await rowsOf(live.partnerId);
    await expect(getDb().transaction((tx) => wipeTestData(live.partnerId, tx))).rejects.toMatchObject({
      status: 400,
    });
    await expect(getDb().transaction((tx) => lockTestPartnerForWipe(live.partnerId, tx))).rejects.toThrow(
      /test partner/,
    );
    await expect(staff.partners.testMode.wipe({ testPartnerId: live.partnerId })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(await rowsOf(live.partnerId)).toEqual(before);
  });

  it('deletes every row of the test space and not one live row; the twin and its keys stay', async () => {
    const liveBefore = await rowsOf(live.partnerId);
    const testBefore = await rowsOf(test.partnerId);
    // The test space had data in every family.
    for (const table of [
      'events',
      'tickets',
      'listings',
      'buy_intentions',
      'payments',
      'leads',
      'inventories',
      'channel_listings',
      'webhook_messages',
    ])
      expect(testBefore[table], table).toBeGreaterThan(0);

    const counts = await staff.partners.testMode.wipe({ testPartnerId: test.partnerId });
    expect(counts.events).toBe(testBefore.events);
    expect(counts.tickets).toBe(testBefore.tickets);

    const testAfter = await rowsOf(test.partnerId);
    for (const [table, n] of Object.entries(testAfter)) {
      if (KEPT.includes(table)) continue;
      expect(n, `${table} rows left in the test space`).toBe(0);
    }
    expect(testAfter.api_keys).toBe(testBefore.api_keys);
    expect(testAfter.channels).toBe(testBefore.channels);
    expect(await rowsOf(live.partnerId)).toEqual(liveBefore);

    // The keys still work, on an empty space; the live key still finds its event.
    const gone = await callRoute(secureUrl as Handler, `/v1/tickets/${test.ticket}/url`, test.key, {
      params: { ticketId: test.ticket },
    });
    expect(gone.status).toBe(404);
    expect((await callRoute(me as Handler, '/v1/me', test.key)).body.data.mode).toBe('test');
    const kept = await callRoute(secureUrl as Handler, `/v1/tickets/${live.ticket}/url`, live.key, {
      params: { ticketId: live.ticket },
    });
    expect(kept.status).toBe(200);
    // The audit log records it, on the twin.
    const { items } = await staff.audit.list({ partnerId: test.partnerId, action: 'test_data.wiped', limit: 1 });
    expect(items[0]).toMatchObject({ actorLabel: 'test-mode@encore.test', after: { events: testBefore.events } });
  });
});
