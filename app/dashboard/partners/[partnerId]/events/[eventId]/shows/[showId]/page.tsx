import type { Metadata } from 'next';
import { Detail, DetailList } from '@/components/ui/details';
import { PageHeader } from '@/components/ui/page-header';
import { SearchForm } from '@/components/ui/search-form';
import { param } from '@/components/ui/search-params';
import { TableSuspense } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { ShowBadges } from '../../../../../_features/catalog/badges';
import { ShowTickets } from '../../../../../_features/catalog/show-tickets';
import styles from '../../../../../_shared/browser.module.css';
import { formatCount } from '../../../../../_shared/format';
import { loadPartnerPage, type PartnerPageProps } from '../../../../../_shared/partner-page';
import { eventPath, showTicketsPath } from '../../../../../_shared/paths';

export const metadata: Metadata = { title: 'Show tickets' };

const PAGE_SIZE = 25;

export default async function ShowTicketsPage({
  params,
  searchParams,
}: PartnerPageProps<{ eventId: string; showId: string }>) {
  const { partnerId, eventId, showId } = await params;
  const sp = await searchParams;
  const q = param(sp, 'q');
  // Keyset cursors are partner ticketIds (at most 200 characters); with both, `after` wins.
  const after = param(sp, 'after', 200) || undefined;
  const before = after ? undefined : param(sp, 'before', 200) || undefined;
  const basePath = showTicketsPath(partnerId, eventId, showId);
  const {
    queryClient,
    partner,
    data: show,
  } = await loadPartnerPage(partnerId, basePath, { q, after, before }, (queryClient) =>
    queryClient.fetchQuery(trpc.catalog.show.queryOptions({ partnerId, eventId, showId })),
  );
  const input = { partnerId, eventId, showId, search: q || undefined, after, before, pageSize: PAGE_SIZE };
  void queryClient.prefetchQuery(trpc.catalog.showTickets.queryOptions(input));

  return (
    <>
      <PageHeader
        title={`Tickets · ${show.title}`}
        description={
          <>
            Show <code className="mono">{show.showId}</code> on <Time value={show.startsAt} /> · {show.event.title} ·{' '}
            {partner.name}
          </>
        }
        back={{ href: eventPath(partnerId, eventId), label: show.event.title }}
      />
      <div className={styles.badges}>
        <ShowBadges status={show.status} showRescheduled={show.showRescheduled} resaleEnabled={show.resaleEnabled} />
      </div>
      <DetailList variant="stats" aria-label="Tickets of this show">
        <Detail term="Tickets">{formatCount(show.tickets.total)}</Detail>
        <Detail term="Valid">{formatCount(show.tickets.valid)}</Detail>
        <Detail term="Invalidated">{formatCount(show.tickets.invalidated)}</Detail>
        <Detail term="Admitted">{formatCount(show.tickets.admitted)}</Detail>
      </DetailList>
      <SearchForm
        action={basePath}
        id="ticket-search"
        label="Search tickets by ticket ID or buyer e-mail"
        placeholder="Ticket ID or buyer e-mail"
        hint="The start of a ticket ID (exact case), or a buyer's whole e-mail address (any case)."
        query={q}
      />
      <HydrateClient>
        <TableSuspense key={`${q}|${after}|${before}`} label="Loading tickets" rows={8} columns={6}>
          <ShowTickets input={input} basePath={basePath} />
        </TableSuspense>
      </HydrateClient>
    </>
  );
}
