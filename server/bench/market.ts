import { POST as buyIntentionPost } from '@/app/v1/marketplace/buyingflow/buyIntention/route';
import { getDb, getSql } from '@/db';
import { replaceJobProvider } from '@/server/jobs/client';
import { LocalJobProvider } from '@/server/jobs/local';
import { allJobs } from '@/server/jobs/registry';
import { createEvent } from '@/server/modules/catalog';
import { createListing, listedTickets } from '@/server/modules/marketplace';
import { createPartnerWithKeys } from '@/server/modules/partners';
import { importTickets } from '@/server/modules/tickets';
import { apiRequest } from '@/server/testing/fixtures';
import type { BenchResult } from './run';
import { machine, startApp } from './servers';

export const SELLER = 'seller@bench.test';
const REPS = 5;

/** A partner with one event and show and `n` tickets owned by SELLER, through the modules. */
/** A partner's event with one show and `n` tickets in `sections` sections (S0, S1, …). */
export async function marketWith(n: number, sections = 10) {
  const { partner, apiKey } = await createPartnerWithKeys(`Bench market ${Date.now()}`, getDb());
  const ref = `MKT-${Date.now()}`;
  await createEvent(
    partner.id,
    {
      externalReferenceId: ref,
      title: 'Bench market',
      description: 'd',
      location: {},
      configuration: {},
      shows: [
        {
          showId: 'S1',
          title: 'S1',
          date: new Date(Date.now() + 90 * 24 * 3600_000).toISOString(),
          images: [],
          configuration: {},
          ticketOptions: [{ ticketId: 'GA', title: 'GA', description: 'g', currency: 'EUR', price: '40.00' }],
        },
      ],
    } as Parameters<typeof createEvent>[1],
    getDb(),
  );
  const tickets = Array.from({ length: n }, (_, i) => ({
    ticket: {
      externalReferenceEventId: ref,
      showId: 'S1',
      ticketId: `B-${String(i).padStart(6, '0')}`,
      ticketOptionId: 'GA',
      buyer: SELLER,
      ticketAccess: { type: 'OTHER', locator: `L${i}` },
      props: { seating: { section: `S${i % sections}`, row: String(i % 30), seat: String(i) } },
    },
  }));
  for (let i = 0; i < tickets.length; i += 1000) {
    await importTickets(partner.id, tickets.slice(i, i + 1000) as Parameters<typeof importTickets>[1], getDb());
  }
  return { partnerId: partner.id, key: apiKey, ref, ticketIds: tickets.map((t) => t.ticket.ticketId) };
}

/**
 * buy-intention: 200 buyers at once over 20 listings through the route handler (in process: the partner
 * API's wrapper, validation, the locking transaction, the payment opened in it); exactly 20 must win.
 * Baseline: the same number of raw `UPDATE listings SET status = 'RESERVED' WHERE id = $1 AND status =
 * 'ACTIVE'` through postgres.js at the same concurrency. Best of 5 each (the figure is 200 calls, tens of milliseconds: one slow scheduling tick moves it); holds reset between runs.
 */
export async function runBuyIntention(): Promise<BenchResult> {
  const BUYERS = Number(process.env.BENCH_BUYERS ?? 200);
  const LISTINGS = 20;
  // The app's job provider, started as in an app instance: each winner queues its hold's expiry job.
  const provider = new LocalJobProvider(process.env.DATABASE_URL!, { pollingIntervalSeconds: 0.5 });
  await provider.start(allJobs());
  const replaced = replaceJobProvider(provider);
  const m = await marketWith(LISTINGS);
  const listingIds: string[] = [];
  for (const t of m.ticketIds) {
    listingIds.push(
      (await createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: [t], price: 50 }, getDb())).id,
    );
  }
  const sql = getSql();
  const reset = () => sql`
    with i as (update buy_intentions set status = 'CANCELLED' where partner_id = ${m.partnerId} and status = 'PENDING')
    update listings set status = 'ACTIVE', reserved_by = null where partner_id = ${m.partnerId}`;
  console.log(`# buy-intention: ${BUYERS} concurrent buyers over ${LISTINGS} listings; ${machine()}`);
  const project: number[] = [];
  const baseline: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    await reset();
    // The buyers' requests are made before the clock starts: building them is the client's work.
    const requests = Array.from({ length: BUYERS }, (_, i) =>
      apiRequest('/v1/marketplace/buyingflow/buyIntention', {
        key: m.key,
        body: { items: [listingIds[i % LISTINGS]], user: `buyer${i}@bench.test` },
      }),
    );
    let t0 = performance.now();
    const answers = await Promise.all(requests.map((req) => buyIntentionPost(req).then((r) => r.status)));
    project.push(BUYERS / ((performance.now() - t0) / 1000));
    const won = answers.filter((s) => s === 200).length;
    const lost = answers.filter((s) => s === 409).length;
    if (won !== LISTINGS || lost !== BUYERS - LISTINGS) {
      throw new Error(
        `buy-intention: expected ${LISTINGS} holds and ${BUYERS - LISTINGS} 409s, got ${won} and ${lost}`,
      );
    }
    await reset();
    t0 = performance.now();
    const updated = await Promise.all(
      Array.from(
        { length: BUYERS },
        (_, i) =>
          sql`update listings set status = 'RESERVED' where id = ${listingIds[i % LISTINGS]} and status = 'ACTIVE'`,
      ),
    );
    baseline.push(BUYERS / ((performance.now() - t0) / 1000));
    if (updated.reduce((n, r) => n + r.count, 0) !== LISTINGS) throw new Error('baseline reserved the wrong count');
  }
  await reset();
  replaceJobProvider(replaced);
  await provider.stop();
  return { value: Math.max(...project), baseline: Math.max(...baseline), unit: 'intentions/s', kind: 'rate' };
}

/** Lists every ticket of the market at once (one statement): listing them one by one is not what is measured. */
export async function listAll(partnerId: string) {
  const sql = getSql();
  await sql`
    with n as (
      select t.id as pk, t.ticket_id, t.event_pk, t.show_pk, t.data, row_number() over (order by t.ticket_id) as n
      from tickets t where t.partner_id = ${partnerId}
    ), t as (
      select n.*, 'lst_bench_' || substr(md5(${partnerId}), 1, 6) || '_' || n.n as lid from n
    ), l as (
      insert into listings (id, partner_id, event_pk, show_pk, ticket_option_id, seller_email, type, currency,
        price_minor, ticket_count)
      select lid, ${partnerId}, event_pk, show_pk, 'GA', ${SELLER}, 'SINGLE', 'EUR', 4000 + n, 1 from t
      returning id
    )
    insert into listing_items (listing_id, ticket_pk, partner_id, ticket_id, seating)
    select lid, pk, ${partnerId}, ticket_id, data -> 'props' -> 'seating' from t`;
  await sql`analyze listings`;
  await sql`analyze listing_items`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * listed-tickets: median latency of `listedTickets` (the module function behind the endpoint: expired
 * holds counted as on sale without a write, event checked, listings with seats, fees added) for a show with 5,000 active listings,
 * against the raw SQL of the same read through postgres.js.
 */
export async function runListedTickets(): Promise<BenchResult> {
  const N = Number(process.env.BENCH_LISTINGS ?? 5000);
  const RUNS = 25;
  const m = await marketWith(N);
  const sql = getSql();
  await listAll(m.partnerId);
  console.log(`# listed-tickets: one show with ${N} active listings, median of ${RUNS} reads; ${machine()}`);
  const raw = async () => {
    const t0 = performance.now();
    const rows = await sql`
      select l.id, l.type, l.currency, l.price_minor, l.ticket_count, l.ticket_option_id, l.price_type_id, s.show_id,
        e.external_reference_id,
        (select json_agg(json_build_object('ticketId', i.ticket_id, 'seating', i.seating) order by i.ticket_id)
          from listing_items i where i.listing_id = l.id) as seats
      from listings l join shows s on s.id = l.show_pk join events e on e.id = s.event_id
      where l.partner_id = ${m.partnerId} and l.status = 'ACTIVE' and e.external_reference_id = ${m.ref}
        and s.show_id = 'S1'
      order by l.price_minor, l.id`;
    if (rows.length !== N) throw new Error(`raw read answered ${rows.length}`);
    return performance.now() - t0;
  };
  const project = async () => {
    const t0 = performance.now();
    const rows = await listedTickets(m.partnerId, m.ref, 'S1', getDb());
    if (rows.length !== N) throw new Error(`listedTickets answered ${rows.length}`);
    return performance.now() - t0;
  };
  await raw();
  await project();
  const rawTimes: number[] = [];
  const projectTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    rawTimes.push(await raw());
    projectTimes.push(await project());
  }
  return { value: median(projectTimes), baseline: median(rawTimes), unit: 'ms', kind: 'time' };
}

/**
 * buy-page: median time to render the buy page (`/market/<event>?show=<show>`, server-side, whole HTML
 * read) of a show with 500 listings from the built app over HTTP, against the median of the bare API
 * call behind it (`GET …/listedTickets?showId=` with the partner's key) to the same app; alternating.
 */
export async function runBuyPage(): Promise<BenchResult> {
  const N = Number(process.env.BENCH_PAGE_LISTINGS ?? 500);
  const RUNS = 15;
  const m = await marketWith(N);
  await listAll(m.partnerId);
  const base = await startApp(process.env.DATABASE_URL ?? '');
  const [place] = await getSql()<{ event_pk: string; show_pk: string }[]>`
    select event_pk, show_pk from tickets where partner_id = ${m.partnerId} limit 1`;
  const apiUrl = `${base}/v1/marketplace/items/events/${encodeURIComponent(m.ref)}/listedTickets?showId=S1`;
  console.log(`# buy-page: one show with ${N} listings, median of ${RUNS} renders; ${machine()}`);
  const page = pageTimer(`${base}/market/${place.event_pk}?show=${place.show_pk}&lang=en`, Math.min(N, 25));
  const api = async () => {
    const t0 = performance.now();
    const res = await fetch(apiUrl, { headers: { authorization: m.key } });
    const body = (await res.json()) as { data?: unknown[] };
    const ms = performance.now() - t0;
    if (res.status !== 200 || body.data?.length !== N) throw new Error(`listedTickets answered ${res.status}`);
    return ms;
  };
  await page();
  await api();
  const pageTimes: number[] = [];
  const apiTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    pageTimes.push(await page());
    apiTimes.push(await api());
  }
  await withSeatMap(base);
  return { value: median(pageTimes), baseline: median(apiTimes), unit: 'ms', kind: 'time' };
}

/**
 * One render of the buy page a call, timed: each call's address its own (`returnTo`, a parameter the page
 * reads, so never a page shared by an address or kept while its model holds: server/http/shared-page-render.ts).
 */
function pageTimer(address: string, shown: number, drawsMap?: boolean) {
  // Each timer its own addresses: a page kept for an address while its model holds is not a render.
  const tag = Math.random().toString(36).slice(2, 8);
  let run = 0;
  let bytes = 0;
  let mapBytes = 0;
  let lastMapMs = 0;
  const timer = async () => {
    const t0 = performance.now();
    const res = await fetch(`${address}&returnTo=${encodeURIComponent(`https://bench.example/${tag}/${run++}`)}`);
    const html = await res.text();
    const ms = performance.now() - t0;
    bytes = html.length;
    const listed = new Set(html.match(/lst_bench_[0-9a-f]{6}_\d+/g) ?? []).size;
    // A page shows 25 offers (BUY_PAGE_SIZE).
    if (res.status !== 200 || listed < shown)
      throw new Error(`buy page answered ${res.status} with ${listed} listings`);
    if (drawsMap !== undefined && html.includes('buy-map') !== drawsMap)
      throw new Error(`buy page drawn ${drawsMap ? 'without' : 'with'} its map`);
    if (!drawsMap) return ms;
    // The map's own document, in its frame on the page: counted with the page (a fan's browser asks for both).
    const frame = /<iframe[^>]*\ssrc="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
    if (!frame) throw new Error('buy page drawn without its map frame');
    const t1 = performance.now();
    const map = await fetch(new URL(frame, address));
    const drawing = await map.text();
    const mapMs = performance.now() - t1;
    if (map.status !== 200 || !drawing.includes('aria-label'))
      throw new Error(`the map document answered ${map.status}`);
    mapBytes = drawing.length;
    lastMapMs = mapMs;
    return ms + mapMs;
  };
  /** The last page's length (characters of HTML), and its map document's (0 without a map). */
  return Object.assign(timer, { bytes: () => bytes, mapBytes: () => mapBytes, mapMs: () => lastMapMs });
}

/**
 * A seat map of `sections` sections in a grid, as venues' section maps are drawn: a shape and the section's
 * name for each (seats are not drawn one by one).
 */
function seatMapSvg(sections: number): string {
  const columns = 20;
  const parts: string[] = [];
  for (let s = 0; s < sections; s++) {
    const x = (s % columns) * 50;
    const y = Math.floor(s / columns) * 50;
    parts.push(
      `<g data-section="S${s}" data-label="Sector ${s}"><path d="M${x} ${y}h46v46h-46z" fill="#e4ecf7"/>` +
        `<text x="${x + 23}" y="${y + 27}" text-anchor="middle" font-size="12">${s}</text></g>`,
    );
  }
  const rows = Math.ceil(sections / columns);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${columns * 50} ${rows * 50}">${parts.join('')}</svg>`;
}

/**
 * The seat map's case: two shows of 2,000 listings in 200 sections, alike but for a 200-section map: their buy
 * pages and buy access layers, alternating (a busy machine weighs on both alike). The map moves to the other
 * show half-way, and each pair's order alternates, so neither a show's own data nor the garbage one render
 * leaves to the next weighs on one side. A page with the map is timed with its map document (a frame on the
 * page, asked for after it, as a browser does). Each timed page is drawn from its show's model as read a moment
 * before (the render a fan's page costs in a rush): a render that also reads the model (2,000 offers) takes
 * 3-4 times as long, and a median over both kinds was a coin toss. Printed: both medians and ratios (goal
 * ≥ 0.8 each: without ÷ with).
 */
async function withSeatMap(base: string) {
  const LISTINGS = 2000;
  const SECTIONS = 200;
  const RUNS = 16;
  const svg = seatMapSvg(SECTIONS);
  const side = async () => {
    const m = await marketWith(LISTINGS, SECTIONS);
    await listAll(m.partnerId);
    const [place] = await getSql()<{ event_pk: string; show_pk: string }[]>`
      select event_pk, show_pk from tickets where partner_id = ${m.partnerId} limit 1`;
    const address = `${base}/market/${place.event_pk}?show=${place.show_pk}&lang=en`;
    const pages = { with: pageTimer(address, 25, true), without: pageTimer(address, 25, false) };
    const layerUrl = `${base}/v1/wrapper/accesslayer?type=buy&eventId=${encodeURIComponent(m.ref)}&showId=S1&lang=en`;
    const layer = async (withMap: boolean) => {
      const t0 = performance.now();
      const res = await fetch(layerUrl, { headers: { authorization: m.key } });
      const body = (await res.json()) as { data?: { components: { type: string; map?: { sections: unknown[] } }[] } };
      const ms = performance.now() - t0;
      const map = body.data?.components.find((c) => c.type === 'map');
      if (res.status !== 200 || !!map !== withMap || (map && map.map?.sections.length !== SECTIONS))
        throw new Error(`the access layer answered ${res.status} ${withMap ? 'without' : 'with'} its map`);
      return ms;
    };
    const drawMap = (withMap: boolean) =>
      getSql()`update events set seating = ${withMap ? JSON.stringify({ svgCode: svg }) : null}::jsonb
        where partner_id = ${m.partnerId} and external_reference_id = ${m.ref}`;
    return { pages, layer, drawMap };
  };
  const shows = [await side(), await side()];
  const times = {
    with: { pages: [] as number[], layers: [] as number[] },
    without: { pages: [] as number[], layers: [] as number[] },
  };
  const bytes = { with: 0, without: 0, map: 0 };
  const mapTimes: number[] = [];
  for (const mapped of [1, 0]) {
    await Promise.all(shows.map((s, i) => s.drawMap(i === mapped)));
    // The page's event is read through a short cache: past it, every render has (or lacks) the map.
    await new Promise((r) => setTimeout(r, 1100));
    const roles = shows.map((s, i) => ({ s, role: i === mapped ? ('with' as const) : ('without' as const) }));
    for (const { s, role } of roles) {
      await s.pages[role]();
      await s.layer(role === 'with');
    }
    for (let i = 0; i < RUNS; i++) {
      for (const { s, role } of i % 2 ? [...roles].reverse() : roles) {
        // A render of its own, on the show's model as fans in a rush share it (read once per third of a
        // second): the render before it reads the model when it is due, so only drawing is timed.
        await s.pages[role]();
        times[role].pages.push(await s.pages[role]());
        times[role].layers.push(await s.layer(role === 'with'));
        bytes[role] = s.pages[role].bytes();
        if (role === 'with') {
          bytes.map = s.pages[role].mapBytes();
          mapTimes.push(s.pages[role].mapMs());
        }
      }
    }
  }
  const [without, withMap] = [times.without, times.with].map((t) => ({
    page: median(t.pages),
    layer: median(t.layers),
  }));
  const fmt = (n: number) => n.toFixed(1);
  const pageRatio = without.page / withMap.page;
  const layerRatio = without.layer / withMap.layer;
  console.log(
    `# buy-page with a ${SECTIONS}-section map (${Math.round(svg.length / 1024)} KB, ${LISTINGS} listings), ` +
      `median of ${RUNS * 2}, alternating with a show alike without it: page ${fmt(withMap.page)} ms ` +
      `(its map document ${fmt(median(mapTimes))} ms of it) vs ` +
      `${fmt(without.page)} ms (ratio ${pageRatio.toFixed(2)}, ≥ 0.8: ${pageRatio >= 0.8 ? 'met' : 'NOT MET'}); ` +
      `access layer ${fmt(withMap.layer)} ms vs ${fmt(without.layer)} ms (ratio ${layerRatio.toFixed(2)}, ` +
      `≥ 0.8: ${layerRatio >= 0.8 ? 'met' : 'NOT MET'}); page ${bytes.with} (+ its map document ${bytes.map}) vs ` +
      `${bytes.without} characters`,
  );
}
