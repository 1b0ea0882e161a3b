/**
 * Reading a page's query string (`searchParams`), for server pages: every value is cut to a size the
 * API accepts, and anything unreadable falls back to the default rather than failing the page.
 */

export type SearchParams = Record<string, string | string[] | undefined>;

/** The first value of a query parameter, trimmed and cut to `max` (longer input is cut, not refused). */
export function param(sp: SearchParams, key: string, max = 254): string {
  const v = sp[key];
  return ((Array.isArray(v) ? v[0] : v) ?? '').trim().slice(0, max);
}

/** A page number from the URL: anything unreadable is page 1. */
export function pageParam(sp: SearchParams): number {
  return Math.max(1, Math.min(1_000_000, Number.parseInt(param(sp, 'page'), 10) || 1));
}

/** A page number as it goes back into a URL: the first page has none. */
export function pageInUrl(page: number): number | undefined {
  return page > 1 ? page : undefined;
}

/** A searchable list's `?q=` and `?page=`. */
export function listParams(sp: SearchParams, maxSearch = 254): { q: string; page: number } {
  return { q: param(sp, 'q', maxSearch), page: pageParam(sp) };
}
