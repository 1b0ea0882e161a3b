import { once } from 'node:events';
import pino, { type DestinationStream, type Logger } from 'pino';
import { env } from '@/server/env';

type Level = 'debug' | 'info' | 'warn' | 'error';

type FdDestination = ReturnType<typeof pino.destination>;

interface Sink {
  logger: Logger;
  /** The destinations written asynchronously, which a flush waits for. */
  queued: FdDestination[];
}

// One sink per process: Next.js bundles this module into several chunks, and two writers on one file
// descriptor could cut each other's lines.
const SINK = Symbol.for('encore.log.sink');
const holder = globalThis as typeof globalThis & { [SINK]?: Sink };

/** Where a stream's lines go: straight to its file descriptor, written asynchronously (pino flushes what is left when the process exits). */
function destinationOf(fd: 1 | 2): FdDestination {
  return pino.destination({ dest: fd, sync: false });
}

/**
 * The e2e server keeps the error lines it writes (server/lib/error-capture.ts sets this tap on globalThis,
 * only where TEST_HOOKS_SECRET is set): each error line is handed to it as well as written.
 */
const ERROR_TAP = Symbol.for('encore.log.errorTap');

function tapped(destination: FdDestination): DestinationStream {
  const tap = (globalThis as Record<symbol, unknown>)[ERROR_TAP];
  if (typeof tap !== 'function') return destination;
  return {
    write(line: string) {
      (tap as (text: string) => void)(line);
      return destination.write(line);
    },
  };
}

/** Made at the first line, so a tap set at start-up is in place by then. */
function sink(): Sink {
  if (holder[SINK]) return holder[SINK];
  const out = destinationOf(1);
  const err = destinationOf(2);
  const logger = pino(
    {
      level: 'info',
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    // dedupe: a line goes only to the stream of the highest level it reaches, so errors land on stderr alone.
    pino.multistream(
      [
        { level: 'debug', stream: out },
        { level: 'error', stream: tapped(err) },
      ],
      { dedupe: true },
    ),
  );
  return (holder[SINK] = { logger, queued: [out, err] });
}

function threshold(): Level | 'silent' {
  try {
    return env().LOG_LEVEL;
  } catch {
    return 'info'; // environment not valid yet: log at info
  }
}

/** Structured JSON logs, one object a line, on stdout (stderr for errors). */
function write(level: Level, msg: string, fields: Record<string, unknown> = {}): void {
  const { logger } = sink();
  // Read each time, as the environment is: tests and the boot sequence change LOG_LEVEL.
  const wanted = threshold();
  if (logger.level !== wanted) logger.level = wanted;
  // The message in the object, not as pino's second argument, keeps today's key order: level, time, msg, fields.
  logger[level]({ msg, ...fields });
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};

export function errorFields(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { error: err.message, stack: err.stack };
  return { error: String(err) };
}

/**
 * Resolves once every line logged so far is written (at most `timeoutMs`, so a blocked stdout cannot hold
 * a stop). An empty write queues behind the lines in flight; its 'drain' says all before it are out.
 */
export async function flushLogs(timeoutMs = 2_000): Promise<void> {
  const pending = (holder[SINK]?.queued ?? []).map((d) => {
    const drained = once(d, 'drain');
    d.write('');
    return drained;
  });
  if (pending.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs).unref()));
  await Promise.race([Promise.all(pending).then(() => undefined), timeout]).catch(() => undefined);
  clearTimeout(timer);
}
