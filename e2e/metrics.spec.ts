import { expect, test } from './fixtures';
import { call, createPartner } from './helpers';

// playwright.config.ts hands the server this METRICS_TOKEN.
const TOKEN = 'e2e-metrics-token-0123456789';
const ME_200 = 'encore_api_requests_total{method="GET",route="/v1/me",status="200"}';

/** The value of one series in a scrape's text, 0 when absent. */
const valueOf = (text: string, series: string) =>
  Number(
    text
      .split('\n')
      .find((l) => l.startsWith(`${series} `))
      ?.slice(series.length + 1) ?? 0,
  );

test('/metrics answers only the bearer of METRICS_TOKEN, and counts the partner API calls of the built server', async ({
  request,
}) => {
  for (const authorization of [undefined, 'Bearer wrong-token-0123456789', TOKEN]) {
    const res = await request.get('/metrics', authorization ? { headers: { authorization } } : {});
    expect(res.status(), String(authorization)).toBe(401);
  }
  const scrape = async () => {
    const res = await request.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('text/plain; version=0.0.4');
    return res.text();
  };
  const before = valueOf(await scrape(), ME_200);

  const { apiKey } = await createPartner('Metrics e2e');
  for (let i = 0; i < 3; i++) expect((await call(request, apiKey, 'GET', '/v1/me')).status).toBe(200);

  const text = await scrape();
  // The route handlers and /metrics are separate bundles of one process: they share one registry.
  expect(valueOf(text, ME_200)).toBeGreaterThanOrEqual(before + 3);
  expect(text).toMatch(/^encore_webhook_backlog \d+$/m);
  expect(text).toMatch(/^encore_job_queue_depth\{job="webhooks\.dispatch",state="queued"\} \d+$/m);
  expect(text).toContain('encore_metrics_probe_success{probe="payments"} 1');
  expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
});
