import type { Work } from '@/server/lib/transaction';
import { unlistListingsOfShows } from '../intentions';

/**
 * Protection turned off (the protection module's event, in the switching transaction): resale needs
 * protection, so the shows' open listings are unlisted and their sellers mailed (the same as resale
 * turned off by the partner).
 */
export function unlistListingsOfUnprotectedShows(work: Work, showPks: string[]): Promise<void> {
  return unlistListingsOfShows(work, showPks);
}
