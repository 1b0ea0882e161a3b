'use client';

import { useSuspenseQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { EmptyState } from '@/components/ui/empty-state';
import { PagedList } from '@/components/ui/pagination';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import { BatchStatusBadge } from './badges';
import { BatchProgress } from './batch-progress';
import styles from './catalog.module.css';
import { batchesPath, batchPath } from './paths';

export interface BatchListInput {
  partnerId: string;
  page: number;
  pageSize: number;
}

/** While a batch shown is still importing, the list refreshes itself so staff see it progress. */
export const LIVE_REFRESH_MS = 2_000;

export function BatchList({ input }: { input: BatchListInput }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery({
    ...trpc.catalog.batches.queryOptions(input),
    refetchInterval: (query) =>
      query.state.data?.items.some((b) => b.status !== 'completed') ? LIVE_REFRESH_MS : false,
  });
  const basePath = batchesPath(input.partnerId);

  if (data.total === 0) {
    return (
      <EmptyState
        title="No ticket batches yet"
        description={
          <>
            Partners send them with <code className="mono">POST /v1/tickets</code>; each request is one batch, imported
            in the background.
          </>
        }
      />
    );
  }

  return (
    <PagedList
      result={data}
      basePath={basePath}
      noun={data.total === 1 ? 'batch' : 'batches'}
      empty={data.items.length === 0}
    >
      <Table label="Ticket batches">
        <thead>
          <tr>
            <th scope="col">Batch</th>
            <th scope="col">Status</th>
            <th scope="col">Progress</th>
            <th scope="col">Received (UTC)</th>
            <th scope="col">Completed (UTC)</th>
          </tr>
        </thead>
        <tbody>
          {data.items.map((b) => (
            <tr key={b.id} data-batch-id={b.id}>
              <td className={styles.nowrap}>
                <Link href={batchPath(input.partnerId, b.id)} className="strong-link">
                  <code className="mono">{b.id}</code>
                </Link>
              </td>
              <td>
                <BatchStatusBadge status={b.status} failed={b.failed} total={b.total} />
              </td>
              <td>
                <BatchProgress batch={b} />
              </td>
              <td className={styles.nowrap}>
                <Time value={b.createdAt} compact />
              </td>
              <td className={styles.nowrap}>
                <Time value={b.completedAt} compact fallback="Not yet" />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </PagedList>
  );
}
