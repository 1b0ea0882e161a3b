'use client';

import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import Link from '@/components/ui/link';
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { EmptyStateWithLink } from '@/components/ui/empty-state';
import { SelectField } from '@/components/ui/field';
import { PagedList, type PageInput } from '@/components/ui/pagination';
import { IdLink } from '@/components/ui/id-link';
import { Table } from '@/components/ui/table';
import { Time, TimeCell } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import { withParams } from '@/components/ui/url';
import filters from '../../_shared/filters.module.css';
import { partnerPath, webhookLogPath, webhookMessagePath } from '../../_shared/paths';
import { actionsQueryInput } from './queries';
import { MessageStatusBadge } from './webhook-message';
import styles from './webhooks.module.css';

export interface WebhookLogInput extends PageInput {
  partnerId: string;
  status?: 'pending' | 'delivered';
  action?: string;
}

/** While anything shown is still pending, the log refreshes itself so staff see deliveries land. */
const LIVE_REFRESH_MS = 3_000;

/**
 * Status and action filters. They live in the URL (shareable, back button works); the form is a plain
 * GET form without JavaScript, and a clean client navigation with it.
 */
export function WebhookLogFilters({
  partnerId,
  status,
  action,
}: {
  partnerId: string;
  status?: string;
  action?: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [navigating, startNavigation] = useTransition();
  const basePath = webhookLogPath(partnerId);
  // The partner's actions come with any page of the log; this one stays the same while filters change.
  const { data } = useQuery(trpc.webhooks.messages.list.queryOptions(actionsQueryInput(partnerId)));
  const actions = Array.from(new Set([...(data?.actions ?? []), ...(action ? [action] : [])])).sort();

  return (
    <form
      action={basePath}
      method="get"
      className={filters.filters}
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
      <Filter name="status" label="Status" value={status} all="All statuses" options={STATUSES} />
      <Filter name="action" label="Action" value={action} all="All actions" options={actions.map((a) => [a, a])} />
      <Button type="submit" pending={navigating} pendingLabel="Filtering…">
        Apply filters
      </Button>
      {(status || action) && (
        <Link href={basePath} className={filters.filterLink}>
          Clear filters
        </Link>
      )}
    </form>
  );
}

const STATUSES: [string, string][] = [
  ['pending', 'Pending'],
  ['delivered', 'Delivered'],
];

/** One filter: all, or one of `options` ([value, label]); a new value from the URL resets it. */
function Filter({
  name,
  label,
  value,
  all,
  options,
}: {
  name: string;
  label: string;
  value?: string;
  all: string;
  options: [string, string][];
}) {
  return (
    <SelectField label={label} name={name} className={filters.filter} defaultValue={value ?? ''} key={value}>
      <option value="">{all}</option>
      {options.map(([v, text]) => (
        <option key={v} value={v}>
          {text}
        </option>
      ))}
    </SelectField>
  );
}

export function WebhookLog({ input }: { input: WebhookLogInput }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery({
    ...trpc.webhooks.messages.list.queryOptions(input),
    refetchInterval: (query) => (query.state.data?.items.some((m) => m.status === 'pending') ? LIVE_REFRESH_MS : false),
  });
  const basePath = webhookLogPath(input.partnerId);

  return (
    <PagedList
      result={data}
      basePath={basePath}
      params={{ status: input.status, action: input.action }}
      nouns={['message', 'messages']}
      none={
        input.status || input.action ? (
          <EmptyStateWithLink
            title="No messages match these filters"
            description="Try another status or action."
            link={{ href: basePath, label: 'Clear filters' }}
          />
        ) : (
          <EmptyStateWithLink
            title="No webhook messages yet"
            description="Messages appear here as soon as something happens the partner is told about. To check the receiver now, send a test message from the partner page."
            link={{ href: partnerPath(input.partnerId), label: 'Go to webhook settings' }}
          />
        )
      }
    >
      <Table
        label="Webhook messages"
        columns={['Message', 'Action', 'Status', { label: 'Attempts', num: true }, 'Last result', 'Created (UTC)']}
      >
        {data.items.map((m) => (
          <tr key={m.id} data-message-id={m.id}>
            <td className={styles.idCell}>
              <IdLink href={webhookMessagePath(input.partnerId, m.id)} id={m.id} />
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
            <TimeCell value={m.createdAt} />
          </tr>
        ))}
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
