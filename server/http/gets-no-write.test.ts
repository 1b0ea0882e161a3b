import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as ticketsPost } from '@/app/v1/tickets/route';
import { PUT as channelListingPut } from '@/app/v1/channels/listings/[listingId]/route';
import { type Db, getDb } from '@/db';
import * as schema from '@/db/schema';
import { eventPageInfo, getEventTitle } from '@/server/modules/catalog';
import { currentFanSession, issueOneTimeToken, oneTimeTokenKey, startFanSession } from '@/server/modules/fans';
import { notificationLead, showInventories } from '@/server/modules/market-data';
import {
  buyerPromiseFacts,
  createBuyIntention,
  createListing,
  intentionPromiseFacts,
  resaleEntryPage,
  secureView,
  secureViewWithoutCode,
  sellerListing,
  sellerListingPage,
  sellerPayoutFacts,
  sellFlow,
  sellPage,
  supportFacts,
  unlistAsSeller,
} from '@/server/modules/marketplace';
import {
  buyerCheckout,
  buyerIntention,
  buyPage,
  buyPageModel,
  buyPageVersionAt,
  fanBrandOf,
  listingPage,
  namedTicketOnSale,
  paymentOrder,
  seatMapDocument,
  sharedBuyPage,
} from '@/server/modules/fan-pages';
import { createApiKey, createChannel, getPartner, modeOfPartner, publishableKeyOf } from '@/server/modules/partners';
import { sandboxCheckout, sandboxOnboarding } from '@/server/modules/payments';
import { protectionOf } from '@/server/modules/protection';
import { secureTicketPage } from '@/server/modules/tickets';
import { flushTouches } from '@/server/lib/deferred-touch';
import { forgetWidgetLayersOfChangedListings } from '@/server/modules/access-layer';
import { callRoute } from '@/server/testing/fixtures';
import { recordJobs } from '@/server/testing/jobs';
import { sellerMarket } from '@/server/testing/market';
import { v1HandlerFile } from '@/server/testing/v1-routes';
import { CLIENT_ADDRESS_HEADER } from './client-address';
import { buildOpenApiDocument } from './openapi';
import { allRoutes } from './registry';

/*
 * No GET of a fan page or of /v1 issues a write: checked for every GET of the partner API (the registry,
 * through the OpenAPI document generated from it) and every data function the fan pages call.
 * Each runs with the process's database handle swapped for a pool whose sessions are read-only
 * (`default_transaction_read_only`): PostgreSQL itself refuses any write (INSERT, UPDATE, DELETE, a
 * sequence's nextval, SELECT … FOR UPDATE) with an error, which turns the answer into a 500 or the call
 * into a rejection. Every statement sent on that pool is also recorded at the wire (postgres.js `debug`,
 * so raw SQL and transactions count too) and must hold no write; and no job may be sent (a queue write).
 * A key's last use and a fan session's last page view are stamps written later by a timer
 * (server/lib/deferred-touch.ts), outside the request: the test writes them before and after each call.
 * The one GET that writes by contract (`GET /v1/auth/oneTimeToken` mints a single-use token) is named
 * below and held to writing that token alone.
 */

const WRITE =
  /\b(insert\s+into|update\s+("?\w+"?\.)?"?\w+"?\s+set|delete\s+from|merge\s+into|truncate|copy\s+\S+\s+from|nextval\s*\(|setval\s*\(|for\s+(no\s+key\s+)?update|for\s+(key\s+)?share|select\s+[^;]*?\binto\s+(temp|unlogged|table)\b|pg_advisory_(xact_)?lock)\b/i;

/**
 * GETs whose contract is to write, with the call that does and the only statements it may send that write:
 * a single-use sign-in token minted for the partner (`GET /v1/auth/oneTimeToken` always; the buying flow's
 * entrypoint when the partner vouches for the fan with `loginTrust[user]`; the resale entry with `autologin=true`).
 * Without it, that GET reads only.
 */
const WRITES_BY_CONTRACT: Record<string, { query: () => string; writes: RegExp }> = {
  'GET /v1/auth/oneTimeToken': { query: () => `user=${BUYER}`, writes: /^insert into "one_time_tokens"/i },
  'GET /v1/marketplace/buyingflow/url/entrypoint': {
    query: () =>
      `externalReferenceEventId=${f.ref}&showId=1&returnTo=${encodeURIComponent(RETURN_TO)}&loginTrust[withMethod]=email&loginTrust[user]=${BUYER}`,
    writes: /^insert into "one_time_tokens"/i,
  },
  // `<encore-sell>`'s read: the fan's token is read, not spent; `autologin=true` mints the links' tokens alone.
  'GET /v1/wrapper/accesslayer/resale-entry': {
    query: () => `token=${f.fanToken}&autologin=true&lang=es`,
    writes: /^insert into "one_time_tokens"/i,
  },
};

type Handle = { url: string; sql: postgres.Sql; db: Db };
const g = globalThis as typeof globalThis & { __encoreDb?: Handle };

let readOnly: Handle;
const statements: string[] = [];
let jobs: ReturnType<typeof recordJobs>;

beforeAll(async () => {
  // What boot reads before serving (server/boot.ts): the one-time tokens' key, generated once per deployment.
  await oneTimeTokenKey();
  jobs = recordJobs();
  const url = process.env.DATABASE_URL!;
  const sql = postgres(url, {
    max: 4,
    onnotice: () => {},
    prepare: false,
    connection: { application_name: 'encore-read-only-test', default_transaction_read_only: true, jit: 'off' },
    debug: (_connection, query) => statements.push(query),
  });
  readOnly = { url, sql, db: drizzle(sql, { schema, casing: 'snake_case' }) };
});
afterAll(async () => {
  jobs.restore();
  await readOnly.sql.end({ timeout: 5 });
});

/** Runs `read` with the process's handle on the read-only pool; answers its value and the statements it sent. */
async function readOnlyRun<T>(read: (db: Db) => Promise<T>): Promise<{ value: T; sent: string[]; jobsSent: number }> {
  await flushTouches();
  const original = g.__encoreDb!;
  expect(original.url).toBe(readOnly.url);
  statements.length = 0;
  const jobsBefore = jobs.sent.length;
  g.__encoreDb = readOnly;
  try {
    const value = await read(readOnly.db);
    return { value, sent: [...statements], jobsSent: jobs.sent.length - jobsBefore };
  } finally {
    g.__encoreDb = original;
    await flushTouches();
  }
}

const writesIn = (sent: string[]) => sent.filter((s) => WRITE.test(s));

interface Fixture {
  partnerId: string;
  key: string;
  ref: string;
  channelKey: string;
  channelListingId: string;
  batchId: string;
  listingId: string;
  heldListingId: string;
  intentionId: string;
  eventPk: string;
  showPk: string;
  ticketPk: string;
  secureToken: string;
  fanCookie: string;
  /** A one-time token for the seller (read by the resale entry, never spent). */
  fanToken: string;
}

const SELLER = 'gets-seller@example.com';
const BUYER = 'gets-buyer@example.com';
const RETURN_TO = 'https://partner.example/back';
let f: Fixture;

beforeAll(async () => {
  const m = await sellerMarket({
    seller: SELLER,
    name: 'Gets',
    tickets: [{ ticketId: 'T1' }, { ticketId: 'T2' }, { ticketId: 'T3' }, { ticketId: 'T4', orderId: 'ORD-1' }],
  });
  const db = getDb();
  const list = (ticketId: string) =>
    createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: [ticketId], price: 40 }, db);
  const listing = await list('T1');
  const held = await list('T2');
  const intention = await createBuyIntention(m.partnerId, { items: [held.id], user: BUYER }, getDb());
  const channel = await createChannel({ partnerId: m.partnerId, name: 'Gets hub' }, db);
  const { secret: channelKey } = await createApiKey(
    { partnerId: m.partnerId, kind: 'channels', channelId: channel.id },
    db,
  );
  const put = await callRoute(channelListingPut, '/v1/channels/listings/CL1', channelKey, {
    method: 'PUT',
    params: { listingId: 'CL1' },
    body: {
      eventId: m.ref,
      showId: '1',
      ticketOptionId: 'GA',
      price: 45,
      currency: 'EUR',
      soldWhole: true,
      seats: [{ ticketId: 'X1' }],
    },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  const batch = await callRoute(ticketsPost, '/v1/tickets', m.key, {
    method: 'POST',
    body: [
      {
        externalReferenceEventId: m.ref,
        showId: '1',
        ticketId: 'B1',
        ticketOptionId: 'GA',
        buyer: SELLER,
        ticketAccess: { type: 'OTHER', locator: 'b1' },
      },
    ],
  });
  expect(batch.status).toBe(200);
  const [t3] = await getDb()
    .select({
      id: schema.tickets.id,
      showPk: schema.tickets.showPk,
      eventPk: schema.tickets.eventPk,
      token: schema.tickets.secureToken,
    })
    .from(schema.tickets)
    .where(and(eq(schema.tickets.partnerId, m.partnerId), eq(schema.tickets.ticketId, 'T3')));
  f = {
    partnerId: m.partnerId,
    key: m.key,
    ref: m.ref,
    channelKey,
    channelListingId: 'CL1',
    batchId: batch.body.data.batchId,
    listingId: listing.id,
    heldListingId: held.id,
    intentionId: intention.id,
    eventPk: t3.eventPk,
    showPk: t3.showPk,
    ticketPk: t3.id,
    secureToken: t3.token,
    fanCookie: await startFanSession(m.partnerId, SELLER, db),
    fanToken: await issueOneTimeToken(m.partnerId, SELLER, 'email', db),
  };
});

interface ValidGet {
  path?: Record<string, string>;
  query?: string;
  /** Called with the channel's key (the Channels API), else the partner's. */
  channels?: boolean;
  /** The status it answers (200 unless said): a valid call that reaches the database. */
  status?: number;
  /** Always writes by contract (WRITES_BY_CONTRACT): no read-only call. */
  mintsOnly?: boolean;
  /** Answered from the key check alone (remembered per process for a few seconds): no statement. */
  keyOnly?: boolean;
}

/** A valid call of each GET of the registry (path parameters and query), for the fixture above. */
function validGet(op: string): ValidGet | undefined {
  const calls: Record<string, ValidGet> = {
    'GET /v1/me': { keyOnly: true },
    'GET /v1/openapi.json': { keyOnly: true },
    'GET /v1/tickets/batches/{batchId}': { path: { batchId: f.batchId } },
    'GET /v1/tickets/{ticketId}/url': { path: { ticketId: 'T3' } },
    'GET /v1/events/tickets/salePublicUrl': { query: 'ticketId=T1&lang=es' },
    'GET /v1/marketplace/buyingflow/url/entrypoint': {
      query: `externalReferenceEventId=${f.ref}&showId=1&lang=en&returnTo=${encodeURIComponent(RETURN_TO)}`,
    },
    'GET /v1/marketplace/sellingflow/url/entrypoint': { query: 'ticketId=T3&lang=en' },
    'GET /v1/marketplace/sellingflow/url/order/entrypoint': { query: 'orderId=ORD-1' },
    'GET /v1/marketplace/sellingflow/details/url': { query: `ticketId=T1&sellerEmail=${SELLER}` },
    'GET /v1/marketplace/listings/ticket/{ticketId}': { path: { ticketId: 'T1' }, query: `sellerEmail=${SELLER}` },
    'GET /v1/marketplace/items/events/{eventId}/listedTickets': { path: { eventId: f.ref }, query: 'showId=1' },
    'GET /v1/auth/oneTimeToken': { mintsOnly: true },
    'GET /v1/wrapper/accesslayer': { query: `type=buy&eventId=${f.ref}&showId=1&lang=es` },
    'GET /v1/wrapper/accesslayer/resale-entry': { query: `token=${f.fanToken}&lang=es` },
    'GET /v1/channels/me': { channels: true, keyOnly: true },
    'GET /v1/channels/listings/{listingId}': { path: { listingId: f.channelListingId }, channels: true },
    'GET /v1/channels/listings': { query: `eventId=${f.ref}&status=ACTIVE`, channels: true },
    'GET /v1/channels/sales': { query: 'page=1&pageSize=10', channels: true },
    'GET /v1/channels/sales/{saleId}': { path: { saleId: 'chs_missing' }, channels: true, status: 404 },
  };
  return calls[op];
}

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

const doc = buildOpenApiDocument(allRoutes) as unknown as { paths: Record<string, Record<string, unknown>> };
const gets = Object.entries(doc.paths)
  .filter(([, ops]) => 'get' in ops)
  .map(([p]) => p);

describe('no GET of /v1 writes', () => {
  it('the harness catches a write: a read-only session refuses it and the recorder sees it', async () => {
    const attempt = readOnlyRun((db) =>
      db.insert(schema.oneTimeTokens).values({
        tokenHash: 'x'.repeat(64),
        partnerId: f.partnerId,
        email: 'nobody@example.com',
        method: 'email',
        expiresAt: new Date(Date.now() + 60_000),
      }),
    );
    await expect(attempt).rejects.toMatchObject({ cause: { code: '25006' } });
    expect(writesIn(statements)).toHaveLength(1);
  });

  it('covers every GET of the registry', () => {
    expect(gets.length).toBeGreaterThan(15);
    for (const p of gets) expect(validGet(`GET ${p}`), `a valid call of GET ${p}`).toBeDefined();
  });

  /** The GET's handler called with `call`'s path and `query` and the right key; answers the response. */
  async function send(template: string, call: ValidGet, query: string | undefined): Promise<Response> {
    const mod = (await import(v1HandlerFile(template))) as Record<string, Handler>;
    const pathPart = template.replace(/\{(\w+)\}/g, (_m, n: string) => encodeURIComponent(call.path![n]));
    const url = `http://encore.test${pathPart}${query ? `?${query}` : ''}`;
    return mod.GET(new Request(url, { headers: { authorization: call.channels ? f.channelKey : f.key } }), {
      params: Promise.resolve(call.path ?? {}),
    });
  }

  it.each(gets)('GET %s reads only', async (template) => {
    const op = `GET ${template}`;
    const call = validGet(op)!;
    // Warm the process's short caches (the key check), as any instance under load has them.
    await (await send(template, call, call.query)).arrayBuffer();
    if (!call.mintsOnly) {
      const { value: res, sent, jobsSent } = await readOnlyRun(() => send(template, call, call.query));
      const text = await res.text();
      expect(res.status, `${op} → ${res.status} ${text.slice(0, 300)}`).toBe(call.status ?? 200);
      if (!call.keyOnly) expect(sent.length, `${op} read the database`).toBeGreaterThan(0);
      expect(writesIn(sent), op).toEqual([]);
      expect(jobsSent, `${op} sent jobs`).toBe(0);
    }
    const minting = WRITES_BY_CONTRACT[op];
    if (minting) {
      // It writes by contract: on a writable pool, recorded, and only what the contract says.
      const recorded: string[] = [];
      const recorder = postgres(readOnly.url, {
        max: 2,
        onnotice: () => {},
        prepare: false,
        debug: (_c, q) => recorded.push(q),
      });
      const original = g.__encoreDb!;
      g.__encoreDb = { url: original.url, sql: recorder, db: drizzle(recorder, { schema, casing: 'snake_case' }) };
      try {
        expect((await send(template, call, minting.query())).status).toBe(200);
      } finally {
        g.__encoreDb = original;
        await recorder.end({ timeout: 5 });
      }
      const writes = writesIn(recorded);
      expect(writes.length).toBeGreaterThan(0);
      for (const w of writes) expect(w.trim(), op).toMatch(minting.writes);
    }
  });
});

describe('the widget’s read with a publishable key', () => {
  let pk: string;
  beforeAll(async () => {
    pk = (await publishableKeyOf(f.partnerId, getDb()))!.key;
  });
  const widgetGet = async () => {
    const { GET } = (await import('@/app/v1/wrapper/accesslayer/route')) as unknown as Record<string, Handler>;
    return GET(
      new Request(`http://encore.test/v1/wrapper/accesslayer?type=buy&eventId=${f.ref}&showId=1&lang=es`, {
        headers: {
          authorization: `Bearer ${pk}`,
          origin: 'https://shop.example',
          [CLIENT_ADDRESS_HEADER]: '192.0.2.9',
        },
      }),
      { params: Promise.resolve({}) },
    );
  };

  it('writes nothing (its limit is counted in memory), and concurrent calls share one read of the answer', async () => {
    // Warm the key check, then measure one read of the answer alone.
    expect((await widgetGet()).status).toBe(200);
    forgetWidgetLayersOfChangedListings();
    const one = await readOnlyRun(async () => (await widgetGet()).text());
    expect(JSON.parse(one.value).data.components.length).toBeGreaterThan(0);
    expect(one.sent.length).toBeGreaterThan(0);
    expect(writesIn(one.sent)).toEqual([]);
    // Twenty fans at once: one read between them (two at most, if the shared answer's second ran out
    // between the first and the last of them on a very busy machine), not twenty.
    forgetWidgetLayersOfChangedListings();
    const many = await readOnlyRun(() =>
      Promise.all(Array.from({ length: 20 }, async () => (await widgetGet()).text())),
    );
    expect(new Set(many.value)).toEqual(new Set([one.value]));
    expect(writesIn(many.sent)).toEqual([]);
    expect(many.sent.length).toBeLessThanOrEqual(2 * one.sent.length);
  });

  it('a listing write in this process is shown by the next call', async () => {
    const before = JSON.parse(await (await widgetGet()).text());
    const listed = await createListing(
      { partnerId: f.partnerId, sellerEmail: SELLER, ticketIds: ['T3'], price: 12 },
      getDb(),
    );
    try {
      const after = JSON.parse(await (await widgetGet()).text());
      const ids = (body: typeof before) =>
        body.data.components
          .find((c: { type: string }) => c.type === 'list')
          ?.list.items.map((i: { listingId: string }) => i.listingId) ?? [];
      expect(ids(before)).not.toContain(listed.id);
      expect(ids(after)).toContain(listed.id);
    } finally {
      await unlistAsSeller(f.partnerId, listed.id, SELLER, getDb());
    }
  });
});

/*
 * The fan pages: every data function a page under app/(market) (or the shell around it) awaits while it
 * renders, called as the page calls it. A test below reads the pages and fails when one calls a function
 * of a module that is not here (or named as writing on purpose).
 */

/** Fan-page data functions that write on purpose when the page is opened, and why. */
const FAN_PAGE_WRITES: Record<string, string> = {
  // /resale/[partnerId]: the fan came to sell; the page asks the partner which tickets the fan holds and
  // imports them (the partner's own answer, stored), before it lists them.
  syncForSale: 'imports the fan’s tickets the partner vouches for',
};

const fanPageReads: Record<string, (db: Db) => Promise<unknown>> = {
  buyPage: (db) => buyPage(f.eventPk, { show: f.showPk, sort: 'price_desc', quantity: 1 }, db),
  sharedBuyPage: (db) => sharedBuyPage(f.eventPk, { show: f.showPk, zone: 'none' }, db),
  buyPageModel: (db) => buyPageModel(f.eventPk, { show: f.showPk, ticket: f.ticketPk, page: '2' }, db),
  // Not a page's: Encore's HTTP server reads it to answer a shared cache's revalidation (shared-page-render.ts).
  buyPageVersionAt: async (db) => (await buyPageVersionAt(`/market/${f.eventPk}?lang=es&show=${f.showPk}`, db)) ?? '',
  secureTicketPage: (db) => secureTicketPage(f.secureToken, db),
  namedTicketOnSale: (db) => namedTicketOnSale(f.ticketPk, f.eventPk, db),
  getPartner: (db) => getPartner(f.partnerId, db),
  modeOfPartner: (db) => modeOfPartner(f.partnerId, db),
  showInventories: (db) => showInventories([f.showPk], db),
  buyerPromiseFacts: (db) => buyerPromiseFacts(f.showPk, db),
  currentFanSession: (db) => currentFanSession(f.fanCookie, db),
  fanBrandOf: (db) => fanBrandOf(null, f.partnerId, db),
  buyerCheckout: (db) => buyerCheckout([f.listingId, f.heldListingId], db),
  buyerIntention: (db) => buyerIntention(f.intentionId, db),
  intentionPromiseFacts: (db) => intentionPromiseFacts(f.intentionId, db),
  paymentOrder: (db) => paymentOrder(f.intentionId, db),
  listingPage: (db) => listingPage(f.listingId, db),
  sellerListing: (db) => sellerListing(f.listingId, SELLER, db),
  sellerListingPage: (db) => sellerListingPage(f.partnerId, f.listingId, SELLER, db),
  sellerPayoutFacts: (db) => sellerPayoutFacts(f.partnerId, f.showPk, f.listingId, db),
  eventPageInfo: (db) => eventPageInfo(f.eventPk, db),
  getEventTitle: (db) => getEventTitle(f.partnerId, f.ref, db),
  protectionOf: (db) => protectionOf(f.partnerId, db),
  supportFacts: (db) => supportFacts(f.partnerId, db),
  secureView: (db) => secureView(f.secureToken, new Date(), db),
  secureViewWithoutCode: (db) => secureViewWithoutCode(f.secureToken, db),
  sellPage: (db) => sellPage(f.ticketPk, db),
  sellFlow: async (db) => sellFlow((await sellPage(f.ticketPk, db))!, SELLER, false, db),
  resaleEntryPage: (db) => resaleEntryPage(f.partnerId, SELLER, { sync: false }, db),
  notificationLead: (db) => notificationLead(`lnt_${'0'.repeat(32)}`, db),
  // The seat map's own document (app/(market)/market/[eventId]/map/route.ts).
  seatMapDocument: (db) =>
    seatMapDocument(new URL(`http://encore.test/market/${f.eventPk}/map?show=${f.showPk}&lang=es`), db),
  sandboxCheckout: () => sandboxCheckout('pay_missing', getDb()),
  sandboxOnboarding: () => sandboxOnboarding('acc_missing', getDb()),
};

/** Functions the fan pages call that compute from what they are given (no database, no promise). */
const NOT_DATA = new Set([
  'buyPageVersion',
  'movingCodeKey',
  'quantitiesOf',
  'safeNextPath',
  'seatMapData',
  'seatText',
  'sectionLabeler',
  'sectionHref',
  'showOnSale',
  'sourcesOf',
]);

/**
 * The functions of server modules that the fan pages' server code calls: every page, layout, route and
 * server component under app/(market) and components/market ('use client' components and 'use server'
 * actions, the POSTs, left out).
 */
function fanPageCalls(): Set<string> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(e.name) && !/\.test\./.test(e.name)) files.push(full);
    }
  };
  walk(path.join(process.cwd(), 'app', '(market)'));
  walk(path.join(process.cwd(), 'components', 'market'));
  const called = new Set<string>();
  for (const file of files) {
    const source = fs.readFileSync(file, 'utf8');
    if (/^['"]use (client|server)['"];/m.test(source)) continue;
    for (const m of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@\/server\/modules\/[\w-]+'/g))
      for (const name of m[1].split(',')) {
        const n = name.trim().split(/\s+as\s+/)[0];
        if (/^[a-z]/.test(n) && new RegExp(`\\b${n}\\(`).test(source)) called.add(n);
      }
  }
  return called;
}

describe('no fan page reads with a write', () => {
  it('covers every module function the fan pages call', () => {
    const calls = [...fanPageCalls()];
    expect(calls.length).toBeGreaterThan(25);
    for (const n of calls)
      expect(
        n in fanPageReads || n in FAN_PAGE_WRITES || NOT_DATA.has(n),
        `${n} (called by a fan page) is proved here, or named as writing or as no data function`,
      ).toBe(true);
  });

  it.each(Object.keys(fanPageReads))('%s reads only', async (name) => {
    const { value, sent, jobsSent } = await readOnlyRun((db) => fanPageReads[name](db));
    expect(value, name).not.toBeUndefined();
    expect(writesIn(sent), name).toEqual([]);
    expect(jobsSent, `${name} sent jobs`).toBe(0);
  });
});
