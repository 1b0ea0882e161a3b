import { closeDb } from '@/db';
import { stopJobs } from '@/server/jobs/client';
import { errorFields, flushLogs, log } from '@/server/lib/log';
import { flushTouches } from '@/server/lib/deferred-touch';
import { startedByServerEntry } from '@/server/server-entry';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Kept on the process, not in this module: Next.js bundles instrumentation (which installs the handler) and
 * each route (which asks) separately, and a module-level flag could exist twice.
 */
const DRAINING = Symbol.for('encore.drainingSince');
const state = globalThis as { [DRAINING]?: number };

/**
 * True from the first moment of a graceful stop: `/healthz` answers 503 from then on, so a load balancer
 * stops sending this instance new requests while the ones in flight (and its running jobs) finish.
 */
export function isDraining(): boolean {
  return state[DRAINING] !== undefined;
}

/**
 * A graceful stop on SIGTERM (and SIGINT). Encore's server handles these signals itself (server/start.ts,
 * as `next start` does): it stops taking connections, lets requests in flight finish, then calls process.exit. Beside it, this stops the
 * job workers taking new jobs and lets the running ones finish (pg-boss stop, 10 s deadline), so a job in
 * flight is done here once instead of waiting out its lease to run again elsewhere. Next's exit is held
 * until that is done; then the database pool closes, the log is flushed and the process exits with the code
 * the server chose.
 * Without Encore's server (a process of our own), this exits itself once drained.
 */
export function installGracefulShutdown(): void {
  let draining: Promise<void> | undefined;
  const drain = () =>
    (draining ??= (async () => {
      state[DRAINING] ??= Date.now();
      log.info('stopping: finishing running jobs');
      await stopJobs().catch((err) => log.error('jobs did not stop cleanly', errorFields(err)));
    })());

  const exit = process.exit.bind(process);
  let exiting = false;
  const exitAfterDrain = (code?: number | string | null) => {
    if (exiting) return;
    exiting = true;
    void drain()
      .then(() => flushTouches())
      .then(() => closeDb())
      .catch((err) => log.error('database pool did not close cleanly', errorFields(err)))
      // Log lines are written asynchronously: the last ones (this stop's own) reach the output first.
      .finally(() => flushLogs().finally(() => exit(code ?? undefined)));
  };
  process.exit = ((code?: number | string | null) => {
    if (!draining) return exit(code ?? undefined);
    exitAfterDrain(code);
    return undefined as never;
  }) as typeof process.exit;

  for (const signal of SIGNALS) {
    const onSignal = () => {
      void drain();
      // Under Encore's server (server/start.ts), its own handler closes the server, lets the requests in flight
      // finish and then calls process.exit, which waits for this drain (above). Alone (a process of our own),
      // exit once drained. Asked of the server entry, not of the signal's listeners: the server's handler is a
      // `once`, already removed when this one runs.
      if (!startedByServerEntry()) exitAfterDrain(signal === 'SIGTERM' ? 143 : 130);
    };
    process.on(signal, onSignal);
  }
}
