'use client';

import { useSuspenseQuery } from '@tanstack/react-query';
import { CardBody, SectionCard } from '@/components/ui/card';
import { Detail, DetailList } from '@/components/ui/details';
import { EmptyState } from '@/components/ui/empty-state';
import { PagedList, type PageInput } from '@/components/ui/pagination';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import styles from '../../_shared/browser.module.css';
import { formatCount } from '../../_shared/format';
import { batchPath } from '../../_shared/paths';
import { LIVE_REFRESH_MS } from './batch-list';
import { BatchProgress } from './batch-progress';
import { BatchStatusBadge } from './batch-status-badge';
import batchStyles from './batches.module.css';

export interface BatchDetailInput extends PageInput {
  partnerId: string;
  batchId: string;
}

const FAILED_COLUMNS = [
  { label: 'Index', num: true, title: "Position in the request's array, from 0" },
  'Ticket ID',
  'Errors',
];

export function BatchDetail({ input }: { input: BatchDetailInput }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery({
    ...trpc.catalog.batch.queryOptions(input),
    // Until the import finishes, progress and failures keep arriving.
    refetchInterval: (query) => (query.state.data?.batch.status === 'completed' ? false : LIVE_REFRESH_MS),
  });
  const { batch } = data;
  const done = batch.status === 'completed';

  return (
    <div className={styles.stack}>
      <SectionCard
        title="Progress"
        headingId="batch-progress-heading"
        actions={<BatchStatusBadge status={batch.status} failed={batch.failed} total={batch.total} />}
      >
        <CardBody>
          <DetailList variant="stats">
            <Detail term="Total">{formatCount(batch.total)}</Detail>
            <Detail term="Imported">{formatCount(batch.imported)}</Detail>
            <Detail term="Failed">{formatCount(batch.failed)}</Detail>
            <Detail term="Pending">{formatCount(batch.pending)}</Detail>
          </DetailList>
          {/* Announced as it changes, so a screen reader hears the import advance. */}
          <div aria-live="polite">
            <BatchProgress batch={batch} />
          </div>
          <DetailList>
            <Detail term="Received">
              <Time value={batch.createdAt} seconds />
            </Detail>
            <Detail term="Completed">
              <Time value={batch.completedAt} seconds fallback="Not yet" />
            </Detail>
          </DetailList>
        </CardBody>
      </SectionCard>

      <h2 className={styles.sectionTitle}>
        Failed tickets <span className={styles.muted}>({formatCount(batch.failed)})</span>
      </h2>
      <PagedList
        result={{ ...data, total: batch.failed, items: data.failedItems }}
        basePath={batchPath(input.partnerId, input.batchId)}
        nouns={['failed ticket', 'failed tickets']}
        none={
          <EmptyState
            title={done ? 'No failed tickets' : 'No failures so far'}
            description={
              done ? 'Every ticket of this batch was imported.' : 'Failures appear here as the import reaches them.'
            }
          />
        }
      >
        <Table label="Failed tickets" columns={FAILED_COLUMNS}>
          {data.failedItems.map((f) => (
            <tr key={f.position} data-ticket-id={f.ticketId}>
              <td className="num">{f.position}</td>
              <td>
                <code className={`mono ${styles.wrap}`}>{f.ticketId}</code>
              </td>
              <td>
                <ul className={batchStyles.errors}>
                  {f.errors.map((e, i) => (
                    <li key={i}>
                      {e.path && <code className="mono">{e.path}</code>} {e.message}
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </Table>
      </PagedList>
    </div>
  );
}
