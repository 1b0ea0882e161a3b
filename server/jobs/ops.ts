import type { Sql } from 'postgres';
import { getSql } from '@/db';
import { inngestConfigured } from './client';
import { allJobs } from './registry';
import type { JobDefinition } from './types';

// pg-boss's tables live in schema `pgboss` (see LocalJobProvider).
const RECENT_FAILURES = 20;

export interface JobCounts {
  /** Waiting to run now (state `created`, due). */
  queued: number;
  /** Waiting for a later time (state `created`, `start_after` in the future), e.g. a delayed dispatch. */
  scheduled: number;
  /** Being worked on (`active`). */
  running: number;
  /** Failed, waiting for the provider's next try (`retry`). */
  retrying: number;
  /** Failed for good in the last 24 hours (retries used up). */
  failed24h: number;
  completed24h: number;
}

export interface JobError {
  at: Date;
  message: string;
}

export interface JobOverview {
  id: string;
  description: string;
  /** 5-field cron of the job's schedule, if it has one. */
  cron: string | null;
  /** null when the counts are not ours to read (Inngest), or the queue was never started. */
  counts: JobCounts | null;
  lastCompletedAt: Date | null;
  lastError: JobError | null;
}

export interface FailedRun {
  jobRunId: string;
  job: string;
  /** 1 for the first try. */
  attempt: number;
  /** `retry`: the provider tries again at `retryAt`; `failed`: retries used up. */
  state: 'retry' | 'failed';
  at: Date;
  retryAt: Date | null;
  error: string;
}

export interface JobsOverview {
  provider: 'local' | 'inngest';
  /** Whether the queue's tables exist (the local provider ran at least once against this database). */
  queueInstalled: boolean;
  jobs: JobOverview[];
  /** The most recent failed runs (final failures and failed tries awaiting a retry), newest first. */
  recentFailures: FailedRun[];
}

const ZERO: JobCounts = { queued: 0, scheduled: 0, running: 0, retrying: 0, failed24h: 0, completed24h: 0 };

/**
 * What the background jobs are doing, read from pg-boss's own tables (jobs finished more than a day
 * ago sit in `pgboss.archive` for a week). Every definition is listed, also those with no runs yet.
 * On Inngest the runs live in Inngest's dashboard, so only the definitions are listed.
 */
export async function jobsOverview(
  definitions: JobDefinition[] = allJobs(),
  sql: Sql = getSql(),
): Promise<JobsOverview> {
  const provider = inngestConfigured() ? 'inngest' : 'local';
  if (provider === 'inngest') {
    return { provider, queueInstalled: false, jobs: definitions.map(base), recentFailures: [] };
  }

  const [{ installed }] = await sql<{ installed: boolean }[]>`
    select to_regclass('pgboss.job') is not null and to_regclass('pgboss.archive') is not null as installed`;
  if (!installed) return { provider, queueInstalled: false, jobs: definitions.map(base), recentFailures: [] };

  const [counts, finished, lastErrors, schedules, failures] = await readQueue(
    sql,
    definitions.map((d) => d.id),
  );

  const byName = <T extends { name: string }>(rows: T[]) => new Map(rows.map((r) => [r.name, r]));
  const countsOf = byName(counts);
  const finishedOf = byName(finished);
  const errorOf = byName(lastErrors);
  const cronOf = byName(schedules);

  return {
    provider,
    queueInstalled: true,
    jobs: definitions.map((def) => {
      const c = countsOf.get(def.id);
      const done = finishedOf.get(def.id)?.at;
      const err = errorOf.get(def.id);
      return {
        ...base(def),
        cron: cronOf.get(def.id)?.cron ?? def.cron ?? null,
        counts: c
          ? {
              queued: c.queued,
              scheduled: c.scheduled,
              running: c.running,
              retrying: c.retrying,
              failed24h: c.failed24h,
              completed24h: c.completed24h,
            }
          : { ...ZERO },
        lastCompletedAt: done ? new Date(done) : null,
        lastError: err ? { at: new Date(err.at), message: errorText(err.output) } : null,
      };
    }),
    recentFailures: failures.map((f) => ({
      jobRunId: f.id,
      job: f.name,
      attempt: f.retry_count + 1,
      state: f.state,
      at: new Date(f.at),
      retryAt: f.state === 'retry' && f.retry_at ? new Date(f.retry_at) : null,
      error: errorText(f.output),
    })),
  };
}

/** A job definition on its own, before (or without) what its queue says. */
function base(def: JobDefinition): JobOverview {
  return {
    id: def.id,
    description: def.description,
    cron: def.cron ?? null,
    counts: null,
    lastCompletedAt: null,
    lastError: null,
  };
}

/** The queue's counts, last completions, last errors, schedules and recent failures of these jobs, at once. */
function readQueue(sql: Sql, ids: string[]) {
  const names = sql.array(ids);
  // Timestamps come back as epoch milliseconds: the shared client's type parsers belong to drizzle.
  return Promise.all([
    sql<({ name: string } & JobCounts)[]>`
      select name,
        (count(*) filter (where state = 'created' and start_after <= now()))::int as queued,
        (count(*) filter (where state = 'created' and start_after > now()))::int as scheduled,
        (count(*) filter (where state = 'active'))::int as running,
        (count(*) filter (where state = 'retry'))::int as retrying,
        (count(*) filter (where state = 'failed' and completed_on > now() - interval '24 hours'))::int as failed24h,
        (count(*) filter (where state = 'completed' and completed_on > now() - interval '24 hours'))::int as "completed24h"
      from pgboss.job
      where name = any(${names}::text[])
      group by name`,
    sql<{ name: string; at: number | null }[]>`
      select name, (extract(epoch from max(completed_on)) * 1000)::float8 as at from (
        select name, completed_on from pgboss.job where name = any(${names}::text[]) and state = 'completed'
        union all
        select name, completed_on from pgboss.archive where name = any(${names}::text[]) and state = 'completed'
      ) done
      group by name`,
    sql<{ name: string; at: number; output: unknown }[]>`
      select distinct on (name) name, (extract(epoch from at) * 1000)::float8 as at, output
      from (${failedRuns(sql, names)}) f
      order by name, at desc`,
    sql<{ name: string; cron: string }[]>`
      select name, cron from pgboss.schedule where name = any(${names}::text[])`,
    sql<
      {
        id: string;
        name: string;
        state: 'retry' | 'failed';
        retry_count: number;
        at: number;
        retry_at: number | null;
        output: unknown;
      }[]
    >`
      select id, name, state, retry_count, (extract(epoch from at) * 1000)::float8 as at,
        (extract(epoch from retry_at) * 1000)::float8 as retry_at, output
      from (${failedRuns(sql, names)}) f
      order by at desc
      limit ${RECENT_FAILURES}`,
  ]);
}

/**
 * Failed runs of the given jobs: final failures (live or archived) and tries waiting for a retry. A try
 * has no completion time, so it counts from its start. pg-boss keeps the thrown error in `output`.
 */
function failedRuns(sql: Sql, names: ReturnType<Sql['array']>) {
  return sql`
    select id, name, state::text as state, retry_count, coalesce(completed_on, started_on, created_on) as at,
      case when state = 'retry' then start_after end as retry_at, output
    from pgboss.job where name = any(${names}::text[]) and state in ('retry', 'failed')
    union all
    select id, name, state::text, retry_count, coalesce(completed_on, started_on, created_on), null, output
    from pgboss.archive where name = any(${names}::text[]) and state = 'failed'`;
}

/** A readable line from what pg-boss stored: a serialized Error, a `{ value }` wrapper, or anything. */
export function errorText(output: unknown): string {
  const o = typeof output === 'string' ? safeJson(output) : output;
  if (o && typeof o === 'object') {
    const rec = o as Record<string, unknown>;
    if (typeof rec.message === 'string' && rec.message) return rec.message;
    if ('value' in rec) return errorText(rec.value);
  }
  if (typeof o === 'string' && o) return o;
  if (o === null || o === undefined) return 'No error detail recorded';
  return JSON.stringify(o).slice(0, 500);
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}
