import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { count, eq } from 'drizzle-orm';
import { getDb } from '@/db';
import { webhookMessages } from '@/db/schema';
import { LocalJobProvider } from '@/server/jobs/local';
import { allJobs } from '@/server/jobs/registry';
import { createPartnerWithKeys } from '@/server/modules/partners/service';
import { webhookDispatchJob } from '@/server/modules/webhooks/jobs';
import { enqueueWebhook, upsertEndpoint } from '@/server/modules/webhooks/service';
import type { BenchResult } from './run';
import { machine } from './servers';

const N = 5000;
/**
 * Deliveries one dispatcher keeps in flight: dispatchDue's default `concurrency` (delivery.ts). The
 * dispatch job's own concurrency of 2 only matters when two dispatch jobs are queued; the bench queues one.
 */
const CONCURRENCY = 32;

/** Posts every body with CONCURRENCY requests in flight; answers the milliseconds it took. */
async function postAll(url: string, bodies: string[], client: 'node:http' | 'fetch'): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const send = (body: string) =>
    client === 'fetch'
      ? fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } }).then((r) =>
          r.arrayBuffer(),
        )
      : new Promise<void>((resolve, reject) => {
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
 * Deliveries per second to a local receiver: the whole path (outbox rows → job provider → dispatcher
 * → signed POST → attempt log) against a bare client posting the same bodies to the same server with
 * the same number of requests in flight.
 */
export async function run(): Promise<BenchResult> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const bodies = Array.from({ length: N }, (_, i) =>
    JSON.stringify({
      family: 'ticket',
      action: 'ticket.updated',
      data: { id: `T-${i}`, newOwnerEmail: `fan${i}@example.com` },
    }),
  );

  // Baseline: the same bodies with the dispatcher's concurrency, by the faster of two bare clients
  // (node:http with a keep-alive agent like the dispatcher's, and fetch). Each after a warm-up.
  await postAll(url, bodies.slice(0, 500), 'node:http');
  await postAll(url, bodies.slice(0, 500), 'fetch');
  const httpRate = N / ((await postAll(url, bodies, 'node:http')) / 1000);
  const fetchRate = N / ((await postAll(url, bodies, 'fetch')) / 1000);
  const baseline = Math.max(httpRate, fetchRate);

  // Project: enqueue, then let the local job provider deliver everything.
  const { partner } = await createPartnerWithKeys('Bench partner');
  await upsertEndpoint({ partnerId: partner.id, url });
  await getDb().transaction(async (tx) => {
    for (const body of bodies) await enqueueWebhook(tx, partner.id, JSON.parse(body));
  });
  const provider = new LocalJobProvider(process.env.DATABASE_URL!, allJobs(), { pollingIntervalSeconds: 0.5 });
  await provider.start();
  received = 0;
  const p0 = performance.now();
  await provider.send(webhookDispatchJob, {});
  for (;;) {
    const [{ n }] = await getDb()
      .select({ n: count() })
      .from(webhookMessages)
      .where(eq(webhookMessages.status, 'delivered'));
    if (n >= N) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const value = N / ((performance.now() - p0) / 1000);
  await provider.stop();
  server.close();
  if (received < N) throw new Error(`receiver saw ${received} of ${N} deliveries`);
  console.log(
    `# webhook-delivery: ${N} messages of ~${bodies[0].length} bytes, ${CONCURRENCY} in flight (the dispatcher's), loopback receiver in this process; ` +
      `baseline = best bare client at the same concurrency (node:http ${httpRate.toFixed(0)}/s, fetch ${fetchRate.toFixed(0)}/s); machine: ${machine()}`,
  );
  return { value, unit: 'deliveries/s', baseline, kind: 'rate' };
}
