import type { Metadata } from 'next';
import { Alert } from '@/components/ui/alert';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { SearchForm } from '@/components/ui/search-form';
import { type SearchParams } from '@/components/ui/search-params';
import { requireStaff } from '@/server/auth/session';
import { FAN_SECTIONS, type FanSection, opsSearchInput, SEARCH_MAX_LENGTH } from '@/server/modules/ops';
import { getQueryClient, trpc } from '@/server/trpc/server';
import { FanResults, IdResults, KIND_LABEL, NothingFound, searchPath } from './_components/results';

export const metadata: Metadata = { title: 'Search' };

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * Support search: an e-mail or an id, from the sidebar box on every page. The query is read whole (not
 * cut), so blank or over-long input gets a message here rather than a different search.
 */
export default async function SearchPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const raw = first(sp.q);
  const moreParam = first(sp.more);
  const more = FAN_SECTIONS.find((s): s is FanSection => s === moreParam);
  await requireStaff(raw === undefined ? '/dashboard/search' : searchPath(raw.slice(0, SEARCH_MAX_LENGTH + 1), more));

  const header = (
    <>
      <PageHeader
        title="Search"
        description="A fan’s e-mail, or a ticket id (ours or the partner’s), listing, order, payment or purchase id: everything it leads to, across partners."
      />
      <SearchForm
        action="/dashboard/search"
        id="search-page-q"
        label="Search again"
        placeholder="E-mail or id"
        query={raw?.trim().slice(0, SEARCH_MAX_LENGTH) ?? ''}
        hint="E-mails match in any case; ids exactly (tkt_, lst_, pay_, bi_ are ours; anything else is a partner's ticket or order id)."
        maxLength={SEARCH_MAX_LENGTH}
      />
    </>
  );
  if (raw === undefined) {
    return (
      <>
        {header}
        <EmptyState
          title="Search for a fan or an id"
          description="Type an e-mail address to see a fan’s tickets, listings, purchases, payouts, mails and sessions at every partner."
        />
      </>
    );
  }
  const parsed = opsSearchInput.safeParse({ q: raw, more });
  if (!parsed.success) {
    return (
      <>
        {header}
        <Alert tone="error" title="Nothing was searched">
          {parsed.error.issues[0]?.message}
        </Alert>
      </>
    );
  }
  const result = await getQueryClient().fetchQuery(trpc.opsSearch.search.queryOptions(parsed.data));
  return (
    <>
      {header}
      <p className="muted" role="status">
        “{result.query}” read as {KIND_LABEL[result.kind]}.
      </p>
      {result.found === 0 ? (
        <NothingFound result={result} />
      ) : result.kind === 'email' ? (
        <FanResults result={result} more={more} />
      ) : (
        <IdResults result={result} />
      )}
    </>
  );
}
