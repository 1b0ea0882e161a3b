import { getSql } from '@/db';
import type { Sql } from 'postgres';
import { errorFields, log } from './log';

/**
 * "Last used" / "last seen" stamps written off the request path (a GET never writes, and a burst of
 * calls must not queue behind one row's lock). A request notes the id in memory; a timer writes every noted
 * id in one statement within `flushMs`; the graceful stop writes what is left (`flushTouches`). A crash
 * loses at most those seconds of a stamp, never a request. Kept on globalThis by name: Next.js bundles
 * route handlers and pages separately, and one process should write one statement per tick. The write
 * runs after its request is answered, on no caller's executor: it is handed the process-wide handle here
 * (infrastructure owning process-wide state), so the modules that define stamps never reach for it.
 */
export interface DeferredTouch {
  note(id: string): void;
  flush(): Promise<void>;
}

interface State {
  pending: Set<string>;
  timer?: NodeJS.Timeout;
  write: (sql: Sql, ids: string[]) => Promise<unknown>;
}

const store = globalThis as typeof globalThis & { __encoreTouches?: Map<string, State> };
const touches = () => (store.__encoreTouches ??= new Map());

export function deferredTouch(
  name: string,
  flushMs: number,
  write: (sql: Sql, ids: string[]) => Promise<unknown>,
): DeferredTouch {
  const state = (): State => {
    let s = touches().get(name);
    if (!s) touches().set(name, (s = { pending: new Set(), write }));
    return s;
  };
  const flush = () => drain(state());
  return {
    note(id) {
      const s = state();
      s.pending.add(id);
      s.timer ??= setTimeout(() => {
        s.timer = undefined;
        flush().catch((err: unknown) => log.warn(`could not write ${name}`, errorFields(err)));
      }, flushMs).unref();
    },
    flush,
  };
}

/** Writes what one stamp has noted so far, in one statement. */
async function drain(s: State): Promise<void> {
  const ids = [...s.pending];
  s.pending.clear();
  if (ids.length) await s.write(getSql(), ids);
}

/** Writes every noted stamp now (the graceful stop). */
export async function flushTouches(): Promise<void> {
  await Promise.all(
    [...touches().entries()].map(([name, s]) =>
      drain(s).catch((err: unknown) => log.error(`${name} not written`, errorFields(err))),
    ),
  );
}
