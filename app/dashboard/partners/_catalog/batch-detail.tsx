'use client';

import { useSuspenseQuery } from '@tanstack/react-query';
import { ButtonLink } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import { BatchStatusBadge } from './badges';
import { LIVE_REFRESH_MS } from './batch-list';
import { BatchProgress } from './batch-progress';
import styles from './catalog.module.css';
import { formatCount } from './format';
import { batchPath } from './paths';

export interface BatchDetailInput {
  partnerId: string;
  batchId: string;
  page: number;
  pageSize: number;
}

export function BatchDetail({ input }: { input: BatchDetailInput }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery({
    ...trpc.catalog.batch.queryOptions(input),
    // Until the import finishes, progress and failures keep arriving.
    refetchInterval: (query) => (query.state.data?.batch.status === 'completed' ? false : LIVE_REFRESH_MS),
  });
  const { batch } = data;
  const basePath = batchPath(input.partnerId, input.batchId);
  const done = batch.status === 'completed';

  return (
    <div className={styles.stack}>
      <Card aria-labelledby="batch-progress-heading">
        <CardHeader
          title="Progress"
          headingId="batch-progress-heading"
          actions={<BatchStatusBadge status={batch.status} failed={batch.failed} total={batch.total} />}
        />
        <CardBody>
          <dl className={styles.summary}>
            <div>
              <dt>Total</dt>
              <dd>{formatCount(batch.total)}</dd>
            </div>
            <div>
              <dt>Imported</dt>
              <dd>{formatCount(batch.imported)}</dd>
            </div>
            <div>
              <dt>Failed</dt>
              <dd>{formatCount(batch.failed)}</dd>
            </div>
            <div>
              <dt>Pending</dt>
              <dd>{formatCount(batch.pending)}</dd>
            </div>
          </dl>
          {/* Announced as it changes, so a screen reader hears the import advance. */}
          <div aria-live="polite">
            <BatchProgress batch={batch} />
          </div>
          <dl className="details">
            <div>
              <dt>Received</dt>
              <dd>
                <Time value={batch.createdAt} seconds />
              </dd>
            </div>
            <div>
              <dt>Completed</dt>
              <dd>
                <Time value={batch.completedAt} seconds fallback="Not yet" />
              </dd>
            </div>
          </dl>
        </CardBody>
      </Card>

      <h2 className={styles.sectionTitle}>
        Failed tickets <span className={styles.muted}>({formatCount(batch.failed)})</span>
      </h2>
      {batch.failed === 0 ? (
        <EmptyState
          title={done ? 'No failed tickets' : 'No failures so far'}
          description={
            done ? 'Every ticket of this batch was imported.' : 'Failures appear here as the import reaches them.'
          }
        />
      ) : data.failedItems.length === 0 ? (
        <EmptyState
          title="Nothing on this page"
          action={<ButtonLink href={basePath}>Go to the first page</ButtonLink>}
        />
      ) : (
        <Table label="Failed tickets">
          <thead>
            <tr>
              <th scope="col" className="num" title="Position in the request's array, from 0">
                Index
              </th>
              <th scope="col">Ticket ID</th>
              <th scope="col">Errors</th>
            </tr>
          </thead>
          <tbody>
            {data.failedItems.map((f) => (
              <tr key={f.position} data-ticket-id={f.ticketId}>
                <td className="num">{f.position}</td>
                <td>
                  <code className={`mono ${styles.wrap}`}>{f.ticketId}</code>
                </td>
                <td>
                  <ul className={styles.errors}>
                    {f.errors.map((e, i) => (
                      <li key={i}>
                        {e.path && <code className="mono">{e.path}</code>} {e.message}
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {batch.failed > 0 && (
        <Pagination
          page={data.page}
          pageCount={data.pageCount}
          pageSize={data.pageSize}
          total={batch.failed}
          basePath={basePath}
          noun={batch.failed === 1 ? 'failed ticket' : 'failed tickets'}
        />
      )}
    </div>
  );
}
