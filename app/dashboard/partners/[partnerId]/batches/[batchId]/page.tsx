import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { pageInUrl, pageParam } from '@/components/ui/search-params';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { BatchDetail } from '../../../_features/batches/batch-detail';
import { loadPartnerPage, type PartnerPageProps } from '../../../_shared/partner-page';
import { batchesPath, batchPath } from '../../../_shared/paths';

export const metadata: Metadata = { title: 'Ticket batch' };

const PAGE_SIZE = 50;

export default async function BatchPage({ params, searchParams }: PartnerPageProps<{ batchId: string }>) {
  const { partnerId, batchId } = await params;
  const page = pageParam(await searchParams);
  const input = { partnerId, batchId, page, pageSize: PAGE_SIZE };
  // Awaited: an unknown batch (or another partner's) is a 404 page, not an error inside this one.
  const { partner } = await loadPartnerPage(
    partnerId,
    batchPath(partnerId, batchId),
    { page: pageInUrl(page) },
    (queryClient) => queryClient.fetchQuery(trpc.catalog.batch.queryOptions(input)),
  );

  return (
    <>
      <PageHeader
        title={
          <>
            Ticket batch <code className="mono">{batchId}</code>
          </>
        }
        description={
          <>
            A <code className="mono">POST /v1/tickets</code> request of {partner.name}. Tickets that failed are listed
            with every reason; the partner fixes them and sends them again.
          </>
        }
        back={{ href: batchesPath(partnerId), label: 'Ticket batches' }}
      />
      <HydrateClient>
        <BatchDetail input={input} />
      </HydrateClient>
    </>
  );
}
