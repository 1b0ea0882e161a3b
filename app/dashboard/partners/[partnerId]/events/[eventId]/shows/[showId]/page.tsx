import type { Metadata } from 'next';
import { Suspense } from 'react';
import { PageHeader } from '@/components/ui/page-header';
import { TableSkeleton } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { param, type SearchParams, withParams } from '@/components/ui/url';
import { requireStaff } from '@/server/auth/session';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { ShowBadges } from '../../../../../_catalog/badges';
import styles from '../../../../../_catalog/catalog.module.css';
import { formatCount } from '../../../../../_catalog/format';
import { notFoundOn404 } from '../../../../../_catalog/not-found-on-404';
import { eventPath, showTicketsPath } from '../../../../../_catalog/paths';
import { SearchForm } from '../../../../../_catalog/search-form';
import { ShowTickets } from '../../../../../_catalog/show-tickets';

export const metadata: Metadata = { title: 'Show tickets' };

const PAGE_SIZE = 25;

export default async function ShowTicketsPage({
  params,
  searchParams,
}: {
  params: Promise<{ partnerId: string; eventId: string; showId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { partnerId, eventId, showId } = await params;
  const sp = await searchParams;
  const q = param(sp, 'q');
  // Keyset cursors are partner ticketIds (at most 200 characters); with both, `after` wins.
  const after = param(sp, 'after', 200) || undefined;
  const before = after ? undefined : param(sp, 'before', 200) || undefined;
  const basePath = showTicketsPath(partnerId, eventId, showId);
  await requireStaff(withParams(basePath, { q, after, before }));

  const queryClient = getQueryClient();
  const [partner, show] = await Promise.all([
    queryClient.fetchQuery(trpc.partners.get.queryOptions({ partnerId })).catch(notFoundOn404),
    queryClient.fetchQuery(trpc.catalog.show.queryOptions({ partnerId, eventId, showId })).catch(notFoundOn404),
  ]);
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
      <dl className={styles.summary} aria-label="Tickets of this show">
        <div>
          <dt>Tickets</dt>
          <dd>{formatCount(show.tickets.total)}</dd>
        </div>
        <div>
          <dt>Valid</dt>
          <dd>{formatCount(show.tickets.valid)}</dd>
        </div>
        <div>
          <dt>Invalidated</dt>
          <dd>{formatCount(show.tickets.invalidated)}</dd>
        </div>
        <div>
          <dt>Admitted</dt>
          <dd>{formatCount(show.tickets.admitted)}</dd>
        </div>
      </dl>
      <SearchForm
        action={basePath}
        id="ticket-search"
        label="Search tickets by ticket ID or buyer e-mail"
        placeholder="Ticket ID or buyer e-mail"
        hint="The start of a ticket ID (exact case), or a buyer's whole e-mail address (any case)."
        query={q}
      />
      <HydrateClient>
        <Suspense
          key={`${q}|${after}|${before}`}
          fallback={<TableSkeleton rows={8} columns={6} label="Loading tickets" />}
        >
          <ShowTickets input={input} basePath={basePath} />
        </Suspense>
      </HydrateClient>
    </>
  );
}
