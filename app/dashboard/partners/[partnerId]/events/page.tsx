import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ButtonLink } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { TableSkeleton } from '@/components/ui/table';
import { pageParam, param, type SearchParams, withParams } from '@/components/ui/url';
import { requireStaff } from '@/server/auth/session';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { EventList } from '../../_catalog/event-list';
import { notFoundOn404 } from '../../_catalog/not-found-on-404';
import { batchesPath, eventsPath, partnerPath } from '../../_catalog/paths';
import { SearchForm } from '../../_catalog/search-form';

export const metadata: Metadata = { title: 'Events' };

const PAGE_SIZE = 20;

export default async function EventsPage({
  params,
  searchParams,
}: {
  params: Promise<{ partnerId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { partnerId } = await params;
  const sp = await searchParams;
  const q = param(sp, 'q');
  const page = pageParam(sp);
  const basePath = eventsPath(partnerId);
  await requireStaff(withParams(basePath, { q, page: page > 1 ? page : undefined }));

  const queryClient = getQueryClient();
  const partner = await queryClient.fetchQuery(trpc.partners.get.queryOptions({ partnerId })).catch(notFoundOn404);
  const input = { partnerId, search: q || undefined, page, pageSize: PAGE_SIZE };
  // Started here, streamed to <EventList> which suspends on it until the rows arrive.
  void queryClient.prefetchQuery(trpc.catalog.events.queryOptions(input));

  return (
    <>
      <PageHeader
        title="Events"
        description={
          <>
            Events <strong>{partner.name}</strong> pushed, newest first, with their shows and tickets.
          </>
        }
        back={{ href: partnerPath(partnerId), label: partner.name }}
        actions={<ButtonLink href={batchesPath(partnerId)}>Ticket batches</ButtonLink>}
      />
      <SearchForm
        action={basePath}
        id="event-search"
        label="Search events by title or external reference ID"
        placeholder="Title or external reference ID"
        query={q}
      />
      <HydrateClient>
        {/* A new key per search/page shows the skeleton again instead of the previous rows. */}
        <Suspense key={`${q}|${page}`} fallback={<TableSkeleton rows={5} columns={5} label="Loading events" />}>
          <EventList input={input} />
        </Suspense>
      </HydrateClient>
    </>
  );
}
