import type { Metadata } from 'next';
import { SearchForm } from '@/components/ui/search-form';
import { listParams, pageInUrl } from '@/components/ui/search-params';
import { TableSuspense } from '@/components/ui/table';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { EventList } from '../../_features/catalog/event-list';
import { loadPartnerPage, PartnerPageHeader, type PartnerPageProps } from '../../_shared/partner-page';
import { eventsPath } from '../../_shared/paths';

export const metadata: Metadata = { title: 'Events' };

const PAGE_SIZE = 20;

export default async function EventsPage({ params, searchParams }: PartnerPageProps) {
  const { partnerId } = await params;
  const { q, page } = listParams(await searchParams);
  const basePath = eventsPath(partnerId);
  const { queryClient, partner } = await loadPartnerPage(partnerId, basePath, { q, page: pageInUrl(page) });
  const input = { partnerId, search: q || undefined, page, pageSize: PAGE_SIZE };
  // Started here, streamed to <EventList> which suspends on it until the rows arrive.
  void queryClient.prefetchQuery(trpc.catalog.events.queryOptions(input));

  return (
    <>
      <PartnerPageHeader
        partner={partner}
        title="Events"
        description={
          <>
            Events <strong>{partner.name}</strong> pushed, newest first, with their shows and tickets.
          </>
        }
        links={['batches']}
      />
      <SearchForm
        action={basePath}
        id="event-search"
        label="Search events by title or external reference ID"
        placeholder="Title or external reference ID"
        query={q}
      />
      <HydrateClient>
        <TableSuspense key={`${q}|${page}`} label="Loading events" rows={5} columns={5}>
          <EventList input={input} />
        </TableSuspense>
      </HydrateClient>
    </>
  );
}
