/**
 * When to try a call again and how long to wait first. A call is *repeatable* when running it twice cannot
 * do anything twice: a GET, or a mutating call with an `Idempotency-Key` (Encore answers a repeat with the
 * first call's stored answer). Only repeatable calls are retried after a 5xx or a lost connection; any call
 * after a 429, which Encore answers before running anything.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included (1: never retry). */
  maxAttempts: number;
  /** The first backoff's size; each next one doubles, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown with `retryAfterMs`. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/**
 * Whether an answer with `status` may be retried: 429 always; 5xx when the call is repeatable; and a 409
 * carrying `Retry-After` when repeatable (Encore's "a request with this Idempotency-Key is still in
 * progress", met by a retry whose first attempt timed out: the retry then gets the first one's answer).
 * Never another 4xx: the same request would fail the same way.
 */
export function isRetryableStatus(status: number, repeatable: boolean, hasRetryAfter: boolean): boolean {
  if (status === 429) return true;
  if (status >= 500) return repeatable;
  return status === 409 && repeatable && hasRetryAfter;
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date starts with the day's name (`Sun, 06 Nov 1994 08:49:37 GMT`); Date.parse alone takes "-1".
  const at = /^[A-Za-z]/.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * The wait after failed attempt `attempt` (1, 2…) without `Retry-After`: exponential, capped, with "equal
 * jitter" (half fixed, half random) so that many clients failing at once do not all come back at once.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
