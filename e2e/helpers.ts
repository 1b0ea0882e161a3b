import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import {
  type APIRequestContext,
  type Browser,
  expect,
  type Locator,
  type Page,
  type Route,
  test,
} from '@playwright/test';
import { partnerTicket } from '../server/testing/partner-ticket';

/** The admin the e2e server is started with (playwright.config.ts, ADMIN_EMAIL / ADMIN_PASSWORD). */
export const ADMIN_EMAIL = 'e2e-admin@encore.test';
export const ADMIN_PASSWORD = 'e2e-password-123';

/** Unique per run: the database may outlive one run (DATABASE_URL), so names and ids carry it. */
export const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/**
 * Tag of tests about presentation alone (layout, translation, axe at both widths, screenshots):
 * `npx playwright test --grep @presentation` runs just these, to look at the pages after a change of style.
 *
 * The other tag, `@database-flow`, is written in the titles of the end-to-end flows that change ownership
 * or money (or keep a partner's write) through the built server: CI's second part runs those again on the
 * machine's PostgreSQL (docs/testing.md, "The second database mode").
 */
export const PRESENTATION = { tag: '@presentation' };

/**
 * Screenshots are for people to look at, not assertions: CI (`.ci/run`, nobody looks there) and the suites'
 * second run take none (E2E_SHOTS=0).
 */
const SHOTS = process.env.E2E_SHOTS !== '0';

/** A full-page screenshot kept with the run's artifacts. */
export async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: true });
}

/** A screenshot for a person to look at, at `path` (skipped like `shot`). */
export async function screenshot(page: Page, path: string, options: { fullPage?: boolean } = {}) {
  if (SHOTS) await page.screenshot({ path, ...options });
}

/** A full-page screenshot into the test's own output folder (skipped like `shot`). */
export async function pageShot(page: Page, file: string) {
  if (SHOTS) await page.screenshot({ path: test.info().outputPath(file), fullPage: true });
}

/** The page now open, in English and Spanish, on a phone (390 px) and a laptop (1366 px). */
export async function shotsEnEs(page: Page, name: string) {
  if (!SHOTS) return;
  const here = new URL(page.url());
  const size = page.viewportSize();
  // The last language visited sticks (the ?lang= cookie): end on the one the page had, for the steps after.
  const langs = here.searchParams.get('lang') === 'es' ? ['en', 'es'] : ['es', 'en'];
  for (const lang of langs) {
    here.searchParams.set('lang', lang);
    await page.goto(`${here.pathname}${here.search}`);
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: 844 });
      await shot(page, `${name}-${lang}-${width}`);
    }
  }
  if (size) await page.setViewportSize(size);
}

/**
 * Waits until React has hydrated the element (it then carries React's internal keys), so a click or a
 * typed value right after a full page load is not lost to the server-rendered HTML.
 */
export async function hydrated(page: Page, selector: string) {
  await page.waitForFunction((sel) => {
    const el = document.querySelector(sel);
    return !!el && Object.keys(el).some((k) => k.startsWith('__react'));
  }, selector);
}

/**
 * Holds the page's script files (Next.js's chunks) until the returned `release` is called: the page is
 * on screen as the server rendered it and not yet live, as on a slow phone. Navigate with
 * `waitUntil: 'domcontentloaded'` (the load event waits for the held scripts).
 */
export async function holdScripts(page: Page): Promise<() => Promise<void>> {
  const held: Route[] = [];
  let releasing = false;
  const pattern = /\/_next\/static\/.+\.js(\?.*)?$/;
  const hold = async (route: Route) => {
    if (releasing) await route.continue();
    else held.push(route);
  };
  await page.route(pattern, hold);
  return async () => {
    releasing = true;
    await Promise.all(held.splice(0).map((route) => route.continue()));
    await page.unroute(pattern, hold);
  };
}

/** Whether React has made the element live yet (it carries React's internal keys once hydrated). */
export async function isLive(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    return !!el && Object.keys(el).some((k) => k.startsWith('__react'));
  }, selector);
}

/** Fills and submits the sign-in form the page is on (typed at once: the form keeps what was typed before it is live). */
export async function signIn(page: Page, password = ADMIN_PASSWORD) {
  await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
}

/** The server under test (playwright.config.ts starts it on E2E_PORT). */
export const baseURL = `http://localhost:${Number(process.env.E2E_PORT ?? 3210)}`;

/**
 * A test-only set-up call on the server under test (`POST /api/test-hooks/<action>`,
 * server/http/test-hooks.ts), opened by the per-run secret playwright.config.ts hands the server; its JSON.
 */
export async function setUp<T>(action: string, body: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${baseURL}/api/test-hooks/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-test-hooks-secret': process.env.E2E_TEST_HOOKS_SECRET ?? '' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`test hook ${action} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** A new partner's ids and keys, live and test (what `npm run partner:create` prints). */
interface PartnerCredentials {
  partnerId: string;
  apiKey: string;
  channelsApiKey: string;
  publishableKey: string;
  testPartnerId: string;
  testApiKey: string;
  testChannelsApiKey: string;
  testPublishableKey: string;
}

/** A new partner with its partner and Channels API keys (what `npm run partner:create` prints). */
export const createPartner = (name: string) => setUp<PartnerCredentials>('partner', { name });

/** Lists a ticket for resale as its owner would in the selling flow (the partner API has no such call). */
export const listTicket = (listing: { partnerId: string; sellerEmail: string; ticketId: string; price: string }) =>
  setUp<{ listingId: string }>('listing', listing);

/** The environment of a CLI tool run against the test server's database. */
function cliEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PUBLIC_BASE_URL: baseURL,
    ...(process.env.DATABASE_URL ? {} : { DATA_DIR: process.env.E2E_DATA_DIR ?? '' }),
  };
}

/** `npm run partner:create -- --name <name>` as a user runs it (node with tsx, without npx's look-up); its JSON line. */
export function partnerCreateCli(name: string): PartnerCredentials {
  return JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/partner-create.ts', '--name', name], {
      env: cliEnv(),
      encoding: 'utf8',
    }),
  );
}

/** A partner API call over HTTP with `key`; the response status and envelope. */
export async function call(request: APIRequestContext, key: string, method: string, path: string, data?: unknown) {
  const res = await request.fetch(path, { method, headers: { Authorization: key }, data });
  return { status: res.status(), body: await res.json().catch(() => null) };
}

/**
 * The buy page's address (path and query) the partner API hands a fan for show 1 of event `ref`
 * (`GET /v1/marketplace/buyingflow/url/entrypoint`), with the way back to `returnTo`.
 */
export async function buyPageAddress(request: APIRequestContext, key: string, ref: string, returnTo: string) {
  const entry = await call(
    request,
    key,
    'GET',
    `/v1/marketplace/buyingflow/url/entrypoint?externalReferenceEventId=${ref}&showId=1&returnTo=${encodeURIComponent(returnTo)}`,
  );
  expect(entry.status, JSON.stringify(entry.body)).toBe(200);
  const url = new URL(entry.body.data as string);
  return url.pathname + url.search;
}

/**
 * `url` (absolute, or a path) with `params` set in its query, absolute or a path as it came: an entry URL
 * carries a query or not (no `lang` when the partner sent none), so nothing is appended with a bare `&`.
 */
export function withParams(url: string, params: Record<string, string>): string {
  const u = new URL(url, 'http://encore.invalid');
  for (const [name, value] of Object.entries(params)) u.searchParams.set(name, value);
  return url.startsWith('/') ? `${u.pathname}${u.search}` : u.toString();
}

/** No serious or critical axe-core violation on the page as it is now. */
export async function axe(page: Page, what?: string) {
  const { violations } = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    what,
  ).toEqual([]);
}

/**
 * The icons in `area` are drawn as SVG, not emoji glyphs: without a colour-emoji font an emoji shows as
 * an empty box.
 */
export async function svgIconsOnly(area: Locator) {
  await expect(area.locator('svg.mk-icon').first()).toBeVisible();
  expect(await area.innerText()).not.toMatch(/[\p{Extended_Pictographic}\u2713\u2714\u23f3]/u);
}

/** The specs' usual ticket option: standing, 50 USD. */
const USD_STANDING = { title: 'General', ticketId: 'GA', description: 'Standing', currency: 'USD', price: 50 };

/** A show of the specs' events with one ticket option (standing at 50 USD unless `option` says otherwise). */
export function eventShow(showId: string, date: string, title = 'Night', option: object = USD_STANDING) {
  return { title, showId, date, images: [], configuration: {}, ticketOptions: [option] };
}

/** Pushes an event through `POST /v1/events` (no configuration; the seat map `svg`, if any); it must be stored. */
export async function pushEvent(
  request: APIRequestContext,
  key: string,
  event: {
    ref: string;
    title: string;
    description: string;
    location: Record<string, unknown>;
    shows: unknown[];
    svg?: string;
  },
) {
  const res = await call(request, key, 'POST', '/v1/events', {
    title: event.title,
    description: event.description,
    externalReferenceId: event.ref,
    location: event.location,
    configuration: {},
    ...(event.svg === undefined ? {} : { seating: { svgCode: event.svg } }),
    shows: event.shows,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Pushes an event through `POST /v1/events` (one show `1` in 2027 unless `shows` says otherwise); it must be stored. */
export async function pushUsdEvent(
  request: APIRequestContext,
  key: string,
  ref: string,
  title: string,
  shows: unknown[] = [eventShow('1', '2027-09-10T21:00:00-03:00')],
  location: Record<string, unknown> = {},
) {
  await pushEvent(request, key, { ref, title, description: 'd', location, shows });
}

/** Caps the event's resale prices at 50–120 % of face value; the rule must be stored. */
export async function capResalePrices(request: APIRequestContext, key: string, ref: string) {
  const rules = await call(request, key, 'POST', '/v1/events/rules', [
    { externalReferenceEventId: ref, ruleType: 'PRICE_LIMITS', rules: { minPercentOfFace: 50, maxPercentOfFace: 120 } },
  ]);
  expect(rules.status, JSON.stringify(rules.body)).toBe(200);
}

/** The market specs' ticket option: standing, 40 EUR. */
export const EUR_STANDING = { title: 'General', ticketId: 'GA', description: 'Standing', currency: 'EUR', price: 40 };

/**
 * Pushes the market specs' event (one show `1` in Madrid, 2027, one standing option at 40 EUR) and caps
 * its resale prices at 50–120 % of face value; both calls must succeed.
 */
export async function pushCappedEurEvent(
  request: APIRequestContext,
  key: string,
  event: { ref: string; title: string; description: string },
) {
  await pushEurEvent(request, key, event);
  await capResalePrices(request, key, event.ref);
}

/** Pushes the market specs' event as `pushCappedEurEvent` does, with the seat map `svg` if given, and no price cap. */
export async function pushEurEvent(
  request: APIRequestContext,
  key: string,
  event: { ref: string; title: string; description: string; svg?: string },
) {
  await pushEvent(request, key, {
    ...event,
    location: { city: 'Madrid', venueName: 'Sala Norte', timeZone: 'Europe/Madrid' },
    shows: [eventShow('1', '2027-06-12T21:30:00+02:00', 'Night one', EUR_STANDING)],
  });
}

/**
 * A ticket as the partner pushes it (`POST /v1/sync/tickets`): show `1`, option GA, bought by `owner`,
 * its access code `CODE-<ticketId>`; `extra` adds or overrides fields.
 */
export const syncedTicket = partnerTicket;

/** Pushes tickets through `POST /v1/sync/tickets`; the call must succeed. */
export async function syncTickets(request: APIRequestContext, key: string, tickets: unknown[]) {
  const synced = await call(request, key, 'POST', '/v1/sync/tickets', tickets);
  expect(synced.status, JSON.stringify(synced.body)).toBe(200);
}

/**
 * A new partner with the market specs' capped event (`pushCappedEurEvent`) and one ticket of it, pushed
 * as bought by the listing's `seller` (`ticketFields` added as `syncedTicket` takes them) and listed by
 * them at `price`: the partner's ids and keys, and the listing's id.
 */
export async function partnerWithListing(
  request: APIRequestContext,
  market: {
    name: string;
    event: { ref: string; title: string; description: string };
    listing: { seller: string; ticketId: string; price: string; ticketFields?: Record<string, unknown> };
  },
) {
  const partner = await createPartner(market.name);
  const { seller, ticketId, price, ticketFields } = market.listing;
  await pushCappedEurEvent(request, partner.apiKey, market.event);
  await syncTickets(request, partner.apiKey, [syncedTicket(market.event.ref, ticketId, seller, ticketFields)]);
  const { listingId } = await listTicket({ partnerId: partner.partnerId, sellerEmail: seller, ticketId, price });
  return { ...partner, listingId };
}

/** A buy intention of `user` holding the listings (`POST …/buyingflow/buyIntention`); it must be made. Its id and payment URL. */
export async function buyIntention(request: APIRequestContext, key: string, listingIds: string[], user: string) {
  const intention = await call(request, key, 'POST', '/v1/marketplace/buyingflow/buyIntention', {
    items: listingIds,
    user,
  });
  expect(intention.status, JSON.stringify(intention.body)).toBe(200);
  return intention.body.data as { id: string; paymentUrl: string };
}

/**
 * The fan, in a browser context of their own, pays on the intention's payment page with the test card and
 * is on the checkout page after; their page (the caller closes its context).
 */
export async function payInOwnContext(browser: Browser, paymentUrl: string): Promise<Page> {
  const fan = await browser.newContext();
  const fanPage = await fan.newPage();
  await fanPage.goto(new URL(paymentUrl).pathname);
  await payWithTestCard(fanPage);
  await fanPage.waitForURL(/\/checkout\//);
  return fanPage;
}

/**
 * Staff, signed out so far, create a partner on the dashboard (signing in on the way); the new partner's
 * page is open after. Its id and the API key the form shows once.
 */
/**
 * On /dashboard/partners/new: the name typed (live or not yet: the form keeps it), and sent with Enter once the
 * form is live. Before that, React's replay of an early submit holds only once its script (sent after the form,
 * at the end of the page's first chunk) has run: a submit in between is refused by the page's policy
 * (e2e/typed-before-scripts.spec.ts covers typing early; docs/architecture.md "Forms").
 */
export async function submitNewPartner(page: Page, name: string) {
  const field = page.getByLabel('Partner name');
  await field.fill(name);
  await expect(field).toHaveValue(name);
  await hydrated(page, 'form');
  await field.press('Enter');
}

export async function createPartnerOnDashboard(page: Page, name: string) {
  await page.goto('/dashboard/partners/new');
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard\/partners\/new$/);
  await submitNewPartner(page, name);
  await expect(page.getByTestId('secret-value').first()).toHaveText(/^sk_live_/);
  const apiKey = (await page.getByTestId('secret-value').first().textContent()) ?? '';
  await page.getByRole('link', { name: 'Open partner' }).click();
  await expect(page).toHaveURL(/\/dashboard\/partners\/ptr_\w+$/);
  return { partnerId: page.url().split('/').pop() ?? '', apiKey };
}

/** Pays on the sandbox payment page the fan is on with the test card that succeeds. */
export async function payWithTestCard(page: Page, holder = 'Ada Fan') {
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry date').fill('12 / 34');
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill(holder);
  await page.getByLabel('Name on card').press('Enter');
}

/** The partner's webhook receiver: a real HTTP server on loopback. */
export class Receiver {
  readonly bodies: { family: string; action: string; data: Record<string, unknown> }[] = [];
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(204).end();
    });
  });
  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }
  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Staff, in their own browser context, point the partner's webhooks at `url` on its partner page. */
export async function pointWebhooks(browser: Browser, partnerId: string, url: string) {
  const staff = await browser.newContext();
  const admin = await staff.newPage();
  await admin.goto(`/dashboard/partners/${partnerId}`);
  await signIn(admin);
  const section = admin.getByTestId('webhooks');
  await section.getByLabel('Receiver URL').fill(url);
  await section.getByRole('button', { name: 'Create endpoint' }).click();
  await expect(section.getByTestId('secret-value')).toBeVisible();
  await staff.close();
}

/** Staff, in their own page, point the partner's ticket verification at `url` on its partner page. */
export async function pointVerification(browser: Browser, partnerId: string, url: string) {
  const staff = await browser.newPage();
  await staff.goto(`/dashboard/partners/${partnerId}`);
  await signIn(staff);
  await expect(staff).toHaveURL(new RegExp(`/dashboard/partners/${partnerId}$`));
  const integration = staff.getByTestId('integration');
  await integration.getByLabel('Verification URL').fill(url);
  await integration.getByRole('button', { name: 'Save integration' }).click();
  await expect(integration.getByText('Saved.')).toBeVisible();
  await staff.close();
}

/**
 * Staff, in their own browser context, open the newest mail to `to` with `subject` in the mailbox: its page
 * (the caller closes its context) and its text.
 */
export async function openMail(browser: Browser, to: string, subject: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`/dashboard/mailbox?q=${encodeURIComponent(to)}`);
    await signIn(page);
    const row = page.getByRole('row').filter({ hasText: subject }).first();
    await expect(row, `a mail to ${to}: ${subject}`).toBeVisible();
    await row.getByRole('link', { name: subject }).click();
    await expect(page.getByTestId('mail-to')).toHaveText(to);
    return { page, context, text: (await page.getByTestId('mail-text').textContent()) ?? '' };
  } catch (err) {
    await context.close();
    throw err;
  }
}

/** A ticket the fake verification endpoint reports: where it is, and its tags (`section:B`, `order:<id>`). */
export interface VouchedTicket {
  ticketId: string;
  externalReferenceEventId: string;
  showId: string;
  tags?: string[];
}

/**
 * A partner's verification endpoint (a real HTTP server in the test process): `GET …/tickets?user=`
 * answers the tickets `owned` holds for that user (valid, 50.00 USD, option GA); `asked` lists who was asked.
 */
export class VerificationServer {
  owned = new Map<string, VouchedTicket[]>();
  asked: string[] = [];
  private server = http.createServer((req, res) => {
    const user = (new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('user') ?? '').toLowerCase();
    this.asked.push(user);
    const tickets = (this.owned.get(user) ?? []).map((t) => ({
      tags: [],
      ...t,
      ticketOptionId: 'GA',
      price: '50.00',
      currency: 'USD',
      status: 'VALID',
    }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ userEmail: user, tickets }));
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A partner's web page on another origin, served by a server of the test: Encore's widget script
 * and, in `body` (set by each test before it opens the page), the widget's elements, under a strict policy
 * allowing scripts, connections and images from Encore only (`frames`: frames too), and no inline script or
 * style at all.
 */
export class PartnerSite {
  body = '';
  private server: http.Server;

  private constructor(heading: string, frames: boolean) {
    this.server = http.createServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy':
          `default-src 'none'; script-src ${baseURL}; connect-src ${baseURL}; img-src ${baseURL}; ` +
          `${frames ? `frame-src ${baseURL}; ` : ''}style-src 'none'; base-uri 'none'; form-action 'none'`,
      });
      res.end(
        `<!doctype html><html lang="es"><title>Partner site</title><h1>${heading}</h1>` +
          `<script src="${baseURL}/widget/v1.js" async></script>${this.body}`,
      );
    });
  }

  static async start(heading: string, { frames = false } = {}): Promise<PartnerSite> {
    const site = new PartnerSite(heading, frames);
    await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
    return site;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
