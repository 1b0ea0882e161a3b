import { partnerBackLink } from '@/server/lib/return-origins';

/**
 * The partner's `returnTo` (or `returnURL`) as a link back: on one of the partner's allowed return origins,
 * or, with none set, on its own site (`partnerBackLink`, server/lib/return-origins.ts). Anyone can craft an
 * Encore link, so a back link elsewhere is never shown; a `javascript:` or relative value never is either.
 */
export function safeReturnTo(
  value: string | string[] | undefined | null,
  partner: { returnOrigins: readonly string[]; supportUrl: string | null },
): string | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw || raw.length > 2000) return null;
  const link = partnerBackLink(raw, partner);
  return link === null ? null : new URL(link).toString();
}

/** A same-site path with the fan's `returnTo` (and nothing else of the current query) carried along. */
export function withReturnTo(path: string, returnTo: string | null): string {
  if (!returnTo) return path;
  const sep = path.includes('?') ? '&' : '?';
  return `${path}${sep}returnTo=${encodeURIComponent(returnTo)}`;
}
