import { getSql } from '@/db';
import { isConnectionFault } from './db-faults';
import { errorFields, log } from './log';

/**
 * Whether this process knows its database to be unreachable right now. A connection fault anywhere (the
 * partner API, the dashboard, a page, a payment: `noteDatabaseFault`) sends a probe (`select 1`, within two
 * seconds); if PostgreSQL does not answer it, the gate closes and the probe runs every second until it does.
 * A fault the database has already recovered from (one terminated backend, retried on a fresh connection)
 * closes nothing. While the gate is closed, Encore's HTTP server answers pages with a branded 503 and `/v1`
 * with the envelope's 503, both with Retry-After, without asking Next.js to render what would fail
 * (server/http/listener.ts). Kept on globalThis: Next.js's bundles and the server share one state.
 */
interface State {
  downSince: number | null;
  probing: boolean;
  timer: ReturnType<typeof setTimeout> | null;
}
const store = globalThis as typeof globalThis & { __encoreDbHealth?: State };
const state = (): State => (store.__encoreDbHealth ??= { downSince: null, probing: false, timer: null });

const PROBE_EVERY_MS = 1_000;
const PING_TIMEOUT_MS = 2_000;

export function databaseDown(): boolean {
  return state().downSince !== null;
}

/** Whether a probe is under way (tests wait for its verdict). */
export function databaseProbing(): boolean {
  return state().probing;
}

/** A connection fault asks whether PostgreSQL answers (once at a time); any other error is ignored. */
export function noteDatabaseFault(err: unknown): void {
  if (!isConnectionFault(err)) return;
  const s = state();
  if (s.probing) return;
  s.probing = true;
  void probe(err);
}

/** Resolves when PostgreSQL answers `select 1` within two seconds (the health check's and the probe's test). */
export async function pingDatabase(): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      getSql()`select 1`,
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error('database did not answer within 2 s'), { code: 'ETIMEDOUT' })),
          PING_TIMEOUT_MS,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function probe(fault: unknown): Promise<void> {
  const s = state();
  s.timer = null;
  try {
    await pingDatabase();
    if (s.downSince !== null) log.info('database reachable again', { downForMs: Date.now() - s.downSince });
    s.downSince = null;
    s.probing = false;
  } catch {
    if (s.downSince === null) {
      s.downSince = Date.now();
      log.warn('database unreachable: pages and the partner API answer 503 until it is back', errorFields(fault));
    }
    s.timer = setTimeout(() => void probe(fault), PROBE_EVERY_MS);
    s.timer.unref?.();
  }
}

/** Forgets the state (tests). */
export function resetDatabaseHealth(): void {
  const s = state();
  if (s.timer) clearTimeout(s.timer);
  s.timer = null;
  s.probing = false;
  s.downSince = null;
}
