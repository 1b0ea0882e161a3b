import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { pageParam, type SearchParams, withParams } from '@/components/ui/url';
import { requireStaff } from '@/server/auth/session';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { BatchDetail } from '../../../_catalog/batch-detail';
import { notFoundOn404 } from '../../../_catalog/not-found-on-404';
import { batchesPath, batchPath } from '../../../_catalog/paths';

export const metadata: Metadata = { title: 'Ticket batch' };

const PAGE_SIZE = 50;

export default async function BatchPage({
  params,
  searchParams,
}: {
  params: Promise<{ partnerId: string; batchId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { partnerId, batchId } = await params;
  const page = pageParam(await searchParams);
  await requireStaff(withParams(batchPath(partnerId, batchId), { page: page > 1 ? page : undefined }));

  const queryClient = getQueryClient();
  const input = { partnerId, batchId, page, pageSize: PAGE_SIZE };
  // Awaited: an unknown batch (or another partner's) is a 404 page, not an error inside this one.
  const [partner] = await Promise.all([
    queryClient.fetchQuery(trpc.partners.get.queryOptions({ partnerId })).catch(notFoundOn404),
    queryClient.fetchQuery(trpc.catalog.batch.queryOptions(input)).catch(notFoundOn404),
  ]);

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
