'use client';

import { useSuspenseQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { ButtonLink } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { PagedList } from '@/components/ui/pagination';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import styles from './catalog.module.css';
import { formatCount } from './format';
import { eventPath, eventsPath } from './paths';

export interface EventListInput {
  partnerId: string;
  search?: string;
  page: number;
  pageSize: number;
}

export function EventList({ input }: { input: EventListInput }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.catalog.events.queryOptions(input));
  const basePath = eventsPath(input.partnerId);

  if (data.total === 0) {
    return input.search ? (
      <EmptyState
        title={`No events match “${input.search}”`}
        description="Search for part of the event title or of the partner's externalReferenceId."
        action={<ButtonLink href={basePath}>Clear search</ButtonLink>}
      />
    ) : (
      <EmptyState
        title="No events yet"
        description={
          <>
            Partners push them with <code className="mono">POST /v1/events</code>; they appear here as soon as they
            arrive.
          </>
        }
      />
    );
  }

  return (
    <PagedList
      result={data}
      basePath={basePath}
      params={{ q: input.search }}
      noun={data.total === 1 ? 'event' : 'events'}
      empty={data.items.length === 0}
    >
      <Table label="Events">
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col" className="num">
              Shows
            </th>
            <th scope="col" className="num">
              Tickets
            </th>
            <th scope="col">Show dates (UTC)</th>
            <th scope="col">Received (UTC)</th>
          </tr>
        </thead>
        <tbody>
          {data.items.map((e) => (
            <tr key={e.id} data-event-id={e.id}>
              <td>
                <span className={styles.titleCell}>
                  <span className={styles.badges}>
                    <Link href={eventPath(input.partnerId, e.id)} className="strong-link">
                      {e.title}
                    </Link>
                    {e.cancelledAt && <Badge tone="danger">Cancelled</Badge>}
                  </span>
                  <code className={`mono ${styles.sub}`}>{e.externalReferenceId}</code>
                </span>
              </td>
              <td className="num">{formatCount(e.showCount)}</td>
              <td className="num">{formatCount(e.ticketCount)}</td>
              <td className={styles.nowrap}>
                {e.firstShowAt ? (
                  <>
                    <Time value={e.firstShowAt} compact />
                    {e.lastShowAt && e.lastShowAt.getTime() !== e.firstShowAt.getTime() && (
                      <>
                        <br />
                        <span className={styles.muted}>to</span> <Time value={e.lastShowAt} compact />
                      </>
                    )}
                  </>
                ) : (
                  <span className={styles.muted}>No shows</span>
                )}
              </td>
              <td className={styles.nowrap}>
                <Time value={e.createdAt} compact />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </PagedList>
  );
}
