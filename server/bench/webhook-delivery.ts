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

const N = 5000;

/**
 * Deliveries per second to a local receiver: the whole path (outbox rows → job provider → dispatcher
 * → signed POST → attempt log) against a bare `fetch` loop posting the same bodies to the same server.
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

  // Baseline: the same bodies, one POST after another with fetch.
  const b0 = performance.now();
  for (const body of bodies) {
    const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    await res.arrayBuffer();
  }
  const baseline = N / ((performance.now() - b0) / 1000);

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
  return { value, unit: 'deliveries/s', baseline, kind: 'rate' };
}
