/**
 * Dashboard URLs and their query strings, for server pages and client components alike (a plain
 * module: server components cannot call functions exported by a client module).
 */

export type SearchParams = Record<string, string | string[] | undefined>;

/** `path?k=v…` with the empty values left out. */
export function withParams(path: string, params: Record<string, string | number | undefined | null>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  return qs.size ? `${path}?${qs}` : path;
}

/** The first value of a query parameter, trimmed and cut to `max` (longer input is cut, not refused). */
export function param(sp: SearchParams, key: string, max = 254): string {
  const v = sp[key];
  return ((Array.isArray(v) ? v[0] : v) ?? '').trim().slice(0, max);
}

/** A page number from the URL: anything unreadable is page 1. */
export function pageParam(sp: SearchParams): number {
  return Math.max(1, Math.min(1_000_000, Number.parseInt(param(sp, 'page'), 10) || 1));
}
