import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import autocannon, { type Result } from 'autocannon';
import { drizzle } from 'drizzle-orm/postgres-js';
import { getSql } from '@/db';
import * as schema from '@/db/schema';
import { showInventories } from '@/server/modules/market-data';
import { buyerPromiseFacts } from '@/server/modules/marketplace';
import { buyPage } from '@/server/modules/fan-pages';
import { getPartner } from '@/server/modules/partners';
import { listAll, marketWith } from './market';
import type { BenchResult } from './run';
import { machine, startApp, startBare } from './servers';
import { sharedPageRenders, startEdge } from '@/server/testing/edge';
import { EDGE_FRESHNESS_MS } from '@/server/lib/freshness';

/**
 * onsale-peak: the minutes after a show sells out, on the built app over HTTP. A show
 * with 2,000 listings; for SECONDS at once, with autocannon:
 *   - fans on the buy page: the same 40 addresses (pages 1–40, both sorts, a quantity and a zone filter,
 *     Spanish), sent with `Accept-Encoding: gzip` as browsers do;
 *   - 100 buyers racing for the 50 cheapest listings through POST buyIntention (exactly 50 must win);
 *   - the partner posting POST /v1/tickets batches of 50 new tickets (2 connections; every ticket of every
 *     accepted batch must be imported afterwards) and reading GET listedTickets (10 connections).
 * Two parts, each on a show of its own, each printing every path's requests/s, p50/p99 and errors:
 *   1. Through the reference edge (edge/nginx.conf) in front of two instances on one PostgreSQL (EDGE_CACHE),
 *      EDGE_FANS connections (1,000). Also printed: the instances' renders of shared pages a second
 *      (encore_shared_page_renders_total) and the 304s answered instead of renders for pages whose model had
 *      not changed (encore_shared_pages_unchanged_total), and the longest time an offer stayed on a page after
 *      its hold was committed (a watcher reads the pages holding the 50 cheapest through the edge all along).
 *      Baseline: the same rush again on a show of its own (buyers, imports, reads), its fans asking the same
 *      nginx for a static file of the page's size (as sent, gzip) instead of the pages.
 *   2. The embedded default: one instance, no edge, FANS connections (200); baseline: the bare server
 *      answering every request with the buy page's reads (the statements the page's data functions send).
 * The line's ratio is part 1's: pages/s through the edge over the static file's (part 2's when it runs alone).
 */
const LISTINGS = 2000;
const HOT = 50;
const BUYERS = 100;
const FANS = Number(process.env.BENCH_FANS ?? 200);
const EDGE_FANS = Number(process.env.BENCH_EDGE_FANS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const BATCH = 50;
/** The instances behind the edge (part 1), beside the one instance of part 2 (servers.ts's port). */
const EDGE_APP_PORTS = [3224, 3225];
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

interface PathFigures {
  path: string;
  result: Result;
  errors: number;
}

/** Requests/s, p50/p99 and errors of one path, as one printed line. */
function line({ path, result, errors }: PathFigures): string {
  const rps = result.requests.total / (result.duration || 1);
  return `#   ${path.padEnd(34)} ${rps.toFixed(1).padStart(7)} req/s  p50 ${String(result.latency.p50).padStart(5)} ms  p99 ${String(result.latency.p99).padStart(5)} ms  ${result.requests.total} requests, ${errors} errors`;
}

/** Runs autocannon, counting every answer whose status is not one of `expected` as an error. */
async function load(
  path: string,
  opts: autocannon.Options,
  expected: number[],
  onStatus?: (status: number) => void,
): Promise<PathFigures> {
  let unexpected = 0;
  const result = await new Promise<Result>((resolve, reject) => {
    const instance = autocannon({ ...opts, timeout: 30 }, (err, done) => (err ? reject(err) : resolve(done)));
    instance.on('response', (_client, status) => {
      if (!expected.includes(status)) unexpected++;
      onStatus?.(status);
    });
  });
  // In a worker thread (`workers`) the answers are not seen one by one here: counted by status at the end.
  if (opts.workers) {
    for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) {
      if (!expected.includes(Number(status))) unexpected += count ?? 0;
    }
  }
  return { path, result, errors: unexpected + result.errors + result.timeouts };
}

/** The statements the buy page's data functions send for this show, with their parameters. */
async function buyPageStatements(eventPk: string, showPk: string, partnerId: string) {
  const statements: { text: string; params: unknown[] }[] = [];
  const db = drizzle(getSql(), {
    schema,
    casing: 'snake_case',
    logger: { logQuery: (text, params) => statements.push({ text, params }) },
  });
  await buyPage(eventPk, { show: showPk }, db);
  await getPartner(partnerId, db);
  await showInventories([showPk], db);
  await buyerPromiseFacts(showPk, db);
  return statements;
}

/** A show of its own for one part: 2,000 listings, and the 50 cheapest the buyers race for. */
async function showForRush() {
  const m = await marketWith(LISTINGS);
  await listAll(m.partnerId);
  const sql = getSql();
  const [place] = await sql<{ event_pk: string; show_pk: string }[]>`
    select event_pk, show_pk from tickets where partner_id = ${m.partnerId} limit 1`;
  const hot = (
    await sql<{ id: string }[]>`
      select id from listings where partner_id = ${m.partnerId} order by price_minor, id limit ${HOT}`
  ).map((r) => r.id);
  return { m, eventPk: place.event_pk, showPk: place.show_pk, hot };
}
type RushShow = Awaited<ReturnType<typeof showForRush>>;

/** The 40 addresses the fans ask for, in turn. */
function fanPaths(show: RushShow): () => string {
  const filters = ['', '&sort=price_desc', '&qty=1', '&zone=S3', '&lang=es'];
  let fanCount = 0;
  return () => {
    const i = fanCount++;
    return `/market/${show.eventPk}?show=${show.showPk}&page=${(i % 40) + 1}${filters[i % filters.length]}`;
  };
}

interface RushFigures {
  fans: PathFigures;
  buyers: PathFigures;
  imports: PathFigures;
  reads: PathFigures;
  won: number;
  lost: number;
  started: Date;
}

/** The rush itself, on `base`: fans, buyers, the partner's imports and reads, all at once. */
async function rush(
  base: string,
  show: RushShow,
  fans: number,
  threaded: boolean,
  staticPath?: string,
): Promise<RushFigures> {
  const { m, hot } = show;
  // The baseline's rush: the fans ask for the static file instead of the pages, the rest is the same.
  const fanPath = staticPath ? () => staticPath : fanPaths(show);
  const started = new Date();
  let won = 0;
  let lost = 0;
  let buyer = 0;
  let batch = 0;
  const auth = { authorization: m.key, 'content-type': 'application/json' };
  const [fanFigures, buyers, imports, reads] = await Promise.all([
    load(
      staticPath ? `GET static file (nginx)` : 'GET /market/<event> (buy page)',
      {
        url: base,
        connections: fans,
        duration: SECONDS,
        // As browsers ask: compressed.
        headers: { 'accept-encoding': 'gzip' },
        // Through the edge, the fans' load from a thread of its own (autocannon's worker): a thousand
        // connections would otherwise hold up this thread, which times the buyers and watches the pages;
        // each connection goes through the 40 addresses in turn. On one instance (200 fans), the addresses
        // are handed out one after another across the connections, so its figures stay comparable.
        ...(threaded
          ? { workers: 1, requests: Array.from({ length: 40 }, () => ({ path: fanPath() })) }
          : { requests: [{ setupRequest: (r: autocannon.Request) => ({ ...r, path: fanPath() }) }] }),
      },
      [200],
    ),
    // The buyers arrive a second into the rush, all at once.
    new Promise<PathFigures>((resolve, reject) =>
      setTimeout(
        () =>
          load(
            'POST buyIntention',
            {
              url: `${base}/v1/marketplace/buyingflow/buyIntention`,
              connections: BUYERS,
              amount: BUYERS,
              method: 'POST',
              headers: auth,
              requests: [
                {
                  setupRequest: (r) => {
                    const i = buyer++;
                    return { ...r, body: JSON.stringify({ items: [hot[i % HOT]], user: `rush${i}@bench.test` }) };
                  },
                },
              ],
            },
            [200, 409],
            (status) => (status === 200 ? won++ : status === 409 ? lost++ : undefined),
          ).then(resolve, reject),
        1000,
      ),
    ),
    load(
      'POST /v1/tickets (50 a batch)',
      {
        url: `${base}/v1/tickets`,
        connections: 2,
        duration: SECONDS,
        method: 'POST',
        headers: auth,
        requests: [
          {
            setupRequest: (r) => {
              const k = batch++;
              const tickets = Array.from({ length: BATCH }, (_, i) => ({
                externalReferenceEventId: m.ref,
                showId: 'S1',
                ticketId: `RUSH-${k}-${i}`,
                ticketOptionId: 'GA',
                buyer: `holder${k}@bench.test`,
                ticketAccess: { type: 'OTHER', locator: `R${k}-${i}` },
              }));
              return { ...r, body: JSON.stringify(tickets) };
            },
          },
        ],
      },
      [200],
    ),
    load(
      'GET listedTickets',
      {
        url: `${base}/v1/marketplace/items/events/${encodeURIComponent(m.ref)}/listedTickets?showId=S1`,
        connections: 10,
        duration: SECONDS,
        headers: { authorization: m.key },
      },
      [200],
    ),
  ]);
  return { fans: fanFigures, buyers, imports, reads, won, lost, started };
}

/**
 * Every answer right after a rush: 50 winners (and the database agrees), every accepted batch imported in
 * full, no error. Prints the lines; throws when one is not met.
 */
async function checkRush(show: RushShow, figures: RushFigures, baseline?: PathFigures): Promise<void> {
  const { m } = show;
  const sql = getSql();
  const { fans, buyers, imports, reads, won, lost } = figures;
  for (const p of [fans, buyers, imports, reads, ...(baseline ? [baseline] : [])]) console.log(line(p));
  const [holds] = await sql<{ intentions: number; listings: number }[]>`
    select count(*)::int as intentions, count(distinct l)::int as listings
    from buy_intentions i, unnest(i.listing_ids) as l
    where i.partner_id = ${m.partnerId} and i.status = 'PENDING'`;
  let importedAll = false;
  let counts = { sent: 0, imported: 0, failed: 0 };
  for (let i = 0; i < 600 && !importedAll; i++) {
    const [row] = await sql<{ sent: number; imported: number; failed: number; open: number }[]>`
      select coalesce(sum(total), 0)::int as sent, coalesce(sum(imported), 0)::int as imported,
        coalesce(sum(failed), 0)::int as failed, count(*) filter (where status <> 'completed')::int as open
      from ticket_batches where partner_id = ${m.partnerId} and created_at >= ${figures.started.toISOString()}`;
    const [stored] = await sql<{ n: number }[]>`
      select count(*)::int as n from tickets where partner_id = ${m.partnerId} and ticket_id like 'RUSH-%'`;
    counts = { sent: row.sent, imported: stored.n, failed: row.failed };
    importedAll = row.open === 0 && stored.n === row.imported && row.failed === 0;
    if (!importedAll) await new Promise((r) => setTimeout(r, 500));
  }
  const rushSent = counts.sent;
  console.log(
    `#   winners ${won} (database: ${holds.intentions} holds on ${holds.listings} listings), 409s ${lost}; ` +
      `tickets imported ${counts.imported} of ${rushSent} accepted in the rush, ${counts.failed} failed`,
  );
  const errors = fans.errors + buyers.errors + imports.errors + reads.errors;
  if (errors > 0) throw new Error(`onsale-peak: ${errors} errors`);
  if (won !== HOT || holds.intentions !== HOT || holds.listings !== HOT)
    throw new Error(`onsale-peak: expected ${HOT} winners, got ${won} (${holds.intentions} holds in the database)`);
  if (!importedAll || counts.imported !== rushSent)
    throw new Error(`onsale-peak: ${counts.imported} tickets imported of ${rushSent} accepted`);
}

const rate = (p: PathFigures) => p.result.requests.total / (p.result.duration || 1);

/** Part 2: the embedded default, one instance without an edge, against the bare server's reads. */
async function oneInstance(): Promise<BenchResult> {
  const show = await showForRush();
  const base = await startApp(process.env.DATABASE_URL ?? '');
  const statements = await buyPageStatements(show.eventPk, show.showPk, show.m.partnerId);
  const bare = await startBare(process.env.DATABASE_URL ?? '', {
    partnerId: show.m.partnerId,
    eventPk: show.eventPk,
    showPk: show.showPk,
    statements,
  });
  console.log(
    `# onsale-peak, 2. one instance (the embedded default, no edge): ${FANS} fan connections on 40 addresses, ` +
      `${BUYERS} buyers for ${HOT} listings, the partner importing batches of ${BATCH} and reading listedTickets, ` +
      `${SECONDS} s; baseline: ${FANS} connections on the bare server's buy page reads (${statements.length} statements); ${machine()}`,
  );
  // Warm both servers (first renders compile and fill caches), then the rush.
  const fanPath = fanPaths(show);
  for (let i = 0; i < 5; i++) {
    await (await fetch(`${base}${fanPath()}`)).text();
    await (await fetch(`${bare}/market`)).text();
  }
  const figures = await rush(base, show, FANS, false);
  const baseline = await load(
    'GET bare buy page reads',
    { url: `${bare}/market`, connections: FANS, duration: SECONDS },
    [200],
  );
  await checkRush(show, figures, baseline);
  console.log(
    `#   one instance: ${rate(figures.fans).toFixed(1)} buy pages/s vs ${rate(baseline).toFixed(1)} bare reads/s ` +
      `(ratio ${(rate(figures.fans) / rate(baseline)).toFixed(2)}; goal: not below 39 pages/s: ` +
      `${rate(figures.fans) >= 39 ? 'met' : 'NOT MET'})`,
  );
  return { value: rate(figures.fans), baseline: rate(baseline), unit: 'pages/s', kind: 'rate' };
}

/** Part 1: through the reference edge in front of two instances, against the same nginx serving a static file. */
async function throughEdge(): Promise<BenchResult> {
  const show = await showForRush();
  const baselineShow = await showForRush();
  const database = process.env.DATABASE_URL ?? '';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'encore-bench-static-'));
  // nginx's workers (nobody) read the file.
  fs.chmodSync(dir, 0o755);
  // The fans' pages on one instance and the partners' API (and the jobs: imports) on the other, each the
  // other's backup (docs/operations.md "Running at scale"): on one shared event loop a partner's bulk reads
  // held the pages' refreshes up for seconds (measured: the model read behind a 304 took 0.3–2 s mid-rush).
  const [pagesAt, apiAt] = EDGE_APP_PORTS.map((port) => `127.0.0.1:${port}`);
  const edge = await startEdge({
    upstreams: [pagesAt, `${apiAt} backup`],
    apiUpstreams: [apiAt, `${pagesAt} backup`],
    // The baseline: a file of the page's size as sent, served by the same nginx.
    extraLocations: `location = /static-page { default_type text/html; add_header Content-Encoding gzip; alias ${dir}/page.gz; }`,
  });
  // As deployed: every instance behind the edge is Encore at the edge's address (the pages' links say so,
  // and two instances make the same page of the same data: a page's version is the same whichever made it).
  const behindEdge = {
    EDGE_CACHE: '1',
    TRUSTED_PROXY_HOPS: '1',
    METRICS_TOKEN,
    PUBLIC_BASE_URL: edge.url,
    NEXTAUTH_URL: edge.url,
  };
  const origins = await Promise.all(
    EDGE_APP_PORTS.map((port, i) => startApp(database, port, { ...behindEdge, JOBS_WORKER: i === 0 ? '0' : '1' })),
  );
  try {
    const fanPath = fanPaths(show);
    for (let i = 0; i < 40; i++) await (await fetch(`${edge.url}${fanPath()}`)).text();
    const page = await (await fetch(`${edge.url}/market/${show.eventPk}?show=${show.showPk}&page=1`)).text();
    fs.writeFileSync(path.join(dir, 'page.gz'), zlib.gzipSync(page, { level: 6 }), { mode: 0o644 });
    const check = await fetch(`${edge.url}/static-page`);
    if (!check.ok) throw new Error(`onsale-peak: the static file answered ${check.status}`);
    await check.arrayBuffer();
    console.log(
      `# onsale-peak, 1. through the reference edge (edge/nginx.conf) in front of ${origins.length} instances on one ` +
        `PostgreSQL: ${EDGE_FANS} fan connections on 40 addresses, ${BUYERS} buyers for ${HOT} listings, the partner ` +
        `importing batches of ${BATCH} and reading listedTickets, ${SECONDS} s; baseline: the same rush, its fans ` +
        `asking the same nginx for a static file of the page's size (${fs.statSync(path.join(dir, 'page.gz')).size} ` +
        `bytes gzip); ${machine()}`,
    );

    // A watcher on the pages holding the 50 cheapest offers, through the edge, all along the rush.
    const lastSeen = new Map<string, number>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        for (const p of [1, 2]) {
          const body = await (await fetch(`${edge.url}/market/${show.eventPk}?show=${show.showPk}&page=${p}`)).text();
          const at = Date.now();
          for (const id of show.hot) if (body.includes(`data-listing-id="${id}"`)) lastSeen.set(id, at);
        }
        // A look every 20 ms is fine enough for a bound of seconds; an unpaced loop took most of a core of
        // this process, which is also the fans' load generator's (measured: 1.45 cores for the two).
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const rendersBefore = await sharedPageRenders(origins, METRICS_TOKEN);
    const unchangedBefore = await sharedPageRenders(origins, METRICS_TOKEN, 'unchanged');
    const figures = await rush(edge.url, show, EDGE_FANS, true);
    const renderRate = ((await sharedPageRenders(origins, METRICS_TOKEN)) - rendersBefore) / SECONDS;
    const unchangedRate = ((await sharedPageRenders(origins, METRICS_TOKEN, 'unchanged')) - unchangedBefore) / SECONDS;
    watching = false;
    await watcher;
    // The baseline: the same rush (its buyers on a show of their own, the same imports and reads), its fans
    // asking the same nginx for a static file of the page's size. On this machine the partner's imports and
    // reads take over a core; a baseline without them would measure them, not the edge.
    const baselineFigures = await rush(edge.url, baselineShow, EDGE_FANS, true, '/static-page');
    const baseline = baselineFigures.fans;
    console.log('#   the rush through the edge:');
    await checkRush(show, figures);
    console.log('#   the same rush, the fans asking for the static file:');
    await checkRush(baselineShow, baselineFigures);

    const held = await getSql()<{ id: string; at: Date | string }[]>`
      select l as id, i.created_at as at from buy_intentions i, unnest(i.listing_ids) as l
      where i.partner_id = ${show.m.partnerId} and i.status = 'PENDING'`;
    const stale = Math.max(0, ...held.map((h) => (lastSeen.get(h.id) ?? 0) - new Date(h.at).getTime()));
    const ratio = rate(figures.fans) / rate(baseline);
    const p99 = figures.fans.result.latency.p99;
    const staticP99 = baseline.result.latency.p99;
    // The edge's goals, each said met or not (a goal missed is a figure to read, not a wrong answer: those throw above).
    const addresses = 41; // the fans' 40, and the watcher's second page
    const goals: [string, boolean][] = [
      [`ratio ${ratio.toFixed(2)} (≥ 0.5)`, ratio >= 0.5],
      [`p99 ${p99} ms vs static ${staticP99} ms (≤ 2× and < 1,000 ms)`, p99 <= 2 * staticP99 && p99 < 1000],
      [
        `origin renders ${renderRate.toFixed(1)}/s (≤ ${2 * addresses}; and ${unchangedRate.toFixed(1)} 304s/s for pages unchanged)`,
        renderRate <= 2 * addresses,
      ],
      [`longest a held offer stayed on a page ${stale} ms (≤ ${EDGE_FRESHNESS_MS})`, stale <= EDGE_FRESHNESS_MS],
    ];
    console.log(
      `#   through the edge: ${rate(figures.fans).toFixed(1)} pages/s vs ${rate(baseline).toFixed(1)} static/s; ` +
        goals.map(([what, met]) => `${what}: ${met ? 'met' : 'NOT MET'}`).join('; '),
    );
    return { value: rate(figures.fans), baseline: rate(baseline), unit: 'pages/s', kind: 'rate' };
  } finally {
    await edge.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchResult> {
  const parts = (process.env.BENCH_PARTS ?? 'edge,one').split(',');
  const edge = parts.includes('edge') ? await throughEdge() : undefined;
  const one = parts.includes('one') ? await oneInstance() : undefined;
  // The line's figure is part 1's; with part 2 alone, part 2's (never a made-up one).
  const result = edge ?? one;
  if (!result) throw new Error(`onsale-peak: BENCH_PARTS names no part (edge, one): ${process.env.BENCH_PARTS}`);
  return result;
}
