import { sql } from 'drizzle-orm';
import { type DbOrTx, inTextList } from '@/db';
import { inngestConfigured } from './client';

export type JobQueueCounts = {
  job: string;
  /** Due now (`created`, start time passed). */
  queued: number;
  /** Waiting for a later start. */
  scheduled: number;
  running: number;
  /** Failed, waiting for the provider's next try. */
  retrying: number;
  /** Failed for good (retries used up) in the last 24 hours. */
  failed24h: number;
};

/**
 * The local queue's depth and failures per job, for the operators' metrics: one aggregate over pg-boss's
 * live table (finished jobs move to `pgboss.archive` after a day, so it stays small). Every given job is
 * answered, with zeros when it has no rows. Nothing on Inngest (its runs live in Inngest's dashboard) or
 * before the queue's tables exist.
 */
export async function jobQueueCounts(db: DbOrTx, jobIds: string[]): Promise<JobQueueCounts[]> {
  if (inngestConfigured()) return [];
  const [{ installed }] = await db.execute<{ installed: boolean }>(
    sql`select to_regclass('pgboss.job') is not null as installed`,
  );
  if (!installed) return [];
  const rows = await db.execute<JobQueueCounts>(sql`
    select name as job,
      (count(*) filter (where state = 'created' and start_after <= now()))::int as queued,
      (count(*) filter (where state = 'created' and start_after > now()))::int as scheduled,
      (count(*) filter (where state = 'active'))::int as running,
      (count(*) filter (where state = 'retry'))::int as retrying,
      (count(*) filter (where state = 'failed' and completed_on > now() - interval '24 hours'))::int as "failed24h"
    from pgboss.job
    where ${inTextList(sql`name`, jobIds)}
    group by name`);
  const byJob = new Map([...rows].map((r) => [r.job, r]));
  return jobIds.map((job) => byJob.get(job) ?? { job, queued: 0, scheduled: 0, running: 0, retrying: 0, failed24h: 0 });
}
