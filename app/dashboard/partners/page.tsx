import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ButtonLink } from '@/components/ui/button';
import { TableSkeleton } from '@/components/ui/table';
import { PageHeader } from '@/components/ui/page-header';
import { pageParam, param, type SearchParams, withParams } from '@/components/ui/url';
import { requireStaff } from '@/server/auth/session';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { PartnerList } from './_components/partner-list';
import { PartnerSearch } from './_components/partner-search';

export const metadata: Metadata = { title: 'Partners' };

const PAGE_SIZE = 20;
const MAX_SEARCH = 120; // the schema's limit; longer input is cut rather than refused

export default async function PartnersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const q = param(sp, 'q', MAX_SEARCH);
  const page = pageParam(sp);
  await requireStaff(withParams('/dashboard/partners', { q, page: page > 1 ? page : undefined }));

  const input = { search: q || undefined, page, pageSize: PAGE_SIZE };
  // Started here, streamed to <PartnerList> which suspends on it until the rows arrive.
  void getQueryClient().prefetchQuery(trpc.partners.list.queryOptions(input));

  return (
    <>
      <PageHeader
        title="Partners"
        description="Ticketing platforms connected to Encore, and their API keys."
        actions={
          <ButtonLink href="/dashboard/partners/new" variant="primary">
            New partner
          </ButtonLink>
        }
      />
      <PartnerSearch query={q} />
      <HydrateClient>
        {/* A new key per search/page shows the skeleton again instead of the previous rows. */}
        <Suspense key={`${q}|${page}`} fallback={<TableSkeleton rows={5} columns={4} label="Loading partners" />}>
          <PartnerList input={input} />
        </Suspense>
      </HydrateClient>
    </>
  );
}
