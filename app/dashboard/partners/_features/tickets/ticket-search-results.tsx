import Link from '@/components/ui/link';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { IdLink } from '@/components/ui/id-link';
import { Table } from '@/components/ui/table';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/trpc/router';
import { eventPath, ticketPath } from '../../_shared/paths';
import { TicketStatus } from '../catalog/badges';

type SearchResult = inferRouterOutputs<AppRouter>['catalog']['searchTickets'];

/** What support's ticket search found: each ticket with its event, show, buyer and status. */
export function TicketSearchResults({ partnerId, result }: { partnerId: string; result: SearchResult }) {
  return (
    <Card>
      {result.items.length === 0 ? (
        <EmptyState title="No ticket found" description="Check the id or the whole e-mail address." />
      ) : (
        <Table label="Tickets found" columns={['Ticket', 'Event', 'Show', 'Buyer', 'Status']}>
          {result.items.map((t) => (
            <tr key={t.id} data-ticket-id={t.ticketId}>
              <td>
                <IdLink href={ticketPath(partnerId, t.id)} id={t.ticketId} />
              </td>
              <td>
                <Link href={eventPath(partnerId, t.eventId)}>{t.eventTitle}</Link>{' '}
                <code className="mono">{t.externalReferenceEventId}</code>
              </td>
              <td>
                <code className="mono">{t.showId}</code>
              </td>
              <td>{t.buyerEmail ?? '—'}</td>
              <td>
                <TicketStatus status={t.status} admittedAt={t.admittedAt} />
              </td>
            </tr>
          ))}
        </Table>
      )}
      {result.more && <p className="muted">Showing the first {result.items.length}; narrow the search.</p>}
    </Card>
  );
}
