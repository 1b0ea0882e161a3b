'use client';

import { useSuspenseQuery } from '@tanstack/react-query';
import { EmptyState } from '@/components/ui/empty-state';
import { PagedList, type PageInput } from '@/components/ui/pagination';
import { IdLink } from '@/components/ui/id-link';
import { Table } from '@/components/ui/table';
import { TimeCell } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import styles from '../../_shared/browser.module.css';
import { batchesPath, batchPath } from '../../_shared/paths';
import { BatchProgress } from './batch-progress';
import { BatchStatusBadge } from './batch-status-badge';

export interface BatchListInput extends PageInput {
  partnerId: string;
}

/** While a batch shown is still importing, the list refreshes itself so staff see it progress. */
export const LIVE_REFRESH_MS = 2_000;

const COLUMNS = ['Batch', 'Status', 'Progress', 'Received (UTC)', 'Completed (UTC)'];

export function BatchList({ input }: { input: BatchListInput }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery({
    ...trpc.catalog.batches.queryOptions(input),
    refetchInterval: (query) =>
      query.state.data?.items.some((b) => b.status !== 'completed') ? LIVE_REFRESH_MS : false,
  });

  return (
    <PagedList
      result={data}
      basePath={batchesPath(input.partnerId)}
      nouns={['batch', 'batches']}
      none={
        <EmptyState
          title="No ticket batches yet"
          description={
            <>
              Partners send them with <code className="mono">POST /v1/tickets</code>; each request is one batch,
              imported in the background.
            </>
          }
        />
      }
    >
      <Table label="Ticket batches" columns={COLUMNS}>
        {data.items.map((b) => (
          <tr key={b.id} data-batch-id={b.id}>
            <td className={styles.nowrap}>
              <IdLink href={batchPath(input.partnerId, b.id)} id={b.id} />
            </td>
            <td>
              <BatchStatusBadge status={b.status} failed={b.failed} total={b.total} />
            </td>
            <td>
              <BatchProgress batch={b} />
            </td>
            <TimeCell value={b.createdAt} />
            <TimeCell value={b.completedAt} fallback="Not yet" />
          </tr>
        ))}
      </Table>
    </PagedList>
  );
}
