import http from 'node:http';
import { and, count, eq } from 'drizzle-orm';
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
const REPS = 3;
/**
 * Deliveries one app instance keeps in flight: the dispatch job runs 2 at once (its `concurrency`,
 * jobs.ts), each dispatcher 32 (dispatchDue's default, delivery.ts). Under a stream of state changes
 * every enqueueing transaction kicks a dispatch, so both run; the bench queues two dispatches likewise.
 */
const DISPATCHERS = 2;
const CONCURRENCY = DISPATCHERS * 32;

/**
 * Posts every body with CONCURRENCY requests in flight through a keep-alive agent like the
 * dispatcher's; answers the milliseconds it took. (fetch was about 4x slower here: node:http is the
 * fastest bare client, so it is the baseline.)
 */
async function postAll(url: string, bodies: string[]): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const send = (body: string) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } });
      req.on('response', (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(body);
    });
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < bodies.length) await send(bodies[next++]);
    }),
  );
  const ms = performance.now() - t0;
  agent.destroy();
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
  await postAll(url, bodies.slice(0, 500)); // warm-up

  const baseRates: number[] = [];
  const appRates: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    baseRates.push(N / ((await postAll(url, bodies)) / 1000));

    // Project: enqueue (not timed), then let the job provider's dispatchers deliver everything.
    const { partner } = await createPartnerWithKeys(`Bench webhooks ${rep}`);
    await upsertEndpoint({ partnerId: partner.id, url });
    await getDb().transaction(async (tx) => {
      for (const body of bodies) await enqueueWebhook(tx, partner.id, JSON.parse(body));
    });
    const before = await receivedCount();
    const p0 = performance.now();
    for (let d = 0; d < DISPATCHERS; d++) await provider.send(webhookDispatchJob.id, {});
    // The clock stops when every attempt is recorded as delivered.
    for (;;) {
      const [{ n }] = await getDb()
        .select({ n: count() })
        .from(webhookMessages)
        .where(and(eq(webhookMessages.partnerId, partner.id), eq(webhookMessages.status, 'delivered')));
      if (n >= N) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    appRates.push(N / ((performance.now() - p0) / 1000));
    const received = (await receivedCount()) - before;
    if (received < N) throw new Error(`receiver saw ${received} of ${N} deliveries`);
  }
  await provider.stop();
  const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  console.log(
    `# webhook-delivery: ${N} messages of ~${bodies[0].length} bytes, ${DISPATCHERS} dispatchers x 32 = ${CONCURRENCY} in flight, ` +
      `receiver in its own process on loopback; baseline = bare node:http client, ${CONCURRENCY} in flight; best of ${REPS} ` +
      `(app ${list(appRates)}; baseline ${list(baseRates)} deliveries/s); machine: ${machine()}`,
  );
  return { value: Math.max(...appRates), unit: 'deliveries/s', baseline: Math.max(...baseRates), kind: 'rate' };
}
