import http from 'node:http';
import { and, count, eq } from 'drizzle-orm';
import { Pool } from 'undici';
import { getDb } from '@/db';
import { webhookMessages } from '@/db/schema';
import { LocalJobProvider } from '@/server/jobs/local';
import { allJobs } from '@/server/jobs/registry';
import { createPartnerWithKeys } from '@/server/modules/partners';
import { webhookDispatchJob } from '@/server/modules/webhooks';
import { enqueueWebhook, upsertEndpoint } from '@/server/modules/webhooks';
import type { BenchResult } from './run';
import { machine, startReceiver } from './servers';

const N = Number(process.env.BENCH_WEBHOOKS ?? 5000);
const REPS = 5;
/**
 * Deliveries one app instance keeps in flight: the dispatch job runs 2 at once (its `concurrency`,
 * jobs.ts), each dispatcher 32 (dispatchDue's default, delivery.ts). Under a stream of state changes
 * every enqueueing transaction kicks a dispatch, so both run; the bench queues two dispatches likewise.
 */
const DISPATCHERS = 2;
const CONCURRENCY = DISPATCHERS * 32;

/** Runs `send` over every body with CONCURRENCY in flight; answers the milliseconds it took. */
async function inFlight(bodies: string[], send: (body: string) => Promise<void>): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < bodies.length) await send(bodies[next++]);
    }),
  );
  return performance.now() - t0;
}

/** The bare node:http client: a keep-alive agent with as many sockets as requests in flight. */
async function postAllNodeHttp(url: string, bodies: string[]): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const ms = await inFlight(
    bodies,
    (body) =>
      new Promise<void>((resolve, reject) => {
        const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } });
        req.on('response', (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end(body);
      }),
  );
  agent.destroy();
  return ms;
}

/** The bare undici client (the fastest here: ~2x node:http's requests per CPU second): a pool of CONCURRENCY connections. */
async function postAllUndici(url: string, bodies: string[]): Promise<number> {
  const { origin, pathname } = new URL(url);
  const pool = new Pool(origin, { connections: CONCURRENCY });
  const ms = await inFlight(bodies, async (body) => {
    const res = await pool.request({
      path: pathname,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    await res.body.dump();
  });
  await pool.close();
  return ms;
}

/**
 * Deliveries per second to a local receiver: the whole path (outbox rows → job provider → dispatchers
 * → signed POST → attempt log) against a bare client posting the same bodies to the same server with
 * as many requests in flight. Best of REPS runs of each, alternating (the machine is shared).
 */
export async function run(): Promise<BenchResult> {
  const receiver = await startReceiver();
  const url = `${receiver}/hooks`;
  const receivedCount = async () => Number(await (await fetch(`${receiver}/count`)).text());
  const bodies = Array.from({ length: N }, (_, i) =>
    JSON.stringify({
      family: 'ticket',
      action: 'ticket.updated',
      data: { id: `T-${i}`, newOwnerEmail: `fan${i}@example.com` },
    }),
  );
  const provider = new LocalJobProvider(process.env.DATABASE_URL!, { pollingIntervalSeconds: 0.5 });
  await provider.start(allJobs());

  /** One delivery of `messages` through the project; answers the milliseconds from the dispatch to the last record. */
  const project = async (label: string, messages: string[]): Promise<number> => {
    // Enqueued before the clock starts, as the state changes that make them would have.
    const { partner } = await createPartnerWithKeys(`Bench webhooks ${label}`);
    await upsertEndpoint({ partnerId: partner.id, url });
    await getDb().transaction(async (tx) => {
      for (const body of messages) await enqueueWebhook(tx, partner.id, JSON.parse(body));
    });
    const before = await receivedCount();
    const p0 = performance.now();
    for (let d = 0; d < DISPATCHERS; d++) await provider.send(webhookDispatchJob.id, {});
    // The clock stops when every attempt is recorded as delivered. The receiver's count is asked first, so
    // the measuring does not load the database while delivery is under way.
    for (;;) {
      await new Promise((r) => setTimeout(r, 10));
      if ((await receivedCount()) - before < messages.length) continue;
      const [{ n }] = await getDb()
        .select({ n: count() })
        .from(webhookMessages)
        .where(and(eq(webhookMessages.partnerId, partner.id), eq(webhookMessages.status, 'delivered')));
      if (n >= messages.length) break;
    }
    const ms = performance.now() - p0;
    const received = (await receivedCount()) - before;
    if (received !== messages.length) throw new Error(`receiver saw ${received} of ${messages.length} deliveries`);
    return ms;
  };

  // Warm-up of every path (the first run of each is always the slowest: JIT, connections).
  await postAllNodeHttp(url, bodies.slice(0, 1000));
  await postAllUndici(url, bodies.slice(0, 1000));
  await project('warm-up', bodies.slice(0, 1000));

  const nodeRates: number[] = [];
  const undiciRates: number[] = [];
  const appRates: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    nodeRates.push(N / ((await postAllNodeHttp(url, bodies)) / 1000));
    undiciRates.push(N / ((await postAllUndici(url, bodies)) / 1000));
    appRates.push(N / ((await project(String(rep), bodies)) / 1000));
  }
  await provider.stop();
  const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  const baseline = Math.max(...nodeRates, ...undiciRates);
  console.log(
    `# webhook-delivery: ${N} messages of ~${bodies[0].length} bytes, ${DISPATCHERS} dispatchers x 32 = ${CONCURRENCY} in flight, ` +
      `receiver in its own process on loopback; baseline = the faster bare client (node:http agent or undici pool), ` +
      `${CONCURRENCY} in flight, posting the same bodies; best of ${REPS} (app ${list(appRates)}; node:http ${list(nodeRates)}; ` +
      `undici ${list(undiciRates)} deliveries/s); machine: ${machine()}`,
  );
  return { value: Math.max(...appRates), unit: 'deliveries/s', baseline, kind: 'rate' };
}
