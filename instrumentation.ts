/**
 * Next.js calls register() once per server process before it serves requests. The Node.js part
 * (database boot, migrations, first-run seed) lives in server/instrumentation-node.ts.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    await import('./server/instrumentation-node');
  }
}
