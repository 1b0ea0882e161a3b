import type { Metadata } from 'next';
import { ButtonLink } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { SearchForm } from '@/components/ui/search-form';
import { listParams, pageInUrl, type SearchParams } from '@/components/ui/search-params';
import { TableSuspense } from '@/components/ui/table';
import { withParams } from '@/components/ui/url';
import { requireStaff } from '@/server/auth/session';
import { may } from '@/server/lib/staff-roles';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { PartnerList } from './_features/list/partner-list';

export const metadata: Metadata = { title: 'Partners' };

const PAGE_SIZE = 20;
const MAX_SEARCH = 120; // the schema's limit; longer input is cut rather than refused

export default async function PartnersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { q, page } = listParams(await searchParams, MAX_SEARCH);
  const staff = await requireStaff(withParams('/dashboard/partners', { q, page: pageInUrl(page) }));

  const input = { search: q || undefined, page, pageSize: PAGE_SIZE };
  // Started here, streamed to <PartnerList> which suspends on it until the rows arrive.
  void getQueryClient().prefetchQuery(trpc.partners.list.queryOptions(input));

  return (
    <>
      <PageHeader
        title="Partners"
        description="Ticketing platforms connected to Encore, and their API keys."
        actions={
          may(staff.role, 'admin') && (
            <ButtonLink href="/dashboard/partners/new" variant="primary">
              New partner
            </ButtonLink>
          )
        }
      />
      <SearchForm
        action="/dashboard/partners"
        id="partner-search"
        label="Search partners by name"
        placeholder="Search by name"
        query={q}
        maxLength={MAX_SEARCH}
      />
      <HydrateClient>
        <TableSuspense key={`${q}|${page}`} label="Loading partners" rows={5} columns={4}>
          <PartnerList input={input} />
        </TableSuspense>
      </HydrateClient>
    </>
  );
}
