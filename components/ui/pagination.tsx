import Link from '@/components/ui/link';
import type { ReactNode } from 'react';
import { ButtonLink } from './button';
import { EmptyState } from './empty-state';
import { withParams } from './url';

export interface PaginationProps {
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
  /** Path and the query parameters to keep (e.g. the search); `page` is set per link. */
  basePath: string;
  params?: Record<string, string | undefined>;
  noun?: string;
  /** The query parameter holding the page (two paged lists on one page need two). */
  pageKey?: string;
  /** The navigation's accessible name (two on one page need two). */
  label?: string;
}

function hrefFor(basePath: string, params: Record<string, string | undefined>, page: number, key: string): string {
  return withParams(basePath, { ...params, [key]: page > 1 ? page : undefined });
}

/** "← Previous" or "Next →": a link to that page, or shown disabled where there is none. */
export function PageLink({ href, rel }: { href: string | null; rel: 'prev' | 'next' }) {
  const label = rel === 'prev' ? '← Previous' : 'Next →';
  return href ? (
    <Link className="btn btn-secondary btn-sm" href={href} rel={rel}>
      {label}
    </Link>
  ) : (
    <span className="btn btn-secondary btn-sm" aria-disabled="true">
      {label}
    </span>
  );
}

/** Previous / next links with a "21–40 of 95" summary. Plain links, so pages are bookmarkable. */
export function Pagination({
  page,
  pageCount,
  pageSize,
  total,
  basePath,
  params = {},
  noun = 'items',
  pageKey = 'page',
  label = 'Pagination',
}: PaginationProps) {
  const from = total === 0 ? 0 : Math.min(total, (page - 1) * pageSize + 1);
  const to = Math.min(total, page * pageSize);
  const prev = page > 1 ? hrefFor(basePath, params, Math.min(page - 1, pageCount), pageKey) : null;
  const next = page < pageCount ? hrefFor(basePath, params, page + 1, pageKey) : null;
  return (
    <nav className="pagination" aria-label={label}>
      <p className="pagination-summary">
        {from}–{to} of {total} {noun}
      </p>
      <div className="pagination-links">
        <PageLink href={prev} rel="prev" />
        <span className="pagination-page">
          Page {page} of {pageCount}
        </span>
        <PageLink href={next} rel="next" />
      </div>
    </nav>
  );
}

/** What a paged list query answers (the list routers' shape). */
export interface PageOf {
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
}

/** A page past the end of its list (an old link): a way back to the first page. */
export function PastTheEnd({ firstPage }: { firstPage: string }) {
  return (
    <EmptyState title="Nothing on this page" action={<ButtonLink href={firstPage}>Go to the first page</ButtonLink>} />
  );
}

/** What a request for one page of a list names (the list routers' input). */
export interface PageInput {
  page: number;
  pageSize: number;
}

/**
 * One page of a list with its pagination under it. A list with nothing in it at all shows `none`
 * instead (nothing yet, or nothing matches the search). A page past the end (an old bookmark, rows
 * removed since) shows a way back to the first page instead of an empty table.
 */
export function PagedList({
  result,
  none,
  nouns: [one, many],
  children,
  ...link
}: Omit<PaginationProps, keyof PageOf | 'noun'> & {
  result: PageOf & { items: readonly unknown[] };
  none: ReactNode;
  /** What the list counts, singular and plural: "1 partner", "2 partners". */
  nouns: readonly [string, string];
  children: ReactNode;
}) {
  const { page, pageCount, pageSize, total } = result;
  if (total === 0) return none;
  return (
    <>
      {result.items.length === 0 ? (
        <PastTheEnd firstPage={hrefFor(link.basePath, link.params ?? {}, 1, 'page')} />
      ) : (
        children
      )}
      <Pagination
        page={page}
        pageCount={pageCount}
        pageSize={pageSize}
        total={total}
        noun={total === 1 ? one : many}
        {...link}
      />
    </>
  );
}
