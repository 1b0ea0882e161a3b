/**
 * The partner's `returnTo` (or `returnURL`) as a link back, only when it is an absolute http(s) URL: a
 * `javascript:` or relative value would run script or stay on Encore, so it is dropped.
 */
export function safeReturnTo(value: string | string[] | undefined | null): string | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw || raw.length > 2000) return null;
  try {
    const u = new URL(raw);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/** A same-site path with the fan's `returnTo` (and nothing else of the current query) carried along. */
export function withReturnTo(path: string, returnTo: string | null): string {
  if (!returnTo) return path;
  const sep = path.includes('?') ? '&' : '?';
  return `${path}${sep}returnTo=${encodeURIComponent(returnTo)}`;
}
