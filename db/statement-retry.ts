import type { PendingQuery, Row, Sql } from 'postgres';
import { isConnectionFault, RECONNECT_WAITS_MS } from '@/server/lib/db-faults';

/**
 * The pool's statements (those outside a transaction) with more tries on a fresh connection when the one
 * they met was dropped by the server: a restart or a terminated backend leaves the pool's idle connections
 * dead, and the driver learns of each only when it uses it. A read is run again after any connection
 * fault; a write only when the server said it ended the backend (SQLSTATE 57P01–57P03: the statement was
 * rolled back), since a connection lost after a write reached the server leaves its outcome unknown. A few
 * short waits let the pool replace what the restart killed; past them the fault is the caller's (a 503).
 * Statements inside a transaction are retried whole by `transaction()` (server/lib/transaction.ts).
 *
 * The statement stays the driver's own object (a fragment nested in another statement keeps working);
 * only how it is awaited is this one's.
 */
export function withStatementRetry(sql: Sql): Sql {
  const unsafe = ((query: string, params?: never[], options?: never) =>
    retrying(() => sql.unsafe(query, params, options), query)) as Sql['unsafe'];
  return new Proxy(sql, {
    // A tagged template (sql`…`) is a statement; sql(value) builds a helper and is left alone.
    apply(target, self, args: unknown[]) {
      const [strings] = args;
      if (!Array.isArray(strings) || !('raw' in strings)) return Reflect.apply(target, self, args);
      return retrying(() => Reflect.apply(target, self, args) as PendingQuery<Row[]>, strings.join('$'));
    },
    get(target, prop, receiver) {
      return prop === 'unsafe' ? unsafe : Reflect.get(target, prop, receiver);
    },
  });
}

const SERVER_ENDED = new Set(['57P01', '57P02', '57P03']);
const READ = /^\s*(?:select|show|values|table)\b/i;

/** Whether running the statement again cannot apply anything twice after this failure. */
function mayRunAgain(text: string, err: unknown): boolean {
  if (!isConnectionFault(err)) return false;
  if (READ.test(text)) return true;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && SERVER_ENDED.has(code);
}

type Query = PendingQuery<Row[]> & { isRaw?: boolean | 'values' };

/** The driver's pending statement, awaited with the retries above (a new statement each time, same mode). */
function retrying(make: () => PendingQuery<Row[]>, text: string): PendingQuery<Row[]> {
  const first = make() as Query;
  const { then } = Object.getPrototypeOf(first) as Promise<unknown>;
  const settle = (q: Query) => new Promise((resolve, reject) => then.call(q, resolve, reject));
  let outcome: Promise<unknown> | undefined;
  const run = () =>
    (outcome ??= (async () => {
      let query = first;
      for (let attempt = 0; ; attempt++) {
        try {
          return await settle(query);
        } catch (err) {
          if (attempt >= RECONNECT_WAITS_MS.length || !mayRunAgain(text, err)) throw err;
          await new Promise((r) => setTimeout(r, RECONNECT_WAITS_MS[attempt]));
          const next = make() as Query;
          next.isRaw = first.isRaw;
          query = next;
        }
      }
    })());
  Object.assign(first, {
    then: (ok?: (v: unknown) => unknown, fail?: (e: unknown) => unknown) => run().then(ok, fail),
    catch: (fail?: (e: unknown) => unknown) => run().catch(fail),
    finally: (fn?: () => void) => run().finally(fn),
  });
  return first;
}
