import PgBoss from 'pg-boss';
import postgres from 'postgres';
import { errorFields, log } from '@/server/lib/log';
import type { JobDefinition, JobProvider, QueuedJob, SendOptions } from './types';

/** The advisory lock key of the job queue's set-up (the migrations hold 727274; boot's demo partner 727276). */
const JOBS_SETUP_LOCK = 727277;

/**
 * The embedded default: durable jobs in our own PostgreSQL (schema `pgboss`) on pg-boss 10, worked by
 * the app process. Jobs survive restarts (they are rows); a job that was running when the process died
 * is expired and retried by pg-boss, and definitions are idempotent, so a retry shows nothing twice.
 */
export class LocalJobProvider implements JobProvider {
  readonly name = 'local' as const;
  private boss: PgBoss;
  private started = false;
  private workerIds = new Map<string, string[]>();

  constructor(
    private readonly databaseUrl: string,
    private readonly opts: { work?: boolean; schedules?: boolean; pollingIntervalSeconds?: number } = {},
  ) {
    this.boss = new PgBoss({
      connectionString: databaseUrl,
      schema: 'pgboss',
      max: 4,
      application_name: 'encore-jobs',
      // Finished jobs stay visible in the operations view for a week.
      deleteAfterDays: 7,
      archiveCompletedAfterSeconds: 24 * 3600,
    });
    this.boss.on('error', (err) => log.error('job queue error', errorFields(err)));
  }

  async start(definitions: JobDefinition[]): Promise<void> {
    if (this.started) return;
    await this.underSetupLock(async () => {
      await this.boss.start();
      await this.createQueues(definitions);
    });
    if (this.opts.work !== false) await this.startWorkers(definitions);
    this.started = true;
  }

  /**
   * pg-boss's schema, queues and schedules are shared by every instance, and creating queues from several
   * instances at once deadlocked (each queue is a partition of pg-boss's job table, taken in no fixed
   * order). One session-level advisory lock, on a connection of its own, makes instances that start
   * together do it one after the other; each later one finds everything made and changes nothing.
   */
  private async underSetupLock(fn: () => Promise<void>): Promise<void> {
    const sql = postgres(this.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      await sql`select pg_advisory_lock(${JOBS_SETUP_LOCK})`;
      try {
        await fn();
      } finally {
        await sql`select pg_advisory_unlock(${JOBS_SETUP_LOCK})`;
      }
    } finally {
      await sql.end({ timeout: 5 });
    }
  }

  private async createQueues(definitions: JobDefinition[]): Promise<void> {
    for (const def of definitions) {
      await this.boss.createQueue(def.id, {
        name: def.id,
        retryLimit: def.retries ?? 3,
        retryDelay: 5,
        retryBackoff: true,
        expireInSeconds: 15 * 60,
      });
      // Schedules are rows shared by every instance: switched off, they are removed, not only skipped.
      if (def.cron && this.opts.schedules !== false) await this.boss.schedule(def.id, def.cron, {});
      else if (def.cron) await this.boss.unschedule(def.id);
    }
  }

  private async startWorkers(definitions: JobDefinition[]): Promise<void> {
    for (const def of definitions) {
      const ids: string[] = [];
      for (let i = 0; i < (def.concurrency ?? 1); i++) {
        ids.push(
          await this.boss.work<unknown>(
            def.id,
            { batchSize: 1, pollingIntervalSeconds: this.opts.pollingIntervalSeconds ?? 1, includeMetadata: true },
            async ([job]) => {
              const input = def.input.parse(job.data ?? {});
              try {
                return await def.run(input, { provider: 'local', attempt: job.retryCount + 1 });
              } catch (err) {
                log.warn('job failed', {
                  job: def.id,
                  jobId: job.id,
                  attempt: job.retryCount + 1,
                  ...errorFields(err),
                });
                throw err;
              }
            },
          ),
        );
      }
      this.workerIds.set(def.id, ids);
    }
  }

  async send(name: string, input: object, opts: SendOptions = {}): Promise<void> {
    await this.boss.send(name, input, {
      ...(opts.runAt ? { startAfter: opts.runAt } : {}),
      ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
    });
    this.wakeIfDue([{ name, input, opts }]);
  }

  async sendMany(jobs: QueuedJob[]): Promise<void> {
    if (!jobs.length) return;
    await this.boss.insert(
      jobs.map(({ name, input, opts = {} }) => ({
        name,
        data: input,
        ...(opts.runAt ? { startAfter: opts.runAt.toISOString() } : {}),
        ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
      })),
    );
    this.wakeIfDue(jobs);
  }

  /** Wakes this instance's workers of the jobs due now, instead of at their next poll. */
  private wakeIfDue(jobs: QueuedJob[]): void {
    const now = Date.now();
    const due = new Set(jobs.filter((j) => !j.opts?.runAt || j.opts.runAt.getTime() <= now).map((j) => j.name));
    for (const name of due) for (const id of this.workerIds.get(name) ?? []) this.boss.notifyWorker(id);
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    // Stop fetching first, so no job is taken by a worker whose pool is about to close.
    for (const id of this.workerIds.keys()) await this.boss.offWork(id);
    this.workerIds.clear();
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000, close: true });
  }
}
