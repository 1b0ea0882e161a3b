import { returnToAllowed } from '@/server/lib/return-origins';

/**
 * The partner's `returnTo` (or `returnURL`) as a link back, only when it is an absolute http(s) URL (a
 * `javascript:` or relative value would run script or stay on Encore) and, when the partner has set
 * allowed return origins, on one of them: anyone can craft an Encore link, so a back link
 * elsewhere is dropped rather than shown.
 */
export function safeReturnTo(
  value: string | string[] | undefined | null,
  allowedOrigins: readonly string[],
): string | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw || raw.length > 2000 || !returnToAllowed(raw, allowedOrigins)) return null;
  return new URL(raw).toString();
}

/** A same-site path with the fan's `returnTo` (and nothing else of the current query) carried along. */
export function withReturnTo(path: string, returnTo: string | null): string {
  if (!returnTo) return path;
  const sep = path.includes('?') ? '&' : '?';
  return `${path}${sep}returnTo=${encodeURIComponent(returnTo)}`;
}
