/**
 * Next.js calls register() once per server process before it serves requests. The Node.js part
 * (database boot, migrations, first-run seed) lives in server/instrumentation-node.ts.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    await import('./server/instrumentation-node');
  }
}

/**
 * Next.js reports each error of a page, a server action or a route handler here: it is one JSON line of the
 * log with the request's id, method, path and route (server/lib/error-lines.ts), and a database that cannot
 * be reached closes the outage gate (server/lib/db-health.ts), so the pages that follow are a branded 503
 * until it is back, not a render that fails again.
 */
export async function onRequestError(
  err: unknown,
  request: { path: string; method: string; headers: Record<string, string | string[] | undefined> },
  context?: { routePath?: string; routeType?: string },
): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const [{ noteDatabaseFault }, { logRequestError }] = await Promise.all([
    import('./server/lib/db-health'),
    import('./server/lib/error-lines'),
  ]);
  noteDatabaseFault(err);
  logRequestError(err, request, context);
}
