import type { z } from 'zod';
import { env } from '@/server/env';
import { errorFields, log } from '@/server/lib/log';
import { getInngest, InngestJobProvider } from './inngest';
import { LocalJobProvider } from './local';
import type { JobDefinition, JobInputs, JobName, JobProvider, QueuedJob, SendOptions } from './types';

/**
 * The job client: sends jobs by name and knows no job. The definitions (server/jobs/registry.ts) are
 * handed to the provider at boot (`startJobs`), so a module's jobs can send jobs through this client
 * without the client importing them back. Kept on globalThis: Next.js bundles the instrumentation
 * (which starts the provider) and each route separately, in one process.
 */
const g = globalThis as typeof globalThis & { __encoreJobs?: JobProvider };

/** Inngest when it is configured (keys, or INNGEST_DEV for a dev server); otherwise the local provider. */
export function inngestConfigured(): boolean {
  const e = env();
  return Boolean(e.INNGEST_EVENT_KEY || e.INNGEST_SIGNING_KEY || e.INNGEST_DEV);
}

function createProvider(): JobProvider {
  if (inngestConfigured()) return new InngestJobProvider(getInngest());
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('The local job provider needs the database to be resolved first');
  return new LocalJobProvider(url, {
    work: env().JOBS_WORKER,
    schedules: env().JOBS_SCHEDULES,
    pollingIntervalSeconds: 0.5,
  });
}

function jobProvider(): JobProvider {
  g.__encoreJobs ??= createProvider();
  return g.__encoreJobs;
}

/** Starts the provider with every job definition (the local one starts its workers and crons); once, at boot. */
export async function startJobs(definitions: JobDefinition[]): Promise<JobProvider> {
  const provider = jobProvider();
  await provider.start(definitions);
  log.info('jobs ready', { provider: provider.name, jobs: definitions.map((j) => j.id) });
  return provider;
}

/** Puts `provider` in place of the configured one (tests and benches); answers the one it replaced. */
export function replaceJobProvider(provider: JobProvider | undefined): JobProvider | undefined {
  const previous = g.__encoreJobs;
  g.__encoreJobs = provider;
  return previous;
}

export async function stopJobs(): Promise<void> {
  const provider = g.__encoreJobs;
  g.__encoreJobs = undefined;
  await provider?.stop();
}

/**
 * Queues a job: by its definition within the module that defines it (the input is checked now, against
 * the definition's schema), or by name (its id) from anywhere else: a registered name with its job's input
 * (typed from the registry's definitions; the schema checks it again when it runs).
 */
export function sendJob<I extends z.ZodType>(
  job: JobDefinition<I, string>,
  input: z.input<I>,
  opts?: SendOptions,
): Promise<void>;
export function sendJob<N extends JobName>(job: N, input: JobInputs[N], opts?: SendOptions): Promise<void>;
export function sendJob(job: string | JobDefinition, input: unknown = {}, opts?: SendOptions): Promise<void> {
  if (typeof job === 'string') return jobProvider().send(job, input as object, opts);
  return jobProvider().send(job.id, job.input.parse(input) as object, opts);
}

const merging = new Map<string, NodeJS.Timeout>();
const MERGE_MS = 25;

/**
 * Queues a job soon, merging the same job with the same input asked for within 25 ms into one send, so a
 * burst of state changes costs one queue write. A send that fails is logged: jobs sent this way have a
 * sweep (a cron of their own) that catches up.
 */
export function sendJobSoon<N extends JobName>(name: N, input: JobInputs[N]): void;
export function sendJobSoon(name: string, input: object = {}): void {
  const key = `${name}\u0000${JSON.stringify(input)}`;
  if (merging.has(key)) return;
  const timer = setTimeout(() => {
    merging.delete(key);
    jobProvider()
      .send(name, input)
      .catch((err) => log.warn('could not queue a job; its sweep will catch up', { job: name, ...errorFields(err) }));
  }, MERGE_MS);
  timer.unref?.();
  merging.set(key, timer);
}

let batch: { jobs: QueuedJob[]; written: Promise<void> } | undefined;
const BATCH_MS = 10;

/**
 * Queues a job with the others asked for within 10 ms, in one write (a statement for the local
 * provider, one API call for Inngest): a rush of buy intentions queues its expiry jobs in a few
 * writes instead of one each. Resolves (or rejects) when its batch is written; for jobs that have a
 * sweep catching up, sent where the caller does not wait for the queue (`after.job(…, { background })`).
 */
export function sendJobBatched<N extends JobName>(name: N, input: JobInputs[N], opts?: SendOptions): Promise<void>;
export function sendJobBatched(name: string, input: object = {}, opts?: SendOptions): Promise<void> {
  if (!batch) {
    const jobs: QueuedJob[] = [];
    const written = new Promise<void>((resolve, reject) => {
      setTimeout(() => {
        batch = undefined;
        // A provider that cannot even be created rejects the batch rather than throwing in the timer.
        Promise.resolve()
          .then(() => jobProvider().sendMany(jobs))
          .then(resolve, reject);
      }, BATCH_MS);
    });
    batch = { jobs, written };
  }
  batch.jobs.push({ name, input, ...(opts ? { opts } : {}) });
  return batch.written;
}
