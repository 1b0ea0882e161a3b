/**
 * Set on the process by server/start.ts (`npm start`) before Next.js loads: instrumentation refuses a
 * production start without it (`next start` alone would serve without the client's address, so the
 * per-address limits would not count anyone, and without the shared buy page).
 */
export const SERVER_ENTRY = Symbol.for('encore.serverEntry');

export function startedByServerEntry(): boolean {
  return (globalThis as Record<symbol, unknown>)[SERVER_ENTRY] === true;
}
