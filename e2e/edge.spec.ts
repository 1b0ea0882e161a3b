import { EDGE_FRESHNESS_MS } from '../server/lib/freshness';
import { type Edge, sharedPageRenders, startEdge } from '../server/testing/edge';
import { expect, test } from './fixtures';
import {
  buyPageAddress,
  call,
  createPartner,
  listTicket,
  pushCappedEurEvent,
  RUN,
  syncedTicket,
  syncTickets,
} from './helpers';
import { startInstance, stopInstances } from './instances';

/*
 * The reference edge (edge/nginx.conf, Debian's nginx) in front of two more instances of the built app on
 * the e2e server's database, as "Running at scale" deploys them (docs/operations.md): EDGE_CACHE, one
 * trusted proxy. Anonymous fans on one address cost one render; a signed-in fan's page goes to that fan
 * alone; an offer held through the other instance leaves the page within the stated bound.
 */

const PORTS = [3241, 3242];
const METRICS_TOKEN = 'e2e-edge-metrics-token-0123456789';
const REF = `EDGE-${RUN}`;
const SELLER = `edge-seller-${RUN}@fans.test`;
const RETURN_TO = 'https://tickets.partner.example/events/edge';

let edge: Edge;
let partnerKey = '';
let partnerId = '';
let address = '';
let listingId = '';
const origin = (i: number) => `http://127.0.0.1:${PORTS[i]}`;
/** Shared pages rendered so far by the two instances. */
const renders = (counter: 'renders' | 'unchanged' = 'renders') =>
  sharedPageRenders(
    PORTS.map((_, i) => origin(i)),
    METRICS_TOKEN,
    counter,
  );

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(240_000);
  edge = await startEdge({ upstreams: PORTS.map((p) => `127.0.0.1:${p}`) });
  await Promise.all(
    PORTS.map((port) =>
      startInstance({ port, publicUrl: edge.url, env: { EDGE_CACHE: '1', TRUSTED_PROXY_HOPS: '1', METRICS_TOKEN } }),
    ),
  );
  ({ apiKey: partnerKey, partnerId } = await createPartner(`Edge Partner ${RUN}`));
  await pushCappedEurEvent(request, partnerKey, { ref: REF, title: `Edge Night ${RUN}`, description: '<p>Edge</p>' });
  await syncTickets(request, partnerKey, [syncedTicket(REF, `EDGE-T1-${RUN}`, SELLER, { price: 40 })]);
  ({ listingId } = await listTicket({ partnerId, sellerEmail: SELLER, ticketId: `EDGE-T1-${RUN}`, price: '45' }));
  address = await buyPageAddress(request, partnerKey, REF, RETURN_TO);
});

test.afterAll(async () => {
  await edge?.stop();
  await stopInstances();
});

test('two anonymous fans on one address cost one render; a shared link’s parameters change nothing', async () => {
  // Both instances have rendered a page (their first render compiles).
  for (let i = 0; i < 2; i++) await (await fetch(`${edge.url}${address}&page=${i + 2}`)).text();
  // The edge keeps a page until the end of the second it was made in, so the two fans must come within
  // one second. On a busy machine the render can end past it: then the premise did not hold, and the pair
  // comes again on an address of its own (a page the cache has never seen); the assertions stay as they are.
  let pair: { first: Response; second: Response; bodyA: string; bodyB: string; before: number } | undefined;
  for (let attempt = 0; attempt < 5 && !pair; attempt++) {
    const at = `${edge.url}${address}&page=${10 + attempt}`;
    const before = await renders();
    while (Date.now() % 1000 > 100) await new Promise((r) => setTimeout(r, 5));
    const started = Math.floor(Date.now() / 1000);
    const first = await fetch(`${at}&utm_source=newsletter`);
    const bodyA = await first.text();
    const second = await fetch(`${at}&fbclid=abc`);
    const bodyB = await second.text();
    if (Math.floor(Date.now() / 1000) === started) pair = { first, second, bodyA, bodyB, before };
  }
  expect(pair, 'two fans within one second, in five tries').toBeDefined();
  const { first, second, bodyA, bodyB, before } = pair!;
  expect([first.headers.get('x-cache-status'), second.headers.get('x-cache-status')]).toEqual(['MISS', 'HIT']);
  expect(await renders()).toBe(before + 1);
  expect(bodyA).toBe(bodyB);
  expect(bodyA).toContain(listingId);
  for (const answer of [first, second]) {
    expect(answer.headers.get('cache-control')).toBe(
      'public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=60',
    );
    expect(answer.headers.get('set-cookie')).toBeNull();
  }
  // Each fan's own request id, not the one stored with the page.
  expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
});

test('a signed-in fan’s page goes to that fan alone', async ({ browser, request }) => {
  const signIn = async (email: string) => {
    const token = await call(request, partnerKey, 'GET', `/v1/auth/oneTimeToken?user=${encodeURIComponent(email)}`);
    expect(token.status).toBe(200);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${edge.url}${address}&token=${token.body.data as string}`);
    await expect(page.getByTestId('fan-email')).toContainText(email);
    return { context, page };
  };
  const ana = await signIn(`ana.${RUN}@edge.test`);
  const bea = await signIn(`bea.${RUN}@edge.test`);
  // Each signed-in fan sees their own page, again and again; nothing of one reaches the other.
  for (const [fan, other] of [
    [ana, `bea.${RUN}@edge.test`],
    [bea, `ana.${RUN}@edge.test`],
  ] as const) {
    const answer = await fan.page.goto(`${edge.url}${address}`);
    expect(answer!.headers()['x-cache-status']).toBe('BYPASS');
    expect(answer!.headers()['cache-control']).toContain('private');
    expect(await fan.page.content()).not.toContain(other);
  }
  // An anonymous fan after them gets the shared page: no one's name.
  const anonymous = await (await fetch(`${edge.url}${address}`)).text();
  expect(anonymous).not.toContain(`ana.${RUN}`);
  expect(anonymous).not.toContain(`bea.${RUN}`);
  expect(anonymous).toContain(listingId);
  await ana.context.close();
  await bea.context.close();
});

test('a page whose data has not changed is kept by the edge on a 304, without a render', async () => {
  const kept = `${edge.url}${address}&sort=price_desc`;
  const first = await fetch(kept);
  const body = await first.text();
  expect(first.headers.get('etag')).toMatch(/^W\/"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{27}"$/);
  expect(body).toContain(
    `<meta name="encore-page-version" content="${/\.([^"]+)"$/.exec(first.headers.get('etag')!)![1]}"`,
  );
  const [rendered, unchanged] = [await renders(), await renders('unchanged')];
  // The edge asks again once its copy is a second old: the instances answer 304 from the page's model.
  const deadline = Date.now() + 20_000;
  while ((await renders('unchanged')) < unchanged + 2) {
    expect(Date.now(), 'two revalidations').toBeLessThan(deadline);
    expect(await (await fetch(kept)).text()).toBe(body);
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(await renders()).toBe(rendered);
  expect(await (await fetch(kept)).text()).toBe(body);
});

test('an offer held through the other instance leaves the page within the stated bound', async () => {
  const page = async () => (await fetch(`${edge.url}${address}`)).text();
  // A page made at the start of a second: the edge keeps it for the rest of that second.
  while (Date.now() % 1000 > 100) await new Promise((r) => setTimeout(r, 5));
  await page();
  expect(await page()).toContain(listingId);
  // Held through the second instance, which rendered nothing of what the edge keeps from the first.
  const held = await fetch(`${origin(1)}/v1/marketplace/buyingflow/buyIntention`, {
    method: 'POST',
    headers: { authorization: partnerKey, 'content-type': 'application/json' },
    body: JSON.stringify({ items: [listingId], user: `edge-buyer-${RUN}@fans.test` }),
  });
  expect(held.status).toBe(200);
  const heldAt = Date.now();
  let gone = 0;
  while (!gone && Date.now() - heldAt < 4 * EDGE_FRESHNESS_MS) {
    if (!(await page()).includes(listingId)) gone = Date.now();
    else await new Promise((r) => setTimeout(r, 25));
  }
  expect(gone, 'the held offer left the page').toBeGreaterThan(0);
  expect(gone - heldAt).toBeLessThanOrEqual(EDGE_FRESHNESS_MS);
});
