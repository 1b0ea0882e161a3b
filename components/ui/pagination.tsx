import Link from 'next/link';
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
}

function hrefFor(basePath: string, params: Record<string, string | undefined>, page: number): string {
  return withParams(basePath, { ...params, page: page > 1 ? page : undefined });
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
}: PaginationProps) {
  const from = total === 0 ? 0 : Math.min(total, (page - 1) * pageSize + 1);
  const to = Math.min(total, page * pageSize);
  const prev = page > 1 ? hrefFor(basePath, params, Math.min(page - 1, pageCount)) : null;
  const next = page < pageCount ? hrefFor(basePath, params, page + 1) : null;
  return (
    <nav className="pagination" aria-label="Pagination">
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

/**
 * One page of a list with its pagination under it. A page past the end (an old bookmark, rows removed
 * since) shows a way back to the first page instead of an empty table.
 */
export function PagedList({
  result,
  empty,
  children,
  ...link
}: Omit<PaginationProps, keyof PageOf> & { result: PageOf; empty: boolean; children: ReactNode }) {
  const { page, pageCount, pageSize, total } = result;
  return (
    <>
      {empty ? (
        <EmptyState
          title="Nothing on this page"
          action={<ButtonLink href={hrefFor(link.basePath, link.params ?? {}, 1)}>Go to the first page</ButtonLink>}
        />
      ) : (
        children
      )}
      <Pagination page={page} pageCount={pageCount} pageSize={pageSize} total={total} {...link} />
    </>
  );
}
