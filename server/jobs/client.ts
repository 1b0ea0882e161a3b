import type { z } from 'zod';
import { env } from '@/server/env';
import { log } from '@/server/lib/log';
import { allJobs } from './registry';
import { getInngest, InngestJobProvider } from './inngest';
import { LocalJobProvider } from './local';
import type { JobDefinition, JobProvider, SendOptions } from './types';

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
  return new LocalJobProvider(url, allJobs(), { work: env().JOBS_WORKER, pollingIntervalSeconds: 0.5 });
}

export function jobProvider(): JobProvider {
  g.__encoreJobs ??= createProvider();
  return g.__encoreJobs;
}

/** Starts the provider (the local one starts its workers and crons); called once at boot. */
export async function startJobs(): Promise<JobProvider> {
  const provider = jobProvider();
  await provider.start();
  log.info('jobs ready', { provider: provider.name, jobs: allJobs().map((j) => j.id) });
  return provider;
}

export async function stopJobs(): Promise<void> {
  const provider = g.__encoreJobs;
  g.__encoreJobs = undefined;
  await provider?.stop();
}

export function sendJob<I extends z.ZodType>(
  def: JobDefinition<I>,
  input: z.input<I>,
  opts?: SendOptions,
): Promise<void> {
  return jobProvider().send(def, input, opts);
}
