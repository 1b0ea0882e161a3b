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

/**
 * onsale-peak (issue 34): the minutes after a show sells out, on the built app over HTTP. A show with
 * 2,000 listings; for SECONDS at once, with autocannon:
 *   - fans on the buy page (FANS connections): pages 1–40, both sorts, a quantity and a zone filter, Spanish;
 *   - 100 buyers racing for the 50 cheapest listings through POST buyIntention (exactly 50 must win);
 *   - the partner posting POST /v1/tickets batches of 50 new tickets (2 connections; every ticket of every
 *     accepted batch must be imported afterwards) and reading GET listedTickets (10 connections).
 * Prints each path's requests/s, p50/p99 and errors (any transport error, timeout or unexpected status).
 * Baseline, in the same run: the same FANS connections for SECONDS against the bare server answering every
 * request with the buy page's reads (the statements the page's data functions send, recorded here, with
 * the same parameters). The line's ratio: the buy page's requests/s under the rush over the bare server's.
 */
const LISTINGS = 2000;
const HOT = 50;
const BUYERS = 100;
const FANS = Number(process.env.BENCH_FANS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const BATCH = 50;

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

export async function run(): Promise<BenchResult> {
  const m = await marketWith(LISTINGS);
  await listAll(m.partnerId);
  const sql = getSql();
  const [place] = await sql<{ event_pk: string; show_pk: string }[]>`
    select event_pk, show_pk from tickets where partner_id = ${m.partnerId} limit 1`;
  const hot = (
    await sql<{ id: string }[]>`
      select id from listings where partner_id = ${m.partnerId} order by price_minor, id limit ${HOT}`
  ).map((r) => r.id);
  const base = await startApp(process.env.DATABASE_URL ?? '');
  const statements = await buyPageStatements(place.event_pk, place.show_pk, m.partnerId);
  const bare = await startBare(process.env.DATABASE_URL ?? '', {
    partnerId: m.partnerId,
    eventPk: place.event_pk,
    showPk: place.show_pk,
    statements,
  });
  console.log(
    `# onsale-peak: one show with ${LISTINGS} listings; for ${SECONDS} s at once: ${FANS} fan connections on the buy page, ` +
      `${BUYERS} buyers for ${HOT} listings, the partner importing batches of ${BATCH} and reading listedTickets; ` +
      `baseline: ${FANS} connections on the bare server's buy page reads (${statements.length} statements); ${machine()}`,
  );

  const filters = ['', '&sort=price_desc', '&qty=1', '&zone=S3', '&lang=es'];
  let fanCount = 0;
  const fanPath = () => {
    const i = fanCount++;
    return `/market/${place.event_pk}?show=${place.show_pk}&page=${(i % 40) + 1}${filters[i % filters.length]}`;
  };
  // Warm both servers (first renders compile and fill caches), then the rush.
  for (let i = 0; i < 5; i++) {
    await (await fetch(`${base}${fanPath()}`)).text();
    await (await fetch(`${bare}/market`)).text();
  }

  const rushStart = new Date();
  let won = 0;
  let lost = 0;
  let buyer = 0;
  let batch = 0;
  const auth = { authorization: m.key, 'content-type': 'application/json' };
  const [fans, buyers, imports, reads] = await Promise.all([
    load(
      'GET /market/<event> (buy page)',
      {
        url: base,
        connections: FANS,
        duration: SECONDS,
        requests: [{ setupRequest: (r) => ({ ...r, path: fanPath() }) }],
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

  const baseline = await load(
    'GET bare buy page reads',
    { url: `${bare}/market`, connections: FANS, duration: SECONDS },
    [200],
  );
  for (const p of [fans, buyers, imports, reads, baseline]) console.log(line(p));

  // Every answer right: 50 winners (and the database agrees), every accepted batch imported in full.
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
      from ticket_batches where partner_id = ${m.partnerId} and created_at >= ${rushStart.toISOString()}`;
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

  const rate = (p: PathFigures) => p.result.requests.total / (p.result.duration || 1);
  return { value: rate(fans), baseline: rate(baseline), unit: 'req/s', kind: 'rate' };
}
