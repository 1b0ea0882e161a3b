import type { Work } from '@/server/lib/transaction';
import { unlistListingsOfShows } from '../intentions';

/**
 * Resale turned off (the catalogue's event: the partner set `resaleEnabled` false, in that transaction):
 * the shows' open listings are unlisted and their sellers mailed; they may list again once resale is back.
 */
export function unlistListingsOfShowsWithoutResale(work: Work, showPks: string[]): Promise<void> {
  return unlistListingsOfShows(work, showPks);
}
