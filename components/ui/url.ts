/**
 * Dashboard URLs and their query strings, for server pages and client components alike (a plain
 * module: server components cannot call functions exported by a client module). Reading a query
 * string is in ./search-params.
 */

/** `path?k=v…` with the empty values left out. */
export function withParams(path: string, params: Record<string, string | number | undefined | null>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  return qs.size ? `${path}?${qs}` : path;
}
