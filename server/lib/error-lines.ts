import { format } from 'node:util';
import { errorFields, log } from './log';

/*
 * Every error a running Encore reports is one JSON line of its log (server/lib/log.ts), whoever reports it:
 * - a request Next.js failed (a page, a server action, a route handler): `logRequestError`, called from
 *   instrumentation.ts's onRequestError with the request's method, path, request id and route;
 * - anything written with console.error or console.warn (Next.js's own reports, a library's): one line with
 *   the formatted message, and the error's message and stack when one was given. Next.js reports each failed
 *   request again after onRequestError; that second report of the same error is dropped;
 * - an exception nothing caught, or a promise rejection nothing handled: one line, and the process goes on,
 *   as Next.js's own handlers decide for a server (a rejection left over from a render, or from a library
 *   settling a job while the database restarts, must not take every request in flight down with it).
 *   Next.js's handlers report the same error on console.error; whichever reports first writes the line.
 */

/** The errors already written by logRequestError (Next.js reports them again on console.error). */
const written = new WeakSet<object>();

interface RequestInfo {
  path: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
}

interface RequestContext {
  routePath?: string;
  routeType?: string;
}

/** One line for a request Next.js failed. */
export function logRequestError(err: unknown, request: RequestInfo, context: RequestContext = {}): void {
  if (typeof err === 'object' && err !== null) {
    if (written.has(err)) return;
    written.add(err);
  }
  const requestId = request.headers['x-request-id'];
  const digest = (err as { digest?: unknown } | null)?.digest;
  log.error('request failed', {
    requestId: typeof requestId === 'string' ? requestId : undefined,
    method: request.method,
    path: request.path.split('?')[0],
    route: context.routePath,
    routeType: context.routeType,
    digest: typeof digest === 'string' ? digest : undefined,
    ...errorFields(err),
  });
}

// Colour codes and Next.js's "⨯"/"⚠" prefixes are terminal decoration, not part of the message.
const COLOURS = /\u001b\[[0-9;]*m/g;
const PREFIX = /^\s*[⨯⚠]\s*/;

/** The console's arguments as one line's message and fields (the first Error among them gives its stack). */
function consoleLine(args: unknown[]): { msg: string; fields: Record<string, unknown> } | null {
  const error = args.find((a): a is Error => a instanceof Error);
  if (error && written.has(error)) return null;
  if (error) written.add(error);
  const rest = args.filter((a) => a !== error);
  const text = format(...rest)
    .replace(COLOURS, '')
    .replace(PREFIX, '')
    .trim();
  const msg = text || error?.message || '';
  return { msg, fields: error ? errorFields(error) : {} };
}

const INSTALLED = Symbol.for('encore.errorLines');

/** Routes console.error/console.warn to the log and logs what nothing caught (once per process, never exiting). */
export function installErrorLines(): void {
  const holder = globalThis as Record<symbol, unknown>;
  if (holder[INSTALLED]) return;
  holder[INSTALLED] = true;
  console.error = (...args: unknown[]) => {
    const line = consoleLine(args);
    if (line) log.error(line.msg, line.fields);
  };
  console.warn = (...args: unknown[]) => {
    const line = consoleLine(args);
    if (line) log.warn(line.msg, line.fields);
  };
  const unhandled = (msg: string) => (err: unknown) => {
    if (typeof err === 'object' && err !== null) {
      if (written.has(err)) return;
      written.add(err);
    }
    log.error(msg, errorFields(err));
  };
  process.on('uncaughtException', unhandled('uncaught exception'));
  process.on('unhandledRejection', unhandled('unhandled promise rejection'));
}
