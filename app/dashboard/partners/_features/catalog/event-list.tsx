'use client';

import { useSuspenseQuery } from '@tanstack/react-query';
import Link from '@/components/ui/link';
import { Badge } from '@/components/ui/badge';
import { EmptyState, NoMatch } from '@/components/ui/empty-state';
import { PagedList, type PageInput } from '@/components/ui/pagination';
import { Table } from '@/components/ui/table';
import { Time, TimeCell } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import styles from '../../_shared/browser.module.css';
import { formatCount } from '../../_shared/format';
import { eventPath, eventsPath } from '../../_shared/paths';

export interface EventListInput extends PageInput {
  partnerId: string;
  search?: string;
}

const COLUMNS = [
  'Event',
  { label: 'Shows', num: true },
  { label: 'Tickets', num: true },
  'Show dates (UTC)',
  'Received (UTC)',
];

export function EventList({ input }: { input: EventListInput }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.catalog.events.queryOptions(input));
  const basePath = eventsPath(input.partnerId);

  return (
    <PagedList
      result={data}
      basePath={basePath}
      params={{ q: input.search }}
      nouns={['event', 'events']}
      none={
        input.search ? (
          <NoMatch
            noun="events"
            query={input.search}
            description="Search for part of the event title or of the partner's externalReferenceId."
            clearHref={basePath}
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
        )
      }
    >
      <Table label="Events" columns={COLUMNS}>
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
            <TimeCell value={e.createdAt} />
          </tr>
        ))}
      </Table>
    </PagedList>
  );
}
