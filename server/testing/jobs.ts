import { afterAll, beforeAll } from 'vitest';
import { replaceJobProvider } from '@/server/jobs/client';
import type { JobProvider, QueuedJob } from '@/server/jobs/types';

export type SentJob = QueuedJob;

/**
 * Records the jobs sent through the job client instead of queueing them (the queue itself is tested
 * with the real providers in server/jobs). `fail` makes sends (all, or those it picks) reject, as an
 * unreachable queue would.
 */
export function recordJobs(opts: { fail?: boolean | ((job: SentJob) => boolean) } = {}) {
  const sent: SentJob[] = [];
  const recorder: JobProvider = {
    name: 'local',
    async send(name, input, sendOpts) {
      await recorder.sendMany([{ name, input, ...(sendOpts ? { opts: sendOpts } : {}) }]);
    },
    async sendMany(jobs) {
      // All or nothing, as one queue write is.
      const fail = (job: SentJob) => (typeof opts.fail === 'function' ? opts.fail(job) : Boolean(opts.fail));
      if (jobs.some(fail)) throw new Error('queue unreachable');
      sent.push(...jobs);
    },
    async start() {},
    async stop() {},
  };
  const previous = replaceJobProvider(recorder);
  return { sent, restore: () => void replaceJobProvider(previous) };
}

/** recordJobs for a whole test file: recording from its beforeAll to its afterAll; `sent` is the record. */
export function recordJobsInFile(): { readonly sent: SentJob[] } {
  let recorder: ReturnType<typeof recordJobs> | null = null;
  beforeAll(() => {
    recorder = recordJobs();
  });
  afterAll(() => recorder?.restore());
  return {
    get sent() {
      return recorder?.sent ?? [];
    },
  };
}
