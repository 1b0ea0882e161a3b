import { getSql } from '@/db';
import { isConnectionFault } from './db-faults';
import { errorFields, log } from './log';

/**
 * Whether this process knows its database to be unreachable right now. A connection fault anywhere
 * (the partner API, the dashboard, a page, a payment: `noteDatabaseFault`) closes the gate, and a probe
 * (`select 1` every second, each within two) opens it again as soon as PostgreSQL answers. While it is
 * closed, Encore's HTTP server answers pages with a branded 503 and `/v1` with the envelope's 503, both
 * with Retry-After, without asking Next.js to render what would fail (server/http/listener.ts).
 * Kept on globalThis: Next.js's bundles and the server share one state.
 */
interface State {
  downSince: number | null;
  probe: ReturnType<typeof setTimeout> | null;
}
const store = globalThis as typeof globalThis & { __encoreDbHealth?: State };
const state = (): State => (store.__encoreDbHealth ??= { downSince: null, probe: null });

const PROBE_EVERY_MS = 1_000;
const PROBE_TIMEOUT_MS = 2_000;

export function databaseDown(): boolean {
  return state().downSince !== null;
}

/** A connection fault closes the gate until the probe reaches PostgreSQL again; any other error is ignored. */
export function noteDatabaseFault(err: unknown): void {
  if (!isConnectionFault(err)) return;
  const s = state();
  if (s.downSince === null) {
    s.downSince = Date.now();
    log.warn('database unreachable: pages and the partner API answer 503 until it is back', errorFields(err));
  }
  s.probe ??= setTimeout(() => void probe(), PROBE_EVERY_MS);
  s.probe.unref?.();
}

async function probe(): Promise<void> {
  const s = state();
  s.probe = null;
  try {
    await Promise.race([
      getSql()`select 1`,
      new Promise((_, reject) =>
        setTimeout(() => reject(Object.assign(new Error('probe timed out'), { code: 'ETIMEDOUT' })), PROBE_TIMEOUT_MS),
      ),
    ]);
    if (s.downSince !== null) log.info('database reachable again', { downForMs: Date.now() - s.downSince });
    s.downSince = null;
  } catch {
    s.probe = setTimeout(() => void probe(), PROBE_EVERY_MS);
    s.probe.unref?.();
  }
}

/** Forgets the state (tests). */
export function resetDatabaseHealth(): void {
  const s = state();
  if (s.probe) clearTimeout(s.probe);
  s.probe = null;
  s.downSince = null;
}
