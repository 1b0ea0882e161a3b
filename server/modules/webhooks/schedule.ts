/**
 * The spec's delivery schedule. After the n-th failed attempt, retry n follows after:
 * - n = 1…50: from 5 s growing geometrically to 8 min at n = 50 (5 s × 96^((n−1)/49));
 * - n > 50: the non-priority mode, every 12 to 24 hours (uniformly random, so a backlog spreads out).
 * Retries never stop: a message is retried until a receiver accepts it.
 */
export const FAST_RETRIES = 50;
const FIRST_MS = 5_000;
const LAST_FAST_MS = 8 * 60_000;
const HOUR_MS = 3_600_000;

export function retryDelayMs(failures: number, random: () => number = Math.random): number {
  if (!Number.isInteger(failures) || failures < 1) throw new RangeError('failures must be a positive integer');
  if (failures <= FAST_RETRIES) {
    return Math.round(FIRST_MS * Math.pow(LAST_FAST_MS / FIRST_MS, (failures - 1) / (FAST_RETRIES - 1)));
  }
  return Math.round(12 * HOUR_MS + random() * 12 * HOUR_MS);
}

/** Receiver answers that count as delivered. Everything else (3xx included) is a failure. */
export const SUCCESS_STATUSES = new Set([200, 201, 202, 204]);
