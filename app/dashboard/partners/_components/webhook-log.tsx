'use client';

import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useId, useTransition } from 'react';
import { Button, ButtonLink } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { PagedList } from '@/components/ui/pagination';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import { withParams } from '@/components/ui/url';
import { MessageStatusBadge } from './webhook-message';
import { actionsQueryInput } from './webhook-queries';
import styles from './webhooks.module.css';

export interface WebhookLogInput {
  partnerId: string;
  status?: 'pending' | 'delivered';
  action?: string;
  page: number;
  pageSize: number;
}

/** While anything shown is still pending, the log refreshes itself so staff see deliveries land. */
const LIVE_REFRESH_MS = 3_000;

/**
 * Status and action filters. They live in the URL (shareable, back button works); the form is a plain
 * GET form without JavaScript, and a clean client navigation with it.
 */
export function WebhookLogFilters({
  basePath,
  partnerId,
  status,
  action,
}: {
  basePath: string;
  partnerId: string;
  status?: string;
  action?: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [navigating, startNavigation] = useTransition();
  const statusId = useId();
  const actionId = useId();
  // The partner's actions come with any page of the log; this one stays the same while filters change.
  const { data } = useQuery(trpc.webhooks.messages.list.queryOptions(actionsQueryInput(partnerId)));
  const actions = Array.from(new Set([...(data?.actions ?? []), ...(action ? [action] : [])])).sort();

  return (
    <form
      action={basePath}
      method="get"
      className={styles.filters}
      role="search"
      aria-label="Filter messages"
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        const href = withParams(basePath, {
          status: String(form.get('status') ?? ''),
          action: String(form.get('action') ?? ''),
        });
        startNavigation(() => router.push(href));
      }}
    >
      <div className={styles.filter}>
        <label htmlFor={statusId} className="field-label">
          Status
        </label>
        <select id={statusId} name="status" className="input" defaultValue={status ?? ''} key={`s-${status}`}>
          <option value="">All statuses</option>
          <option value="pending">Pending</option>
          <option value="delivered">Delivered</option>
        </select>
      </div>
      <div className={styles.filter}>
        <label htmlFor={actionId} className="field-label">
          Action
        </label>
        <select id={actionId} name="action" className="input" defaultValue={action ?? ''} key={`a-${action}`}>
          <option value="">All actions</option>
          {actions.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" pending={navigating} pendingLabel="Filtering…">
        Apply filters
      </Button>
      {(status || action) && (
        <Link href={basePath} className={styles.filterLink}>
          Clear filters
        </Link>
      )}
    </form>
  );
}

export function WebhookLog({ input, basePath }: { input: WebhookLogInput; basePath: string }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery({
    ...trpc.webhooks.messages.list.queryOptions(input),
    refetchInterval: (query) => (query.state.data?.items.some((m) => m.status === 'pending') ? LIVE_REFRESH_MS : false),
  });
  const filtered = Boolean(input.status || input.action);
  const partnerPath = basePath.replace(/\/webhooks$/, '');

  if (data.total === 0) {
    return filtered ? (
      <EmptyState
        title="No messages match these filters"
        description="Try another status or action."
        action={<ButtonLink href={basePath}>Clear filters</ButtonLink>}
      />
    ) : (
      <EmptyState
        title="No webhook messages yet"
        description="Messages appear here as soon as something happens the partner is told about. To check the receiver now, send a test message from the partner page."
        action={<ButtonLink href={partnerPath}>Go to webhook settings</ButtonLink>}
      />
    );
  }

  const params = { status: input.status, action: input.action };
  return (
    <PagedList
      result={data}
      basePath={basePath}
      params={params}
      noun={data.total === 1 ? 'message' : 'messages'}
      empty={data.items.length === 0}
    >
      <Table label="Webhook messages">
        <thead>
          <tr>
            <th scope="col">Message</th>
            <th scope="col">Action</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Attempts
            </th>
            <th scope="col">Last result</th>
            <th scope="col">Created (UTC)</th>
          </tr>
        </thead>
        <tbody>
          {data.items.map((m) => (
            <tr key={m.id} data-message-id={m.id}>
              <td className={styles.idCell}>
                <Link href={`${basePath}/${encodeURIComponent(m.id)}`} className="strong-link">
                  <code className="mono">{m.id}</code>
                </Link>
              </td>
              <td className={styles.nowrap}>{m.action}</td>
              <td>
                <span className={styles.status}>
                  <MessageStatusBadge status={m.status} attempts={m.attempts} />
                  {m.status === 'pending' && m.attempts > 0 && (
                    <span className={styles.next}>
                      Next try <Time value={m.nextAttemptAt} compact />
                    </span>
                  )}
                </span>
              </td>
              <td className="num">{m.attempts}</td>
              <td>
                <LastResult statusCode={m.lastStatusCode} error={m.lastError} attempts={m.attempts} />
              </td>
              <td className={styles.nowrap}>
                <Time value={m.createdAt} compact />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </PagedList>
  );
}

function LastResult({
  statusCode,
  error,
  attempts,
}: {
  statusCode: number | null;
  error: string | null;
  attempts: number;
}) {
  if (attempts === 0) return <span className="muted">Not sent yet</span>;
  return (
    <span className={styles.result}>
      <span>{statusCode ? `HTTP ${statusCode}` : 'No answer'}</span>
      {error && !(statusCode && error === `HTTP ${statusCode}`) && (
        <span className={styles.resultError} title={error}>
          {error}
        </span>
      )}
    </span>
  );
}
