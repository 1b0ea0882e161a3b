import http from 'node:http';
import { and, count, eq } from 'drizzle-orm';
import { Pool } from 'undici';
import { getDb } from '@/db';
import { webhookMessages } from '@/db/schema';
import { LocalJobProvider } from '@/server/jobs/local';
import { allJobs } from '@/server/jobs/registry';
import { createPartnerWithKeys } from '@/server/modules/partners';
import { newId, newSigningSecret } from '@/server/lib/ids';
import { USER_AGENT } from '@/server/lib/outbound';
import {
  enqueueWebhook,
  upsertEndpoint,
  type PartnerWebhookMessage,
  webhookDispatchJob,
  webhookRequest,
} from '@/server/modules/webhooks';
import type { BenchResult } from './run';
import { machine, startReceiver } from './servers';

/**
 * 20,000 messages: a throughput measured over a second or more, not dominated by the first claim and
 * the last write (at 5,000 those were a fifth of a run).
 */
const N = Number(process.env.BENCH_WEBHOOKS ?? 20_000);
const REPS = 3;
/**
 * Deliveries one app instance keeps in flight: the dispatch job runs 2 at once (its `concurrency`,
 * jobs.ts), each dispatcher 32 (dispatchDue's default, delivery.ts). Under a stream of state changes
 * every enqueueing transaction kicks a dispatch, so both run; the bench queues two dispatches likewise.
 */
const DISPATCHERS = 2;
const CONCURRENCY = DISPATCHERS * 32;

interface Posted {
  body: string;
  headers: Record<string, string>;
}

/** Runs `send` over every request with CONCURRENCY in flight; answers the milliseconds it took. */
async function inFlight(requests: Posted[], send: (request: Posted) => Promise<void>): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests.length) await send(requests[next++]);
    }),
  );
  return performance.now() - t0;
}

/** The bare node:http client: a keep-alive agent with as many sockets as requests in flight. */
async function postAllNodeHttp(url: string, requests: Posted[]): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const ms = await inFlight(
    requests,
    ({ body, headers }) =>
      new Promise<void>((resolve, reject) => {
        const req = http.request(url, { method: 'POST', agent, headers });
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
async function postAllUndici(url: string, requests: Posted[]): Promise<number> {
  const { origin, pathname } = new URL(url);
  const pool = new Pool(origin, { connections: CONCURRENCY });
  const ms = await inFlight(requests, async ({ body, headers }) => {
    const res = await pool.request({ path: pathname, method: 'POST', headers, body });
    await res.body.dump();
  });
  await pool.close();
  return ms;
}

/**
 * Deliveries per second to a local receiver: the whole path (outbox rows → job provider → dispatchers
 * → signed POST → attempt log) against a bare client posting the same requests to the same server with
 * as many requests in flight. Best of REPS runs of each, alternating (the machine is shared).
 */
export async function run(): Promise<BenchResult> {
  const receiver = await startReceiver();
  const url = `${receiver}/hooks`;
  /** The receiver's count, once it is at least `atLeast` (the receiver holds the request until then). */
  const receivedCount = async (atLeast = 0) =>
    Number(await (await fetch(`${receiver}/count?atLeast=${atLeast}`)).text());
  const messages = Array.from({ length: N }, (_, i): PartnerWebhookMessage => ({
    family: 'ticket',
    action: 'ticket.updated',
    data: { id: `T-${i}`, newOwnerEmail: `fan${i}@example.com`, oldOwnerEmail: null },
  }));
  // The bare clients post what the dispatcher posts, byte for byte in form: the same bodies and headers
  // (Standard Webhooks id, timestamp and signature, the user agent), signed before their clock starts.
  const secret = newSigningSecret();
  const requests: Posted[] = messages.map((m) => {
    const { body, headers } = webhookRequest(
      { id: newId('msg'), family: m.family, action: m.action, data: JSON.stringify(m.data) },
      secret,
      null,
      new Date(),
    );
    return { body, headers: { 'user-agent': USER_AGENT, ...headers } };
  });
  const provider = new LocalJobProvider(process.env.DATABASE_URL!, { pollingIntervalSeconds: 0.5 });
  await provider.start(allJobs());

  /** One delivery of `messages` through the project; answers the milliseconds from the dispatch to the last record. */
  const project = async (label: string, messages: PartnerWebhookMessage[]): Promise<number> => {
    // Enqueued before the clock starts, as the state changes that make them would have.
    const { partner } = await createPartnerWithKeys(`Bench webhooks ${label}`, getDb());
    await upsertEndpoint({ partnerId: partner.id, url }, getDb());
    await getDb().transaction(async (tx) => {
      for (const m of messages) await enqueueWebhook(tx, partner.id, m);
    });
    const before = await receivedCount();
    const p0 = performance.now();
    for (let d = 0; d < DISPATCHERS; d++) await provider.send(webhookDispatchJob.id, {});
    // The clock stops when every attempt is recorded as delivered. The receiver answers once it has had
    // every request, and only then is the database asked: the measuring costs neither the app nor the
    // database anything while delivery is under way (polling both every 10 ms cost the app ~3% of its CPU).
    await receivedCount(before + messages.length);
    for (;;) {
      const [{ n }] = await getDb()
        .select({ n: count() })
        .from(webhookMessages)
        .where(and(eq(webhookMessages.partnerId, partner.id), eq(webhookMessages.status, 'delivered')));
      if (n >= messages.length) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    const ms = performance.now() - p0;
    const received = (await receivedCount()) - before;
    if (received !== messages.length) throw new Error(`receiver saw ${received} of ${messages.length} deliveries`);
    return ms;
  };

  // Warm-up of every path (the first run of each is always the slowest: JIT, connections).
  await postAllNodeHttp(url, requests.slice(0, 2000));
  await postAllUndici(url, requests.slice(0, 2000));
  await project('warm-up', messages.slice(0, 2000));

  const nodeRates: number[] = [];
  const undiciRates: number[] = [];
  const appRates: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    nodeRates.push(N / ((await postAllNodeHttp(url, requests)) / 1000));
    undiciRates.push(N / ((await postAllUndici(url, requests)) / 1000));
    appRates.push(N / ((await project(String(rep), messages)) / 1000));
  }
  await provider.stop();
  const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  const baseline = Math.max(...nodeRates, ...undiciRates);
  console.log(
    `# webhook-delivery: ${N} messages of ~${requests[0].body.length} bytes, ${DISPATCHERS} dispatchers x 32 = ${CONCURRENCY} in flight, ` +
      `receiver in its own process on loopback; baseline = the faster bare client (node:http agent or undici pool), ` +
      `${CONCURRENCY} in flight, posting the same bodies and headers (signed before its clock starts); best of ${REPS} (app ${list(appRates)}; node:http ${list(nodeRates)}; ` +
      `undici ${list(undiciRates)} deliveries/s); machine: ${machine()}`,
  );
  return { value: Math.max(...appRates), unit: 'deliveries/s', baseline, kind: 'rate' };
}
