'use client';

import { useSuspenseQuery } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { Detail, DetailList } from '@/components/ui/details';
import { EmptyState } from '@/components/ui/empty-state';
import { Table } from '@/components/ui/table';
import { Time, TimeCell } from '@/components/ui/time';
import type { inferRouterOutputs } from '@trpc/server';
import { useTRPC } from '@/components/trpc/client';
import type { AppRouter } from '@/server/trpc/router';
import styles from './jobs-overview.module.css';

const REFRESH_MS = 10_000;

type Overview = inferRouterOutputs<AppRouter>['jobs']['overview'];

/** "45 s", "12 min", "3 h 5 min", "2 d 4 h": how long something has waited. */
function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

const COUNT_COLUMNS = [
  { key: 'queued', label: 'Queued', title: 'Waiting to run now' },
  { key: 'scheduled', label: 'Scheduled', title: 'Waiting for a later time' },
  { key: 'running', label: 'Running', title: 'Being worked on now' },
  { key: 'retrying', label: 'Retrying', title: 'Failed, waiting for the next try' },
  { key: 'failed24h', label: 'Failed (24 h)', title: 'Failed for good (retries used up) in the last 24 hours' },
  { key: 'completed24h', label: 'Completed (24 h)', title: 'Completed in the last 24 hours' },
] as const;

/**
 * The operations view: each job's queue by state, its last completion and last error, its schedule,
 * the latest failed runs, and the webhook delivery state those jobs work through. Refreshes itself.
 */
export function JobsOverview() {
  const trpc = useTRPC();
  const { data, refetch, isFetching } = useSuspenseQuery({
    ...trpc.jobs.overview.queryOptions(),
    refetchInterval: REFRESH_MS,
  });
  const local = data.provider === 'local';
  // Ages count from the server's reading time, so the server render and the browser agree.
  const now = data.readAt.getTime();

  return (
    <>
      <div className={styles.statusRow}>
        <p className={styles.provider}>
          Provider:{' '}
          {local ? (
            <>
              <Badge tone="neutral">Local</Badge>{' '}
              <span className="muted">pg-boss queue in Encore&rsquo;s database</span>
            </>
          ) : (
            <Badge tone="neutral">Inngest</Badge>
          )}
        </p>
        <div className={styles.refresh}>
          <span className="muted" aria-live="polite">
            Updated <Time value={data.readAt} seconds />
          </span>
          <Button size="sm" onClick={() => refetch()} pending={isFetching} pendingLabel="Refreshing…">
            Refresh
          </Button>
        </div>
      </div>

      {!local && (
        <Alert tone="info" title="Jobs run on Inngest">
          Runs, retries and failures are in the Inngest dashboard. This page lists the jobs Encore defines and the
          delivery state kept in Encore&rsquo;s database.
        </Alert>
      )}
      {local && !data.queueInstalled && (
        <Alert tone="warning" title="The job queue has not started yet">
          The local provider creates its tables when the app starts. Jobs appear here once it has run.
        </Alert>
      )}

      <WebhookStats webhooks={data.webhooks} now={now} />

      <SectionCard
        title="Jobs"
        description={
          local
            ? 'Counts from the queue. Finished runs are kept for a week.'
            : 'Defined jobs and their schedules; their runs are counted by Inngest.'
        }
      >
        {data.jobs.map((job) => (
          <JobRow key={job.id} job={job} local={local} />
        ))}
      </SectionCard>

      {local && (
        <SectionCard
          title="Recent failures"
          description="The last 20 failed runs, newest first. A run that will be retried is retried by the queue on its own."
        >
          {data.recentFailures.length === 0 ? (
            <div className="card-body">
              <EmptyState title="No failed runs" description="Failures of the last seven days appear here." />
            </div>
          ) : (
            <Table
              label="Recent failures"
              columns={['Time (UTC)', 'Job', { label: 'Try', num: true }, 'Outcome', 'Error']}
            >
              {data.recentFailures.map((f) => (
                <tr key={`${f.jobRunId}-${f.attempt}`}>
                  <TimeCell value={f.at} />
                  <td>
                    <code className="mono">{f.job}</code>
                  </td>
                  <td className="num">{f.attempt}</td>
                  <td className={styles.nowrap}>
                    {f.state === 'retry' ? (
                      <Badge tone="warning">
                        Retry {f.retryAt ? `in ${formatAge(f.retryAt.getTime() - now)}` : 'pending'}
                      </Badge>
                    ) : (
                      <Badge tone="danger">Failed</Badge>
                    )}
                  </td>
                  <td className={styles.wrap}>{f.error}</td>
                </tr>
              ))}
            </Table>
          )}
        </SectionCard>
      )}
    </>
  );
}

/** Messages waiting for partners' receivers: how many, how many delivered lately, how long the oldest waits. */
function WebhookStats({ webhooks: wh, now }: { webhooks: Overview['webhooks']; now: number }) {
  return (
    <section aria-label="Webhook delivery" className="stat-grid" data-testid="webhook-stats">
      <div className="card stat">
        <p className="stat-label">Webhooks pending</p>
        <p className="stat-value">{wh.pending}</p>
        <p className="muted">
          {wh.failing} after a failed attempt · {wh.held} held (no endpoint or paused)
        </p>
      </div>
      <div className="card stat">
        <p className="stat-label">Delivered in 24 h</p>
        <p className="stat-value">{wh.delivered24h}</p>
        <p className="muted">Accepted by partners&rsquo; receivers</p>
      </div>
      <div className="card stat">
        <p className="stat-label">Oldest pending</p>
        <p className="stat-value">
          {wh.oldestPendingAt ? formatAge(now - wh.oldestPendingAt.getTime()) : <span className="muted">—</span>}
        </p>
        <p className="muted">
          {wh.oldestPendingAt ? (
            <>
              since <Time value={wh.oldestPendingAt} seconds />
            </>
          ) : (
            'Nothing waiting'
          )}
        </p>
      </div>
    </section>
  );
}

/** One job: what it does, when it runs, and (local provider) its queue by state and its last error. */
function JobRow({ job, local }: { job: Overview['jobs'][number]; local: boolean }) {
  return (
    <div className="card-body" data-job={job.id}>
      <div className={styles.jobHead}>
        <h3 className={styles.jobId}>
          <code className="mono">{job.id}</code>
        </h3>
        <span className={styles.jobDescription}>{job.description}</span>
        <span className={styles.jobSchedule}>
          {job.cron ? (
            <>
              Cron <code className="mono">{job.cron}</code>
            </>
          ) : (
            'On demand'
          )}
        </span>
      </div>
      {local && (
        <DetailList className={styles.counts}>
          {COUNT_COLUMNS.map((c) => {
            const n = job.counts?.[c.key] ?? 0;
            const bad = n > 0 && (c.key === 'failed24h' || c.key === 'retrying');
            return (
              <Detail
                key={c.key}
                title={c.title}
                term={c.label}
                data-count={c.key}
                className={bad ? styles.bad : n === 0 ? styles.zero : undefined}
              >
                {n}
              </Detail>
            );
          })}
          <Detail term="Last completed">
            <Time value={job.lastCompletedAt} fallback="Never" seconds />
          </Detail>
        </DetailList>
      )}
      {local &&
        (job.lastError ? (
          <p className={styles.lastError}>
            <span className={styles.lastErrorLabel}>Last error</span>{' '}
            <span className={styles.errorTime}>
              <Time value={job.lastError.at} seconds />
            </span>
            <span className={styles.errorText}>{job.lastError.message}</span>
          </p>
        ) : (
          <p className="muted">No errors recorded.</p>
        ))}
    </div>
  );
}
