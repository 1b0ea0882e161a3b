import type { Metadata } from 'next';
import Link from 'next/link';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { Table } from '@/components/ui/table';
import { param, type SearchParams, withParams } from '@/components/ui/url';
import { requireStaff } from '@/server/auth/session';
import { getQueryClient, trpc } from '@/server/trpc/server';
import { TicketStatus } from '../../_catalog/badges';
import { notFoundOn404 } from '../../_catalog/not-found-on-404';
import { eventPath, partnerPath, ticketPath, ticketsPath } from '../../_catalog/paths';
import { SearchForm } from '../../_catalog/search-form';

export const metadata: Metadata = { title: 'Find a ticket' };

/** Support's search: a ticket by id or buyer e-mail across all of the partner's events. */
export default async function TicketsSearchPage({
  params,
  searchParams,
}: {
  params: Promise<{ partnerId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { partnerId } = await params;
  const q = param(await searchParams, 'q');
  await requireStaff(withParams(ticketsPath(partnerId), { q }));
  const queryClient = getQueryClient();
  const partner = await queryClient.fetchQuery(trpc.partners.get.queryOptions({ partnerId })).catch(notFoundOn404);
  const result = q
    ? await queryClient.fetchQuery(trpc.catalog.searchTickets.queryOptions({ partnerId, query: q }))
    : null;

  return (
    <>
      <PageHeader
        title="Find a ticket"
        description={<>Tickets of {partner.name} in any of its events.</>}
        back={{ href: partnerPath(partnerId), label: partner.name }}
      />
      <SearchForm
        action={ticketsPath(partnerId)}
        id="ticket-search"
        label="Search tickets"
        placeholder="Ticket id, tkt_… or buyer e-mail"
        query={q}
        hint="A ticket id (or its beginning), Encore's tkt_… id, or a buyer's whole e-mail address."
      />
      {result && (
        <Card>
          {result.items.length === 0 ? (
            <EmptyState title="No ticket found" description="Check the id or the whole e-mail address." />
          ) : (
            <Table label="Tickets found">
              <thead>
                <tr>
                  <th scope="col">Ticket</th>
                  <th scope="col">Event</th>
                  <th scope="col">Show</th>
                  <th scope="col">Buyer</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {result.items.map((t) => (
                  <tr key={t.id} data-ticket-id={t.ticketId}>
                    <td>
                      <Link href={ticketPath(partnerId, t.id)} className="strong-link">
                        <code className="mono">{t.ticketId}</code>
                      </Link>
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
              </tbody>
            </Table>
          )}
          {result.more && <p className="muted">Showing the first {result.items.length}; narrow the search.</p>}
        </Card>
      )}
    </>
  );
}
