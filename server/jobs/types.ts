import type { z } from 'zod';

export interface JobContext {
  /** Which provider runs this call. */
  provider: 'local' | 'inngest';
  /** 1 on the first try; retries of a failed run count up. */
  attempt: number;
}

/**
 * A background job: a plain, idempotent function over small inputs (ids), with the trigger that
 * starts it. The same definition runs on the local provider (pg-boss in our PostgreSQL) and on
 * Inngest. The truth (what was delivered, imported, expired) lives in domain tables, so running a
 * job twice or losing a queued one loses nothing: sweeps re-enqueue what is due.
 */
export interface JobDefinition<I extends z.ZodType = z.ZodType, Id extends string = string> {
  /** Stable id, also the queue name and the Inngest function id, e.g. `webhooks.deliver`. */
  id: Id;
  description: string;
  input: I;
  /** Runs on a schedule (5-field cron, minute precision) instead of, or besides, being sent. */
  cron?: string;
  /** How many times a failing run is retried by the provider (domain-level retries are separate). */
  retries?: number;
  /** Parallel runs per app instance (local provider). */
  concurrency?: number;
  run(input: z.output<I>, ctx: JobContext): Promise<unknown>;
}

/** A definition keeps its id's literal type, so the registry can name its jobs' inputs by id. */
export function defineJob<I extends z.ZodType, Id extends string>(def: JobDefinition<I, Id>): JobDefinition<I, Id> {
  return def;
}

/**
 * The input of every registered job where it is queued (z.input of its schema), by job id. Empty here and
 * filled in by server/jobs/registry.ts (declaration merging) from its list of definitions, so the names
 * and inputs are the definitions' own, and this file, the job client and server/lib/transaction.ts import
 * no module. A name missing from the registry, or an input its schema would refuse, is a type error.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augmented by server/jobs/registry.ts
export interface JobInputs {}

/** The id of a registered job. */
export type JobName = keyof JobInputs & string;

export interface SendOptions {
  /** Run no earlier than this time. */
  runAt?: Date;
  /** At most one queued run per key (local provider), e.g. one dispatch per partner. */
  singletonKey?: string;
}

/** One job of a `sendMany`. */
export interface QueuedJob {
  name: string;
  input: object;
  opts?: SendOptions;
}

export interface JobProvider {
  readonly name: 'local' | 'inngest';
  /** Queues the job with this id; its definition's schema checks the input when it runs. */
  send(name: string, input: object, opts?: SendOptions): Promise<void>;
  /** Queues several jobs in one write (one statement, one API call). */
  sendMany(jobs: QueuedJob[]): Promise<void>;
  /** Takes the definitions this process runs (handed over at boot: the provider imports none). */
  start(definitions: JobDefinition[]): Promise<void>;
  stop(): Promise<void>;
}
