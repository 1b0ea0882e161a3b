import { scrapeMetrics } from '@/server/metrics';

export const dynamic = 'force-dynamic';

/** The operators' metrics in Prometheus text format; a 404 unless METRICS_TOKEN is set (server/metrics.ts). */
export async function GET(req: Request): Promise<Response> {
  return scrapeMetrics(req);
}
