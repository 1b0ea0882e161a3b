import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ButtonLink } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { TableSkeleton } from '@/components/ui/table';
import { pageParam, type SearchParams, withParams } from '@/components/ui/url';
import { requireStaff } from '@/server/auth/session';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { BatchList } from '../../_catalog/batch-list';
import { notFoundOn404 } from '../../_catalog/not-found-on-404';
import { batchesPath, eventsPath, partnerPath } from '../../_catalog/paths';

export const metadata: Metadata = { title: 'Ticket batches' };

const PAGE_SIZE = 20;

export default async function BatchesPage({
  params,
  searchParams,
}: {
  params: Promise<{ partnerId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { partnerId } = await params;
  const page = pageParam(await searchParams);
  const basePath = batchesPath(partnerId);
  await requireStaff(withParams(basePath, { page: page > 1 ? page : undefined }));

  const queryClient = getQueryClient();
  const partner = await queryClient.fetchQuery(trpc.partners.get.queryOptions({ partnerId })).catch(notFoundOn404);
  const input = { partnerId, page, pageSize: PAGE_SIZE };
  void queryClient.prefetchQuery(trpc.catalog.batches.queryOptions(input));

  return (
    <>
      <PageHeader
        title="Ticket batches"
        description={
          <>
            Every <code className="mono">POST /v1/tickets</code> request of <strong>{partner.name}</strong>, newest
            first, with its import progress.
          </>
        }
        back={{ href: partnerPath(partnerId), label: partner.name }}
        actions={<ButtonLink href={eventsPath(partnerId)}>Events</ButtonLink>}
      />
      <HydrateClient>
        <Suspense key={page} fallback={<TableSkeleton rows={5} columns={5} label="Loading ticket batches" />}>
          <BatchList input={input} />
        </Suspense>
      </HydrateClient>
    </>
  );
}
