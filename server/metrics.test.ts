import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GET as metricsGet } from '@/app/metrics/route';
import { GET as meGet } from '@/app/v1/me/route';
import { POST as buyIntentionPost } from '@/app/v1/marketplace/buyingflow/buyIntention/route';
import postgres from 'postgres';
import { getDb, getSql } from '@/db';
import { payouts } from '@/db/schema';
import { resetEnvCache } from '@/server/env';
import { LocalJobProvider } from '@/server/jobs/local';
import type { JobDefinition } from '@/server/jobs/types';
import { createListing, payDuePayoutsJob } from '@/server/modules/marketplace';
import { enqueueWebhook, upsertEndpoint } from '@/server/modules/webhooks';
import { apiRequest, makePartner } from '@/server/testing/fixtures';
import { recordJobsInFile } from '@/server/testing/jobs';
import { sellerMarket } from '@/server/testing/market';
import { payOnSandbox } from '@/server/testing/payments';

const TOKEN = 'metrics-token-0123456789abcdef';
// No dispatcher or expiry job runs behind the test's back: what is due stays due.
recordJobsInFile();

const scrape = (authorization?: string) =>
  metricsGet(new Request('http://encore.test/metrics', authorization ? { headers: { authorization } } : {}));

/** The scrape's value of one series (`name{labels}`, labels as prom-client writes them), 0 when absent. */
async function value(series: string): Promise<number> {
  const res = await scrape(`Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  const text = await res.text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

beforeAll(() => {
  process.env.ALLOW_PRIVATE_PARTNER_URLS = '1';
  resetEnvCache();
});
afterEach(() => {
  delete process.env.METRICS_TOKEN;
  resetEnvCache();
});
afterAll(() => {
  delete process.env.ALLOW_PRIVATE_PARTNER_URLS;
  resetEnvCache();
});

function withToken() {
  process.env.METRICS_TOKEN = TOKEN;
  resetEnvCache();
}

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN, whatever the caller sends', async () => {
    expect((await scrape()).status).toBe(404);
    expect((await scrape(`Bearer ${TOKEN}`)).status).toBe(404);
  });

  it('answers 401 to a missing or wrong token, and the Prometheus text format to the right one', async () => {
    withToken();
    for (const bad of [
      undefined,
      'Bearer',
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      TOKEN,
      `Basic ${TOKEN}`,
    ]) {
      const res = await scrape(bad);
      expect(res.status, String(bad)).toBe(401);
      expect(await res.text()).not.toContain('encore_');
    }
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const text = await res.text();
    expect(text).toContain('# TYPE encore_api_requests_total counter');
    expect(text).toContain('# TYPE encore_api_request_duration_seconds histogram');
    expect(text).toContain('process_cpu_user_seconds_total');
    // Every probe answered, and every job has its queue series.
    for (const probe of ['webhooks', 'jobs', 'holds', 'payments', 'payouts']) {
      expect(text).toContain(`encore_metrics_probe_success{probe="${probe}"} 1`);
    }
    expect(text).toMatch(/encore_payments\{state="paid"\} \d+/);
  });

  it('counts partner API requests by route template and status, never by raw path', async () => {
    withToken();
    const { apiKey } = await makePartner('Metrics');
    const ok = 'encore_api_requests_total{method="GET",route="/v1/me",status="200"}';
    const refused = 'encore_api_requests_total{method="GET",route="/v1/me",status="401"}';
    const [ok0, refused0] = [await value(ok), await value(refused)];
    for (let i = 0; i < 3; i++) expect((await meGet(apiRequest('/v1/me', { key: apiKey }))).status).toBe(200);
    expect((await meGet(apiRequest('/v1/me', { key: 'sk_live_wrong' }))).status).toBe(401);
    expect(await value(ok)).toBe(ok0 + 3);
    expect(await value(refused)).toBe(refused0 + 1);
    expect(await value('encore_api_request_duration_seconds_count{method="GET",route="/v1/me",status="200"}')).toBe(
      ok0 + 3,
    );
  });

  it('shows a due webhook delivery in the backlog, and its age', async () => {
    withToken();
    const { partner } = await makePartner('Metrics webhooks');
    await upsertEndpoint({ partnerId: partner.id, url: 'http://127.0.0.1:9/hook', enabled: true }, getDb());
    const before = await value('encore_webhook_backlog');
    await enqueueWebhook(getDb(), partner.id, {
      family: 'test',
      action: 'test.ping',
      data: { partnerId: partner.id, sentAt: new Date().toISOString() },
    });
    await getDb().execute(
      sql`update webhook_due set due_at = now() - interval '90 seconds' where partner_id = ${partner.id}`,
    );
    expect(await value('encore_webhook_backlog')).toBe(before + 1);
    expect(await value('encore_webhook_oldest_due_age_seconds')).toBeGreaterThanOrEqual(90);
    await upsertEndpoint({ partnerId: partner.id, url: 'http://127.0.0.1:9/hook', enabled: false }, getDb());
    // Disabled, its message waits by design: held, not backlog.
    expect(await value('encore_webhook_backlog')).toBe(before);
  });

  it('counts a held intention in holds active, and a due payout in payouts due', async () => {
    withToken();
    const seller = 'seller@example.com';
    const m = await sellerMarket({ seller, name: 'Metrics market' });
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: seller, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    const [holds0, due0, amount0] = [
      await value('encore_holds_active'),
      await value('encore_payouts_due{currency="EUR"}'),
      await value('encore_payouts_due_amount_minor{currency="EUR"}'),
    ];
    const res = await buyIntentionPost(
      apiRequest('/v1/marketplace/buyingflow/buyIntention', {
        key: m.key,
        body: { items: [listing.id], user: 'buyer@example.com' },
      }),
    );
    expect(res.status).toBe(200);
    const intention = (await res.json()) as { data: { paymentUrl: string } };
    expect(await value('encore_holds_active')).toBe(holds0 + 1);

    await payOnSandbox(intention.data.paymentUrl);
    expect(await value('encore_holds_active')).toBe(holds0);
    expect(await value('encore_payouts_due{currency="EUR"}')).toBe(due0); // due after the show
    const [payout] = await getDb()
      .update(payouts)
      .set({ dueAt: sql`now() - interval '1 minute'` as unknown as Date })
      .where(eq(payouts.listingId, listing.id))
      .returning();
    expect(await value('encore_payouts_due{currency="EUR"}')).toBe(due0 + 1);
    expect(await value('encore_payouts_due_amount_minor{currency="EUR"}')).toBe(amount0 + payout.amountMinor);
  });

  it('shows each job’s queue depth by state and its failures of the last day', async () => {
    withToken();
    // The queue's tables, and no worker to take the job away.
    const provider = new LocalJobProvider(process.env.DATABASE_URL!, { work: false, schedules: false });
    await provider.start([payDuePayoutsJob as unknown as JobDefinition]);
    const job = payDuePayoutsJob.id;
    const scheduled = `encore_job_queue_depth{job="${job}",state="scheduled"}`;
    const failed = `encore_job_failed_24h{job="${job}"}`;
    const sql = getSql();
    try {
      const [scheduled0, failed0] = [await value(scheduled), await value(failed)];
      await provider.send(job, {}, { runAt: new Date(Date.now() + 3_600_000), singletonKey: 'metrics-test' });
      expect(await value(scheduled)).toBe(scheduled0 + 1);
      await sql`update pgboss.job set state = 'failed', completed_on = now()
        where name = ${job} and singleton_key = 'metrics-test'`;
      expect(await value(scheduled)).toBe(scheduled0);
      expect(await value(failed)).toBe(failed0 + 1);
    } finally {
      await sql`delete from pgboss.job where name = ${job} and singleton_key = 'metrics-test'`;
      await provider.stop();
    }
  });

  it('leaves out the gauges of a read that times out, and still answers the rest', async () => {
    withToken();
    // Another session holds the payments table: the payments read waits until its statement timeout.
    const locker = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    try {
      await locker.begin(async (tx) => {
        await tx`lock table payments in access exclusive mode`;
        const res = await scrape(`Bearer ${TOKEN}`);
        expect(res.status).toBe(200);
        const text = await res.text();
        expect(text).toContain('encore_metrics_probe_success{probe="payments"} 0');
        expect(text).not.toMatch(/^encore_payments\{/m);
        expect(text).toContain('encore_metrics_probe_success{probe="holds"} 1');
        expect(text).toMatch(/^encore_holds_active \d+$/m);
      });
    } finally {
      await locker.end();
    }
    expect(await value('encore_metrics_probe_success{probe="payments"}')).toBe(1);
  });
});
