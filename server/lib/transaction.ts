import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, DbOrTx, Tx } from '@/db';
import { sendJob, sendJobBatched, sendJobSoon } from '@/server/jobs/client';
import type { JobInputs, JobName, SendOptions } from '@/server/jobs/types';
import { isConnectionFault, RECONNECT_WAITS_MS } from './db-faults';
import { errorFields, log } from './log';

/** Effects that must happen only once the transaction's writes are committed. */
export interface After {
  /**
   * Queues the job `name` (a registered job's id, with that job's input: a type error otherwise) after the
   * commit. `merge`: jobs that sweep a table
   * (the webhook dispatcher) are asked for once however many transactions ask within 25 ms. `background`:
   * the send is started but not waited for (a job whose sweep covers a lost send, on a path where the
   * caller's answer should not wait for the queue write: a buy intention's expiry), and goes with the
   * others asked for within 10 ms in one queue write (`sendJobBatched`).
   */
  job<N extends JobName>(
    name: N,
    input: JobInputs[N],
    opts?: SendOptions & { merge?: boolean; background?: boolean },
  ): void;
  /** Any other effect after the commit (a mail, a cache refresh). */
  run(effect: () => Promise<void> | void): void;
}

/** A transaction and its after-commit list: what domain code that writes and then acts is handed. */
export interface Work {
  tx: Tx;
  after: After;
}

/**
 * A check every outermost `transaction()` run inside `withCommitGuard` makes last, in its own transaction
 * (before the commit): the route wrapper's `Idempotency-Key` claim (server/http/route.ts) binds each of
 * the call's commits to the claim it still holds, so no effect commits for a call whose claim was taken
 * over, and the key's row records that the call's effect committed.
 */
type CommitGuard = (tx: Tx) => Promise<void>;
const commitGuard = new AsyncLocalStorage<CommitGuard>();

/** Runs `fn` with `guard` checked at the end of each outermost transaction it opens through `transaction()`. */
export function withCommitGuard<T>(guard: CommitGuard, fn: () => Promise<T>): Promise<T> {
  return commitGuard.run(guard, fn);
}

/** The Work of each transaction `transaction()` opened, by its tx: how `afterCommit` finds its effects. */
const workOf = new WeakMap<object, Work>();

/**
 * Runs `effect` once what `executor` wrote is committed: queued with the effects of the transaction it
 * belongs to when `transaction()` opened it (or when it is that Work), else at once (the pool: each
 * statement has committed when it returns). For code handed a bare executor that must act after the
 * commit, such as a cache that must not be refilled from rows a rollback would undo.
 */
export function afterCommit(executor: DbOrTx | Work, effect: () => void): void {
  const work = 'after' in executor ? executor : workOf.get(executor);
  if (work) work.after.run(effect);
  else effect();
}

/**
 * The one way to act after a commit: runs `fn` in a transaction and, only when it commits, the effects it
 * asked for, in order; a rollback (an error) drops them. Given a `Work` already under way, `fn` joins it
 * (its writes and effects belong to the outer transaction). An effect that fails is logged, never
 * thrown: the state is committed, and every effect queued here has a sweep that catches up (the
 * dispatcher's minute cron, the batch resume job), so the caller's answer stays true.
 */
export async function transaction<T>(fn: (work: Work) => Promise<T>, within: Work | Db): Promise<T> {
  if ('after' in within) return fn(within);
  const effects: { what: string; run: () => Promise<void> | void; background?: boolean }[] = [];
  const after: After = {
    job(name, input, opts = {}) {
      const { merge, background, ...send } = opts;
      effects.push({
        what: name,
        run: () =>
          merge
            ? sendJobSoon(name, input)
            : background
              ? sendJobBatched(name, input, send)
              : sendJob(name, input, send),
        background,
      });
    },
    run(effect) {
      effects.push({ what: 'effect', run: effect });
    },
  };
  const guard = commitGuard.getStore();
  const run = async (): Promise<{ value: T } | { retry: unknown }> => {
    // Set once the body has ended: from then on the driver sends COMMIT, whose outcome a dropped
    // connection leaves unknown (never run again); before it, nothing of this transaction committed.
    let bodyEnded = false;
    try {
      const value = await within.transaction(async (tx) => {
        const work = { tx, after };
        workOf.set(tx, work);
        const out = await fn(work);
        if (guard) await guard(tx);
        bodyEnded = true;
        return out;
      });
      return { value };
    } catch (err) {
      if (!bodyEnded && isConnectionFault(err)) return { retry: err };
      throw err;
    }
  };
  let outcome = await run();
  // A connection the server dropped (a restart, a terminated backend): run again, with none of the failed
  // run's effects, once the pool hands out a live connection. The pool may still hold other connections the
  // same restart killed (the driver learns of each when it uses it): each fails at once, so a few short
  // waits reach a fresh one; past them the outage stands and the caller gets it (a 503).
  for (const waitMs of RECONNECT_WAITS_MS) {
    if (!('retry' in outcome)) break;
    log.warn('transaction retried after a dropped connection', errorFields(outcome.retry));
    effects.length = 0;
    await new Promise((r) => setTimeout(r, waitMs));
    outcome = await run();
  }
  if ('retry' in outcome) throw outcome.retry;
  const result = outcome.value;
  const failed = (what: string) => (err: unknown) =>
    log.warn('an after-commit effect failed; its sweep catches up', { effect: what, ...errorFields(err) });
  for (const effect of effects) {
    try {
      const running = effect.run();
      if (effect.background) Promise.resolve(running).catch(failed(effect.what));
      else await running;
    } catch (err) {
      failed(effect.what)(err);
    }
  }
  return result;
}
