import { and, eq, inArray } from 'drizzle-orm';
import { POST as syncPost } from '@/app/v1/sync/tickets/route';
import { getDb } from '@/db';
import { shows, ticketBatches } from '@/db/schema';
import { createPartnerWithKeys } from '@/server/modules/partners';
import type { BenchResult } from './run';
import { machine, startApp, startBare } from './servers';

/**
 * The ticket benches go over HTTP, as partners do: the built app under `npm start` (its local job
 * provider importing the batches) beside a bare `node:http` server doing the same JSON parsing and
 * the same insert through postgres.js (bare-server.ts), both on the bench's database, same machine.
 */

interface Catalogue {
  app: string;
  bare: string;
  partnerId: string;
  apiKey: string;
  ref: string;
  showId: string;
}

async function post(url: string, body: string, key?: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: key } : {}) },
    body,
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) as unknown };
}

let shared: Promise<Catalogue> | undefined;

/** One partner, event and show for the whole run (created through the app's API), and both servers. */
function catalogue(): Promise<Catalogue> {
  shared ??= (async () => {
    const databaseUrl = process.env.DATABASE_URL!;
    const app = await startApp(databaseUrl);
    const { partner, apiKey } = await createPartnerWithKeys(`Bench tickets ${Date.now()}`, getDb());
    const ref = `BENCH-${Date.now()}`;
    const showId = `${ref}-S`;
    const res = await post(
      `${app}/v1/events`,
      JSON.stringify({
        title: 'Bench',
        description: 'd',
        externalReferenceId: ref,
        location: {},
        configuration: {},
        shows: [
          {
            title: 'S',
            date: '2027-01-01T20:00:00Z',
            showId,
            images: [],
            configuration: {},
            ticketOptions: [{ title: 'GA', ticketId: 'GA', description: 'g', currency: 'USD', price: 50 }],
          },
        ],
      }),
      apiKey,
    );
    if (res.status !== 200) throw new Error(`event setup failed: ${JSON.stringify(res.json)}`);
    const [show] = await getDb().select().from(shows).where(eq(shows.showId, showId));
    const bare = await startBare(databaseUrl, { partnerId: partner.id, eventPk: show.eventId, showPk: show.id });
    return { app, bare, partnerId: partner.id, apiKey, ref, showId };
  })();
  return shared;
}

const ticketBody = (c: Catalogue, id: string) => ({
  externalReferenceEventId: c.ref,
  showId: c.showId,
  buyer: `fan-${id}@example.com`,
  ticketId: id,
  ticketAccess: { type: 'URL', locator: `https://qr.example/${id}.png` },
  ticketOptionId: 'GA',
  price: 50,
});

/** JSON bodies of `size` tickets each, made before any clock starts (building them is the client's work). */
const bodies = (c: Catalogue, prefix: string, count: number, size: number) =>
  Array.from({ length: count }, (_, r) =>
    JSON.stringify(Array.from({ length: size }, (_, k) => ticketBody(c, `${prefix}${r}-${k}`))),
  );

async function bare(c: Catalogue, body: string): Promise<void> {
  const res = await post(`${c.bare}/tickets`, body);
  if (res.status !== 200) throw new Error(`bare server answered ${res.status}: ${JSON.stringify(res.json)}`);
}

/** POSTs the batches to /v1/tickets one after another; answers their batch ids. */
async function postBatches(c: Catalogue, list: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const body of list) {
    const res = await post(`${c.app}/v1/tickets`, body, c.apiKey);
    if (res.status !== 200) throw new Error(`POST /v1/tickets answered ${res.status}: ${JSON.stringify(res.json)}`);
    ids.push((res.json as { data: { batchId: string } }).data.batchId);
  }
  return ids;
}

/** Waits until every batch is imported by the app's job provider; answers how many tickets it imported. */
async function waitForBatches(c: Catalogue, ids: string[]): Promise<number> {
  for (;;) {
    const rows = await getDb()
      .select({ status: ticketBatches.status, imported: ticketBatches.imported, failed: ticketBatches.failed })
      .from(ticketBatches)
      .where(and(eq(ticketBatches.partnerId, c.partnerId), inArray(ticketBatches.id, ids)));
    if (rows.length === ids.length && rows.every((b) => b.status === 'completed')) {
      const failed = rows.reduce((a, b) => a + b.failed, 0);
      if (failed) throw new Error(`${failed} tickets failed to import`);
      return rows.reduce((a, b) => a + b.imported, 0);
    }
    await new Promise((res) => setTimeout(res, 25));
  }
}

/**
 * N tickets (50,000) in 10 `POST /v1/tickets` over HTTP, until every batch is imported, against the
 * same 10 requests to the bare server, which answers once its rows are inserted.
 */
export async function runImport(): Promise<BenchResult> {
  const c = await catalogue();
  const N = Number(process.env.BENCH_TICKETS ?? 50_000);
  const requests = 10;
  const size = Math.ceil(N / requests);
  // Warm-up: one small request each, so neither side pays its first-request loading in the figure.
  await bare(c, bodies(c, 'WARM-RAW-', 1, 10)[0]);
  await waitForBatches(c, await postBatches(c, bodies(c, 'WARM-API-', 1, 10)));

  const rawBodies = bodies(c, 'RAW-', requests, size);
  const b0 = performance.now();
  for (const body of rawBodies) await bare(c, body);
  const rawMs = performance.now() - b0;

  const apiBodies = bodies(c, 'API-', requests, size);
  const t0 = performance.now();
  const ids = await postBatches(c, apiBodies);
  const acceptedMs = performance.now() - t0;
  const imported = await waitForBatches(c, ids);
  const ms = performance.now() - t0;
  if (imported !== requests * size) throw new Error(`imported ${imported} of ${requests * size}`);

  console.log(
    `# ticket-import: ${requests * size} tickets in ${requests} requests of ${size} (${(rawBodies[0].length / 1e6).toFixed(1)} MB each) over HTTP; ` +
      `app = npm start + local job provider until every batch is imported (all accepted after ${acceptedMs.toFixed(0)} ms); ` +
      `baseline = bare node:http + postgres.js insert; machine: ${machine()}`,
  );
  return {
    value: (requests * size) / (ms / 1000),
    unit: 'tickets/s',
    baseline: (requests * size) / (rawMs / 1000),
    kind: 'rate',
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Median latency of `POST /v1/sync/tickets` with 500 tickets over HTTP, against the same request to
 * the bare server; the rounds alternate so both see the same load. The route handler called in-process
 * (no HTTP server) is printed beside it for reference.
 */
export async function runSync(): Promise<BenchResult> {
  const c = await catalogue();
  const rounds = 7;
  const size = 500;
  const rawBodies = bodies(c, 'RAWS-', rounds + 1, size);
  const apiBodies = bodies(c, 'SYNC-', rounds + 1, size);
  const inBodies = bodies(c, 'INPROC-', rounds, size);
  const sync = async (body: string) => {
    const t0 = performance.now();
    const res = await post(`${c.app}/v1/sync/tickets`, body, c.apiKey);
    const ms = performance.now() - t0;
    const imported = (res.json as { data?: { imported?: number } }).data?.imported;
    if (res.status !== 200 || imported !== size)
      throw new Error(`POST /v1/sync/tickets answered ${res.status}: ${JSON.stringify(res.json).slice(0, 500)}`);
    return ms;
  };
  // Round 0 of each side is a warm-up and not counted.
  const raw: number[] = [];
  const api: number[] = [];
  for (let r = 0; r <= rounds; r++) {
    const b0 = performance.now();
    await bare(c, rawBodies[r]);
    const rawMs = performance.now() - b0;
    const apiMs = await sync(apiBodies[r]);
    if (r > 0) {
      raw.push(rawMs);
      api.push(apiMs);
    }
  }
  // For reference only: the same route handler called in this process, without an HTTP server.
  const inProcess: number[] = [];
  for (const body of inBodies) {
    const req = new Request('http://bench.local/v1/sync/tickets', {
      method: 'POST',
      headers: { authorization: c.apiKey, 'content-type': 'application/json' },
      body,
    });
    const t0 = performance.now();
    const res = await syncPost(req);
    await res.arrayBuffer();
    inProcess.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`in-process POST /v1/sync/tickets answered ${res.status}`);
  }
  console.log(
    `# sync-tickets: median of ${rounds} requests of ${size} tickets (${(apiBodies[0].length / 1e3).toFixed(0)} kB) over HTTP after a warm-up; ` +
      `app = npm start; baseline = bare node:http + postgres.js insert; ` +
      `route handler in-process (no HTTP, reference only): ${median(inProcess).toFixed(1)} ms; machine: ${machine()}`,
  );
  return { value: median(api), unit: 'ms', baseline: median(raw), kind: 'time' };
}
