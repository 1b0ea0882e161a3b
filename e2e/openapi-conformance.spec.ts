import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXAMPLE_ORDER } from '../server/testing/example-order';
import { connects, freePort } from '../server/testing/ports';
import { baseURL, createPartner, listTicket, RUN } from './helpers';

/**
 * The OpenAPI document is as strict as the API. Prism (`@stoplight/prism-cli`), a
 * validating proxy built from the document the server serves at /v1/openapi.json, stands in front of the
 * built server; every operation is called through it with the document's own worked examples (in the spec's
 * integration order, like server/http/examples.test.ts) and with calls the API refuses (400, 401, 403, 404,
 * 409, 413, 415, 422, 429). Prism reports what breaks the document in the header `sl-violations`, and the
 * test fails:
 *
 * - on any violation by an answer (a status, body or header the document does not allow);
 * - on a request violation of a call the API accepted (the document refuses what the API takes);
 * - when a call the API refuses for its shape passes the document (a rule the schemas do not say), unless the
 *   probe names the rule as one JSON Schema cannot say (docs/decisions.md keeps that list).
 *
 * Prism runs without `--errors`: with it, Prism answers a request it finds invalid itself (422) instead of
 * forwarding it, so the API's own 400 answers would never be checked against the document.
 * A path called with a method it does not list is checked without Prism (it has no operation to check it
 * against): 405 in the envelope, `Allow` naming exactly the document's methods for the path.
 */

interface Violation {
  location: string[];
  severity: string;
  message: string;
}

interface Probe {
  method: string;
  /** Path with its query string, as sent. */
  url: string;
  key?: string | null;
  body?: unknown;
  /** Sent as is instead of JSON (a body that is not JSON). */
  rawBody?: string;
  headers?: Record<string, string>;
  status: number;
  /**
   * Whether the document itself refuses the request. `true`: Prism must report a request violation. A string:
   * the API refuses it for a rule JSON Schema cannot say (data it stores, two fields compared, a size in
   * bytes…), so the document accepts it; the string says which.
   */
  refusedByDocument?: true | string;
}

interface Answer {
  status: number;
  body: { status?: number; data?: unknown; errors?: unknown } | null;
  headers: Headers;
  request: Violation[];
  response: Violation[];
}

type Operation = {
  operationId: string;
  security?: Record<string, unknown>[];
  parameters?: { name: string; in: string; example?: string }[];
  requestBody?: { content: { 'application/json': { examples?: { default: { value: unknown } } } } };
};
type OpenApi = { paths: Record<string, Record<string, Operation>> };

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

let prism: ChildProcess | undefined;
let prismUrl = '';
let docDir = '';
let doc: OpenApi;
let keys: { partnerId: string; apiKey: string; channelsApiKey: string };

function operations(): { path: string; method: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path: p, method: method.toUpperCase(), op })),
  );
}

function keyFor(op: Operation): string | null {
  const scheme = Object.keys(op.security?.[0] ?? {})[0];
  return scheme === 'ChannelsKey' ? keys.channelsApiKey : scheme ? keys.apiKey : null;
}

/** The example call of an operation: its path and query from the parameters' examples, its example body. */
function exampleCall(id: string, params: Record<string, string> = {}) {
  const found = operations().find((o) => o.op.operationId === id);
  if (!found) throw new Error(`no operation ${id} in the document`);
  const { op, method } = found;
  let url = found.path;
  const query = new URLSearchParams();
  for (const p of op.parameters ?? []) {
    const value = params[p.name] ?? p.example;
    if (value === undefined) continue;
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(value));
    if (p.in === 'query') query.set(p.name, value);
  }
  const qs = query.toString();
  return {
    method,
    url: qs ? `${url}?${qs}` : url,
    key: keyFor(op),
    body: op.requestBody?.content['application/json'].examples?.default.value,
  };
}

/** One call through Prism; the answer and the violations Prism found, split by side. */
async function viaPrism(p: Omit<Probe, 'status'>): Promise<Answer> {
  const headers: Record<string, string> = { ...p.headers };
  if (p.key) headers.authorization = p.key;
  let body: string | undefined = p.rawBody;
  if (body === undefined && p.body !== undefined) {
    body = JSON.stringify(p.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${prismUrl}${p.url}`, { method: p.method, headers, body });
  const text = await res.text();
  const reported = res.headers.get('sl-violations');
  if (reported?.startsWith('Too many violations!')) throw new Error(`${p.method} ${p.url}: ${reported}`);
  const violations = reported ? (JSON.parse(reported) as Violation[]) : [];
  let parsed: Answer['body'] = null;
  try {
    parsed = JSON.parse(text) as Answer['body'];
  } catch {
    parsed = null;
  }
  return {
    status: res.status,
    body: parsed,
    headers: res.headers,
    request: violations.filter((v) => v.location[0] === 'request'),
    response: violations.filter((v) => v.location[0] === 'response'),
  };
}

const said = (vs: Violation[]) => vs.map((v) => `${v.location.join('.')}: ${v.message}`);

/** A call and what the document must say of it (see the file's comment); soft, so one run lists every mismatch. */
async function check(p: Probe): Promise<Answer> {
  const answer = await viaPrism(p);
  const sent = p.body === undefined ? '' : ` ${JSON.stringify(p.body).slice(0, 160)}`;
  const what = `${p.method} ${p.url.slice(0, 120)}${sent}`;
  expect.soft(answer.status, `${what} answered ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(p.status);
  expect.soft(said(answer.response), `${what}: the answer breaks the document`).toEqual([]);
  if (p.refusedByDocument === true) {
    expect.soft(answer.request.length, `${what}: the API refuses it, the document does not`).toBeGreaterThan(0);
  } else {
    expect.soft(said(answer.request), `${what}: the document refuses what the API takes`).toEqual([]);
  }
  return answer;
}

/** The example call of `id`, answered 200 with no violation either side. */
async function example(id: string, params: Record<string, string> = {}, body?: unknown) {
  const call = exampleCall(id, params);
  const answer = await check({ ...call, ...(body !== undefined ? { body } : {}), status: 200 });
  return answer.body?.data as Record<string, unknown> & unknown[];
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const res = await fetch(`${baseURL}/v1/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as OpenApi;
  docDir = mkdtempSync(path.join(os.tmpdir(), 'encore-prism-'));
  const file = path.join(docDir, 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  const port = await freePort();
  const cli = path.join(process.cwd(), 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  // In this process (no forked server), so stopping it stops everything it started.
  const args = [cli, 'proxy', file, baseURL, '--host', '127.0.0.1', '--port', String(port), '--multiprocess=false'];
  prism = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  prism.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  prism.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const started = Date.now();
  while (!(await connects(port))) {
    if (prism.exitCode !== null || Date.now() - started > 30_000) throw new Error(`Prism did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  prismUrl = `http://127.0.0.1:${port}`;
  keys = await createPartner(`E2E Prism ${RUN}`);
});

test.afterAll(async () => {
  if (prism && prism.exitCode === null) {
    const exited = new Promise((r) => prism?.once('exit', r));
    prism.kill('SIGTERM');
    await exited;
  }
  if (docDir) rmSync(docDir, { recursive: true, force: true });
});

test('every operation’s worked example passes through Prism both ways', async () => {
  test.setTimeout(120_000);
  expect([...EXAMPLE_ORDER].sort()).toEqual(
    operations()
      .map((o) => o.op.operationId)
      .sort(),
  );
  let batchId = '';
  let listingId = '';
  let saleId = '';
  for (const id of EXAMPLE_ORDER) {
    if (id === 'getTicketBatch') {
      // The batch is imported by the server's job; its example is read once it completed.
      await expect
        .poll(async () => (await viaPrism({ ...exampleCall(id, { batchId }) })).body?.data, { timeout: 30_000 })
        .toMatchObject({ status: 'completed', failed: 0 });
      await example(id, { batchId });
      continue;
    }
    if (id === 'getBuyingFlowUrl') {
      // What the selling flow does for a fan: two tickets listed (Encore's ids, known only now).
      const seller = { partnerId: keys.partnerId, sellerEmail: 'ana.garcia@example.com' };
      listingId = (await listTicket({ ...seller, ticketId: 'T-0002', price: '85000' })).listingId;
      await listTicket({ ...seller, ticketId: 'T-0003', price: '80000' });
    }
    if (id === 'listChannelSales') saleId = await buyFromChannel();
    const params: Record<string, string> =
      id === 'getChannelSale' || id === 'fulfilChannelSale'
        ? { saleId }
        : id === 'getResaleEntry'
          ? // A token minted for the example's fan a moment ago, as the partner's server does.
            { token: String(await example('getOneTimeToken')) }
          : {};
    const body =
      id === 'getCheckoutUrl'
        ? { listingIds: [listingId] }
        : id === 'createBuyIntention'
          ? { ...(exampleCall(id).body as object), items: [listingId] }
          : undefined;
    const data = await example(id, params, body);
    if (id === 'createTickets') batchId = String(data.batchId);
  }
});

/**
 * A fan buys one ticket of the channel's listing left on sale (RH-88124; RH-88123 was deleted) and pays on the
 * sandbox payment page: the channel sale's id.
 */
async function buyFromChannel(): Promise<string> {
  const listed = (await example('getListedTickets')) as unknown as { listingId: string; source: string }[];
  const mirror = listed.find((l) => l.source === 'CHANNEL');
  expect(mirror, 'a channel listing on sale').toBeDefined();
  const intention = await example('createBuyIntention', {}, { items: [mirror!.listingId], user: 'lucia@example.com' });
  const paymentId = new URL(String(intention.paymentUrl)).pathname.split('/').pop();
  const paid = await fetch(`${baseURL}/api/payments/sandbox/${paymentId}`, {
    method: 'POST',
    body: new URLSearchParams({ cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Buyer' }),
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  const sales = await example('listChannelSales');
  const items = (sales as unknown as { items: { saleId: string }[] }).items;
  expect(items.length).toBeGreaterThan(0);
  return items[0].saleId;
}

test('calls the API refuses: the document refuses them too, or names the rule it cannot say', async () => {
  test.setTimeout(120_000);
  const key = keys.apiKey;
  // A catalogue of its own: the example event under another id (two shows, options campo and platea-a in ARS).
  const ref = `evt-prism-${RUN}`;
  const example = exampleCall('createEvent').body as { shows: Record<string, unknown>[]; location: object };
  // Two shows: a show-level inventory call must then name its show.
  const shows = [example.shows[0], { ...example.shows[0], showId: 'show-b', title: 'Second night' }];
  const event = { ...example, externalReferenceId: ref, shows };
  await check({ method: 'POST', url: '/v1/events', key, body: event, status: 200 });
  const showId = String(shows[0].showId);
  const where = { externalReferenceEventId: ref, showId };
  const lead = { type: 'WISHLIST', ...where, buyer: { email: 'fan@example.com' } };
  const ticket = (exampleCall('createTickets').body as Record<string, unknown>[])[0];
  const channelListing = { eventId: ref, showId, ticketOptionId: 'campo', quantity: 2, price: 58000, currency: 'ARS' };
  const stored = 'depends on stored data';
  const compared = 'compares two fields of one object';
  const unique = 'wants a key unique across a list';

  const probes: Probe[] = [
    // The catalogue.
    { method: 'POST', url: '/v1/events', key, body: event, status: 409, refusedByDocument: stored },
    {
      method: 'POST',
      url: '/v1/events',
      key,
      body: { ...event, externalReferenceId: `${ref}-one`, shows: shows[0] },
      status: 200,
    },
    { method: 'POST', url: '/v1/events', key, body: { ...event, title: '   ' }, status: 400, refusedByDocument: true },
    {
      method: 'POST',
      url: '/v1/events',
      key,
      body: { ...event, externalReferenceId: `${ref}-dup`, shows: [shows[0], shows[0]] },
      status: 400,
      refusedByDocument: unique,
    },
    {
      method: 'POST',
      url: '/v1/events',
      key,
      body: { ...event, location: { ...event.location, timeZone: 'Mars/Olympus_Mons' } },
      status: 400,
      refusedByDocument: 'a time zone name the server’s ICU knows',
    },
    {
      method: 'POST',
      url: '/v1/events',
      key,
      body: {
        ...event,
        shows: [{ ...shows[0], ticketOptions: [{ title: 'A', ticketId: 'a', description: '', currency: 'EURO' }] }],
      },
      status: 400,
      refusedByDocument: true,
    },
    {
      method: 'POST',
      url: '/v1/events',
      key,
      body: {
        ...event,
        externalReferenceId: `${ref}-cents`,
        shows: [
          {
            ...shows[0],
            ticketOptions: [{ title: 'A', ticketId: 'a', description: '', currency: 'EUR', price: '10.123' }],
          },
        ],
      },
      status: 400,
      refusedByDocument: 'the price’s decimals against its currency’s minor unit',
    },
    {
      method: 'PUT',
      url: '/v1/events',
      key,
      body: { externalReferenceId: `${ref}-none`, title: 'Nothing' },
      status: 404,
      refusedByDocument: stored,
    },
    // Rules: ruleType's values, what each type needs, the scope.
    ...[
      { ruleType: 'NOPE' },
      { ruleType: 'COMBINATION', showId, ticketOptionId: 'campo' },
      { ruleType: 'RESALE_ENABLED' },
      { ruleType: 'RESALE_ENABLED', rules: { enabled: 'yes' } },
      { ruleType: 'P2P_TRANSFER', ticketOptionId: 'campo', rules: { allowed: true } },
      { ruleType: 'MAX_TICKETS_PER_LISTING', showId, rules: { max: 0 } },
    ].map((rule): Probe => ({
      method: 'POST',
      url: '/v1/events/rules',
      key,
      body: [{ externalReferenceEventId: ref, ...rule }],
      status: 400,
      refusedByDocument: true,
    })),
    {
      method: 'POST',
      url: '/v1/events/rules',
      key,
      body: [
        {
          externalReferenceEventId: ref,
          ruleType: 'LISTING_WINDOW',
          rules: { opensHoursBeforeShow: 1, closesHoursBeforeShow: 5 },
        },
      ],
      status: 400,
      refusedByDocument: compared,
    },
    {
      method: 'POST',
      url: '/v1/events/rules',
      key,
      body: [
        {
          externalReferenceEventId: ref,
          ruleType: 'COMBINATION',
          showId,
          ticketOptionId: 'campo',
          priceTypeId: 'nope',
        },
      ],
      status: 400,
      refusedByDocument: stored,
    },
    // Tickets: the price, the buyer.
    ...[
      { price: 'abc' },
      { price: '-5' },
      { price: -5 },
      { buyer: {} },
      { buyer: 'not-an-e-mail' },
      { buyer: { email: 'x' } },
      { primarySalesFee: { type: 'PERCENTAGE', value: 150 } },
    ].map((change): Probe => ({
      method: 'POST',
      url: '/v1/tickets',
      key,
      body: [{ ...ticket, ...where, ticketId: `TP-${RUN}`, ...change }],
      status: 400,
      refusedByDocument: true,
    })),
    {
      method: 'POST',
      url: '/v1/tickets',
      key,
      body: [
        { ...ticket, ...where, ticketId: 'TP-dup' },
        { ...ticket, ...where, ticketId: 'TP-dup' },
      ],
      status: 400,
      refusedByDocument: unique,
    },
    { method: 'GET', url: '/v1/tickets/T-none/url', key, status: 404, refusedByDocument: stored },
    { method: 'POST', url: '/v1/tickets/T-0001/eventAdmission', key, status: 409, refusedByDocument: stored },
    // Marketplace: returnTo and its synonym, loginTrust's pair.
    ...(() => {
      const base = `/v1/marketplace/buyingflow/url/entrypoint?externalReferenceEventId=${ref}&showId=${showId}`;
      return [
        { method: 'GET', url: `${base}&returnURL=https%3A%2F%2Ftickets.example.com%2F`, key, status: 200 },
        {
          method: 'GET',
          url: base,
          key,
          status: 400,
          refusedByDocument: 'one of two query parameters (returnTo or returnURL) is required',
        },
        {
          method: 'GET',
          url: `${base}&returnTo=https%3A%2F%2Ftickets.example.com%2F&loginTrust%5Buser%5D=fan%40example.com`,
          key,
          status: 400,
          refusedByDocument: 'two query parameters go together',
        },
        { method: 'GET', url: `${base}&returnTo=ftp%3A%2F%2Fx.example`, key, status: 400, refusedByDocument: true },
      ] satisfies Probe[];
    })(),
    { method: 'GET', url: '/v1/marketplace/listings/ticket/T-none', key, status: 404, refusedByDocument: stored },
    // The access layer: the modes, the type.
    ...[
      {
        user: 'fan@example.com',
        tickets: [{ eventId: ref, showId, ticketId: 'x', ticketOptionId: 'campo' }],
        orders: [{ orderId: 'o', eventId: ref, showId, combinations: [] }],
      },
      { user: 'fan@example.com', orders: [{ orderId: 'o', eventId: ref, showId }] },
    ].map((body): Probe => ({
      method: 'POST',
      url: '/v1/wrapper/accesslayer',
      key,
      body,
      status: 400,
      refusedByDocument: true,
    })),
    {
      method: 'GET',
      url: `/v1/wrapper/accesslayer?type=sell&eventId=${ref}&showId=${showId}`,
      key,
      status: 400,
      refusedByDocument: true,
    },
    {
      method: 'GET',
      url: `/v1/wrapper/accesslayer?type=buy&showId=${showId}`,
      key,
      status: 400,
      refusedByDocument: true,
    },
    {
      method: 'GET',
      url: `/v1/wrapper/accesslayer?type=buy&eventId=${ref}-none&showId=1`,
      key,
      status: 404,
      refusedByDocument: stored,
    },
    {
      method: 'POST',
      url: '/v1/wrapper/accesslayer/bulk',
      key,
      body: [{ eventId: ref, showIds: [showId] }],
      status: 400,
      refusedByDocument: true,
    },
    {
      method: 'GET',
      url: '/v1/auth/oneTimeToken?user=fan%40example.com&method=sms',
      key,
      status: 400,
      refusedByDocument: true,
    },
    // Leads: the buyer's identifier, what a ticket holder needs, the bulk's items.
    {
      method: 'POST',
      url: '/v1/marketdata/ticket-leads',
      key,
      body: { ...lead, buyer: { fullName: 'A' } },
      status: 400,
      refusedByDocument: true,
    },
    {
      method: 'POST',
      url: '/v1/marketdata/ticket-leads',
      key,
      body: { ...lead, type: 'TICKET_HOLDER', ticketId: 'T-1' },
      status: 400,
      refusedByDocument: true,
    },
    {
      method: 'POST',
      url: '/v1/marketdata/ticket-leads',
      key,
      body: { ...lead, showId: '  ' },
      status: 400,
      refusedByDocument: true,
    },
    {
      method: 'POST',
      url: '/v1/marketdata/ticket-leads',
      key,
      body: { ...lead, externalReferenceEventId: `${ref}-none` },
      status: 404,
      refusedByDocument: stored,
    },
    {
      method: 'POST',
      url: '/v1/marketdata/ticket-leads/bulk',
      key,
      body: [lead, { ...lead, buyer: {} }],
      status: 400,
      refusedByDocument: true,
    },
    {
      method: 'POST',
      url: '/v1/marketdata/users/bulk',
      key,
      body: [{ ...lead, type: 'NOPE' }],
      status: 400,
      refusedByDocument: true,
    },
    // Inventory: the two shapes of the details, an item's ids, the fields.
    {
      method: 'PUT',
      url: `/v1/marketdata/events/${ref}/inventory?showId=${showId}`,
      key,
      body: { bogus: 1 },
      status: 400,
      refusedByDocument: true,
    },
    {
      method: 'PUT',
      url: `/v1/marketdata/events/${ref}/inventory?showId=${showId}`,
      key,
      body: { soldPercentage: 101 },
      status: 400,
      refusedByDocument: true,
    },
    {
      method: 'PUT',
      url: `/v1/marketdata/events/${ref}/inventory`,
      key,
      body: { releasedTickets: 5 },
      status: 400,
      refusedByDocument: 'showId is required when the event has several shows (stored data)',
    },
    {
      method: 'PUT',
      url: `/v1/marketdata/events/${ref}/inventory/details`,
      key,
      body: { items: [{ showId, ticketOptionId: 'campo', inventory: { releasedTickets: 5 } }] },
      status: 200,
    },
    ...[
      [{ showId, inventory: { releasedTickets: 5 } }],
      [{ showId, ticketOptionId: 'campo', inventory: { capacity: 5 } }],
      { items: [{ showId, priceTypeId: 'general', inventory: { soldOut: 'yes' } }] },
    ].map((body): Probe => ({
      method: 'PUT',
      url: `/v1/marketdata/events/${ref}/inventory/details`,
      key,
      body,
      status: 400,
      refusedByDocument: true,
    })),
    // The Channels API: the bulk's items, quantity or seats.
    ...[
      { listings: [{ ...channelListing, listingId: 'L-1', quantity: undefined }] },
      { listings: [{}] },
      { listings: [{ ...channelListing, listingId: 'L 1' }] },
    ].map((body): Probe => ({
      method: 'POST',
      url: '/v1/channels/listings/bulk',
      key: keys.channelsApiKey,
      body,
      status: 400,
      refusedByDocument: true,
    })),
    {
      method: 'POST',
      url: '/v1/channels/listings/bulk',
      key: keys.channelsApiKey,
      body: { listings: [{ ...channelListing, listingId: 'L-2', quantity: 3, seats: [{ row: '1' }, { row: '2' }] }] },
      status: 400,
      refusedByDocument: compared,
    },
    {
      method: 'PUT',
      url: '/v1/channels/listings/L-3',
      key: keys.channelsApiKey,
      body: { ...channelListing, quantity: undefined },
      status: 400,
      refusedByDocument: true,
    },
    {
      method: 'GET',
      url: '/v1/channels/listings/L-none',
      key: keys.channelsApiKey,
      status: 404,
      refusedByDocument: stored,
    },
    // The body itself: too large, not JSON.
    {
      method: 'POST',
      url: '/v1/channels/listings/bulk',
      key: keys.channelsApiKey,
      body: { listings: ['x'.repeat(4.5 * 1024 * 1024)] },
      status: 413,
      refusedByDocument: true,
    },
    {
      method: 'POST',
      url: '/v1/events/rules',
      key,
      rawBody: '[]',
      headers: { 'content-type': 'text/plain' },
      status: 415,
      refusedByDocument: true,
    },
  ];
  for (const probe of probes) await check(probe);

  // An Idempotency-Key sent again with another request: 422.
  const idem = { 'idempotency-key': `prism-${RUN}` };
  const rule = { externalReferenceEventId: ref, ruleType: 'RESALE_ENABLED', rules: { enabled: true } };
  await check({ method: 'POST', url: '/v1/events/rules', key, headers: idem, body: [rule], status: 200 });
  await check({ method: 'POST', url: '/v1/events/rules', key, headers: idem, body: [rule], status: 200 });
  await check({
    method: 'POST',
    url: '/v1/events/rules',
    key,
    headers: idem,
    body: [{ ...rule, rules: { enabled: false } }],
    status: 422,
    refusedByDocument: stored,
  });
});

test('every operation refuses a missing, unknown or wrong kind of key as the document says', async () => {
  test.setTimeout(60_000);
  for (const { op } of operations()) {
    const call = exampleCall(op.operationId);
    if (!call.key) continue;
    const other = call.key === keys.apiKey ? keys.channelsApiKey : keys.apiKey;
    await check({ ...call, key: null, status: 401, refusedByDocument: true });
    const unknown = `${call.key === keys.channelsApiKey ? 'sk_ch_' : 'sk_live_'}${'x'.repeat(32)}`;
    await check({ ...call, key: unknown, status: 401, refusedByDocument: 'whether a key exists' });
    await check({ ...call, key: other, status: 403, refusedByDocument: 'which kind of key it is' });
  }
});

test('the rate limit answers 429 with Retry-After as the document says', async () => {
  const { apiKey } = await createPartner(`E2E Prism limit ${RUN}`);
  // The limit counts calls, whatever they carry: 60 a minute, spent straight on the server.
  for (let i = 0; i < 60; i++) {
    const res = await fetch(`${baseURL}/v1/sync/tickets`, {
      method: 'POST',
      headers: { authorization: apiKey, 'content-type': 'application/json' },
      body: '[]',
    });
    expect(res.status).toBe(400);
  }
  const answer = await check({
    method: 'POST',
    url: '/v1/sync/tickets',
    key: apiKey,
    body: exampleCall('syncTickets').body,
    status: 429,
    refusedByDocument: 'how many calls were made this minute',
  });
  expect(answer.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
});

test('a path called with a method it does not list answers 405 naming the document’s methods', async () => {
  for (const [p, ops] of Object.entries(doc.paths)) {
    const documented = Object.keys(ops).map((m) => m.toUpperCase());
    const allow = [...documented].sort().join(', ');
    const url = p.replace(/\{[^}]+\}/g, 'x-1');
    for (const method of METHODS.map((m) => m.toUpperCase()).filter((m) => !documented.includes(m))) {
      const res = await fetch(`${baseURL}${url}`, { method, headers: { authorization: keys.apiKey } });
      const what = `${method} ${url}`;
      expect.soft(res.status, what).toBe(405);
      expect.soft(res.headers.get('allow'), what).toBe(allow);
      expect.soft(res.headers.get('x-request-id'), what).toBeTruthy();
      expect.soft(await res.json(), what).toEqual({
        status: 405,
        data: null,
        errors: { message: expect.any(String), code: 'METHOD_NOT_ALLOWED' },
      });
    }
  }
});
