import { createHash, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type DbOrTx, getDb } from '@/db';
import { env } from '@/server/env';
import { allJobs } from '@/server/jobs/registry';
import { jobQueueCounts } from '@/server/jobs/queue-gauges';
import { errorFields, log } from '@/server/lib/log';
import { type Metrics, metrics } from '@/server/lib/metrics';
import { activeHolds, duePayoutTotals } from '@/server/modules/marketplace';
import { paymentCountsByStatus } from '@/server/modules/payments';
import { webhookBacklog } from '@/server/modules/webhooks';

/** Longest a database read behind the gauges may take (each read, and all of them together twice that). */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * `GET /metrics`: the Prometheus text format, to a caller that sends `Authorization: Bearer <METRICS_TOKEN>`.
 * Without METRICS_TOKEN the endpoint does not exist (404, as any unknown path); with it, a missing or
 * wrong token is a 401. The token is compared in constant time.
 */
export async function scrapeMetrics(req: Request): Promise<Response> {
  const token = env().METRICS_TOKEN;
  const headers = { 'cache-control': 'no-store' };
  if (!token) return new Response('Not found', { status: 404, headers });
  if (!bearerMatches(req.headers.get('authorization'), token)) {
    return new Response('Unauthorized', { status: 401, headers: { ...headers, 'www-authenticate': 'Bearer' } });
  }
  const m = metrics();
  await refreshDatabaseGauges(m);
  return new Response(await m.registry.metrics(), {
    status: 200,
    headers: { ...headers, 'content-type': m.registry.contentType },
  });
}

function bearerMatches(header: string | null, token: string): boolean {
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
  // Digests of equal length, so neither the token's length nor its first differing byte shows in the time.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(sent), digest(token));
}

type Probe = (tx: DbOrTx, m: Metrics) => Promise<void>;

/** Each group of gauges and the cheap aggregate behind it (through the owning module). */
const probes: Record<string, Probe> = {
  webhooks: async (tx, m) => {
    const b = await webhookBacklog(tx);
    m.webhookBacklog.set(b.due);
    m.webhookHeld.set(b.held);
    m.webhookOldestDueAge.set(b.oldestDueAgeSeconds);
  },
  jobs: async (tx, m) => {
    for (const c of await jobQueueCounts(
      tx,
      allJobs().map((j) => j.id),
    )) {
      for (const state of ['queued', 'scheduled', 'running', 'retrying'] as const) {
        m.jobQueueDepth.set({ job: c.job, state }, c[state]);
      }
      m.jobFailures.set({ job: c.job }, c.failed24h);
    }
  },
  holds: async (tx, m) => {
    const h = await activeHolds(tx);
    m.holdsActive.set(h.intentions);
    m.holdsActiveListings.set(h.listings);
  },
  payments: async (tx, m) => {
    for (const [state, n] of Object.entries(await paymentCountsByStatus(tx))) m.payments.set({ state }, n);
  },
  payouts: async (tx, m) => {
    for (const p of await duePayoutTotals(tx)) {
      m.payoutsDue.set({ currency: p.currency }, p.count);
      m.payoutsDueAmount.set({ currency: p.currency }, p.amountMinor);
    }
  },
};

const databaseGauges = (m: Metrics) => [
  m.webhookBacklog,
  m.webhookHeld,
  m.webhookOldestDueAge,
  m.jobQueueDepth,
  m.jobFailures,
  m.holdsActive,
  m.holdsActiveListings,
  m.payments,
  m.payoutsDue,
  m.payoutsDueAmount,
];

let refreshing: Promise<void> | null = null;

/**
 * Sets the database gauges afresh: one read-only transaction on one connection, each read under a short
 * statement timeout and in a savepoint of its own, so one failing read leaves its gauges out (logged, and
 * `encore_metrics_probe_success{probe}` 0) and never fails the scrape. Scrapes arriving together share one
 * refresh.
 */
function refreshDatabaseGauges(m: Metrics): Promise<void> {
  refreshing ??= runProbes(m).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function runProbes(m: Metrics): Promise<void> {
  for (const g of databaseGauges(m)) g.reset();
  const outcome = new Map<string, boolean>(Object.keys(probes).map((name) => [name, false]));
  const work = getDb().transaction(
    async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = ${PROBE_TIMEOUT_MS}`));
      for (const [name, probe] of Object.entries(probes)) {
        try {
          await tx.transaction((sp) => probe(sp, m));
          outcome.set(name, true);
        } catch (err) {
          log.warn('a metrics probe failed; its gauges are left out of this scrape', {
            probe: name,
            ...errorFields(err),
          });
        }
      }
    },
    { accessMode: 'read only' },
  );
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('metrics probes timed out')), 2 * PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([work, timeout]);
  } catch (err) {
    log.warn('the metrics probes did not finish; the scrape answers without them', errorFields(err));
    work.catch(() => {});
  } finally {
    clearTimeout(timer);
  }
  for (const [probe, ok] of outcome) m.probeSuccess.set({ probe }, ok ? 1 : 0);
}
