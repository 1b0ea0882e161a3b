import type { Metadata } from 'next';
import { pageInUrl, pageParam } from '@/components/ui/search-params';
import { TableSuspense } from '@/components/ui/table';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { BatchList } from '../../_features/batches/batch-list';
import { loadPartnerPage, PartnerPageHeader, type PartnerPageProps } from '../../_shared/partner-page';
import { batchesPath } from '../../_shared/paths';

export const metadata: Metadata = { title: 'Ticket batches' };

const PAGE_SIZE = 20;

export default async function BatchesPage({ params, searchParams }: PartnerPageProps) {
  const { partnerId } = await params;
  const page = pageParam(await searchParams);
  const { queryClient, partner } = await loadPartnerPage(partnerId, batchesPath(partnerId), { page: pageInUrl(page) });
  const input = { partnerId, page, pageSize: PAGE_SIZE };
  void queryClient.prefetchQuery(trpc.catalog.batches.queryOptions(input));

  return (
    <>
      <PartnerPageHeader
        partner={partner}
        title="Ticket batches"
        description={
          <>
            Every <code className="mono">POST /v1/tickets</code> request of <strong>{partner.name}</strong>, newest
            first, with its import progress.
          </>
        }
        links={['events']}
      />
      <HydrateClient>
        <TableSuspense key={page} label="Loading ticket batches" rows={5} columns={5}>
          <BatchList input={input} />
        </TableSuspense>
      </HydrateClient>
    </>
  );
}
