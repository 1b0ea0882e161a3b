/**
 * Unhandled errors the test run knows to come from a dependency's defect, not from Encore.
 *
 * postgres.js (3.4.x) reads the server's array types on every new connection with a query it starts from
 * its message handler and never awaits (`fetchArrayTypes` in its connection.js). When a test terminates
 * backends (server/lib/db-faults.test.ts) at the moment a fresh connection runs that query, the query's
 * rejection has no handler. The connection is dropped and the next statement runs on a new one, so
 * nothing is lost; a production instance writes the rejection as one error line and goes on
 * (server/lib/error-lines.ts). Everything else unhandled still fails the run.
 */
export function isKnownDriverDefect(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, query } = error as { code?: unknown; query?: unknown };
  return code === '57P01' && typeof query === 'string' && /from pg_catalog\.pg_type a\b/.test(query);
}
