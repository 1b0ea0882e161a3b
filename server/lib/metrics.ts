import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The operators' metrics (`GET /metrics`, server/metrics.ts): a registry of our own, never prom-client's
 * global one, with the process metrics prom-client collects by default. Next.js may load a route module in
 * several bundles of one process, so the registry lives on globalThis: one set of series per process,
 * whichever bundle records into it. The gauges read from the database are set at scrape time.
 */
export interface Metrics {
  registry: Registry;
  apiRequests: Counter<'method' | 'route' | 'status'>;
  apiDuration: Histogram<'method' | 'route' | 'status'>;
  webhookBacklog: Gauge;
  webhookHeld: Gauge;
  webhookOldestDueAge: Gauge;
  jobQueueDepth: Gauge<'job' | 'state'>;
  jobFailures: Gauge<'job'>;
  holdsActive: Gauge;
  holdsActiveListings: Gauge;
  payments: Gauge<'state'>;
  payoutsDue: Gauge<'currency'>;
  payoutsDueAmount: Gauge<'currency'>;
  probeSuccess: Gauge<'probe'>;
  sharedPageRenders: Counter;
  sharedPagesUnchanged: Counter;
}

const KEY = Symbol.for('encore.metrics');
type Holder = typeof globalThis & { [KEY]?: Metrics };

export function metrics(): Metrics {
  const g = globalThis as Holder;
  g[KEY] ??= createMetrics();
  return g[KEY];
}

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const gauge = <L extends string = string>(name: string, help: string, labelNames: L[] = []) =>
    new Gauge<L>({ name, help, labelNames, registers });
  const api = ['method', 'route', 'status'] as const;
  return {
    registry,
    apiRequests: new Counter({
      name: 'encore_api_requests_total',
      help: 'Partner API (/v1) requests answered, by method, route template and status',
      labelNames: api,
      registers,
    }),
    apiDuration: new Histogram({
      name: 'encore_api_request_duration_seconds',
      help: 'Partner API (/v1) answer time in seconds, by method, route template and status',
      labelNames: api,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    webhookBacklog: gauge('encore_webhook_backlog', 'Webhook deliveries due now to an enabled receiver'),
    webhookHeld: gauge(
      'encore_webhook_held',
      'Webhook deliveries due but held: the receiver is not set up or disabled',
    ),
    webhookOldestDueAge: gauge(
      'encore_webhook_oldest_due_age_seconds',
      'Seconds since the oldest delivery in encore_webhook_backlog became due (0 when none is)',
    ),
    jobQueueDepth: gauge('encore_job_queue_depth', 'Background jobs in the queue, by job and state', ['job', 'state']),
    jobFailures: gauge(
      'encore_job_failed_24h',
      'Background job runs failed for good (retries used up) in the last 24 hours',
      ['job'],
    ),
    holdsActive: gauge('encore_holds_active', 'Buy intentions holding listings while the buyer pays (not expired)'),
    holdsActiveListings: gauge('encore_holds_active_listings', 'Listings held by the active buy intentions'),
    payments: gauge('encore_payments', 'Buyer payments by state', ['state']),
    payoutsDue: gauge('encore_payouts_due', 'Seller payouts due and not paid yet, by currency', ['currency']),
    payoutsDueAmount: gauge(
      'encore_payouts_due_amount_minor',
      'Amount of the payouts due and not paid yet, in minor units of the currency',
      ['currency'],
    ),
    sharedPageRenders: new Counter({
      name: 'encore_shared_page_renders_total',
      help: "Anonymous fans' buy pages rendered by this instance to be shared (server/http/shared-page-render.ts): with a shared cache in front, about one per address a second",
      registers,
    }),
    sharedPagesUnchanged: new Counter({
      name: 'encore_shared_pages_unchanged_total',
      help: "Shared buy pages kept without a render because their model had not changed (a 304 to a cache's If-None-Match, or this instance's own page kept)",
      registers,
    }),
    probeSuccess: gauge(
      'encore_metrics_probe_success',
      'Whether the database read behind a group of gauges answered at the last scrape (1) or failed (0)',
      ['probe'],
    ),
  };
}

/** One partner-API answer, recorded by the /v1 route wrapper; `route` is the contract's template, never the raw path. */
export function recordApiRequest(method: string, route: string, status: number, seconds: number): void {
  const m = metrics();
  const labels = { method, route, status: String(status) };
  m.apiRequests.inc(labels);
  m.apiDuration.observe(labels, seconds);
}
