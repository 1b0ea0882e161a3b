import type { Metadata } from 'next';
import { SearchForm } from '@/components/ui/search-form';
import { param } from '@/components/ui/search-params';
import { trpc } from '@/server/trpc/server';
import { TicketSearchResults } from '../../_features/tickets/ticket-search-results';
import { loadPartnerPage, PartnerPageHeader, type PartnerPageProps } from '../../_shared/partner-page';
import { ticketsPath } from '../../_shared/paths';

export const metadata: Metadata = { title: 'Find a ticket' };

/** Support's search: a ticket by id or buyer e-mail across all of the partner's events. */
export default async function TicketsSearchPage({ params, searchParams }: PartnerPageProps) {
  const { partnerId } = await params;
  const q = param(await searchParams, 'q');
  const { queryClient, partner } = await loadPartnerPage(partnerId, ticketsPath(partnerId), { q });
  const result = q
    ? await queryClient.fetchQuery(trpc.catalog.searchTickets.queryOptions({ partnerId, query: q }))
    : null;

  return (
    <>
      <PartnerPageHeader
        partner={partner}
        title="Find a ticket"
        description={<>Tickets of {partner.name} in any of its events.</>}
      />
      <SearchForm
        action={ticketsPath(partnerId)}
        id="ticket-search"
        label="Search tickets"
        placeholder="Ticket id, tkt_… or buyer e-mail"
        query={q}
        hint="A ticket id (or its beginning), Encore's tkt_… id, or a buyer's whole e-mail address."
      />
      {result && <TicketSearchResults partnerId={partnerId} result={result} />}
    </>
  );
}
