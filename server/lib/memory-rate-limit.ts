import { LRUCache } from 'lru-cache';
import { type RateDecision, type RateLimit, rateLimitHeaders, rateLimited } from '@/server/lib/rate-limit';

/**
 * A limiter kept in this process's memory, for calls too many and too cheap to write a row each: the
 * widget's reads with a publishable key, which a sold-out show's rush sends by the thousand a
 * second from one partner's site. `rate-limit.ts` is exact and shared by every instance but writes a row
 * per call; this one writes nothing, and each instance counts only the calls it answers (N instances
 * admit up to N times the limit: docs/decisions.md, "Publishable keys and CORS").
 *
 * A sliding window counter (the one Cloudflare describes): the current fixed window's count plus the
 * previous window's weighted by how much of it the sliding window still covers. It can err by the previous
 * window's uneven spread, never by more than the limit; it keeps two numbers per subject whatever the limit.
 * Subjects are kept least-recently-used, at most MAX_SUBJECTS: a flood of one-off subjects (spoofed Origin
 * headers) forgets the coldest windows (those clients are then counted from zero), never the memory.
 */
const MAX_SUBJECTS = 100_000;

interface Window {
  /** Start of the current fixed window (ms). */
  start: number;
  current: number;
  previous: number;
}

const store = globalThis as typeof globalThis & { __encoreMemoryLimits?: LRUCache<string, Window> };

function windows(): LRUCache<string, Window> {
  store.__encoreMemoryLimits ??= new LRUCache<string, Window>({ max: MAX_SUBJECTS });
  return store.__encoreMemoryLimits;
}

/** A subject's window as of `now`, rolled forward (not stored). */
function windowAt(key: string, windowMs: number, now: number): Window {
  const held = windows().get(key);
  const start = now - (now % windowMs);
  if (!held || held.start <= start - 2 * windowMs) return { start, current: 0, previous: 0 };
  if (held.start === start) return { ...held };
  // The window after the held one: its count becomes the previous.
  return { start, current: 0, previous: held.start === start - windowMs ? held.current : 0 };
}

/** What `limit` decides for a call now: allowed or not, what is left, and when to try again. */
function decide(limit: RateLimit, w: Window, now: number): RateDecision {
  const windowMs = limit.windowSeconds * 1000;
  const covered = 1 - (now - w.start) / windowMs;
  const estimate = w.previous * covered + w.current;
  if (estimate + 1 <= limit.limit) {
    return { allowed: true, remaining: Math.max(0, Math.floor(limit.limit - estimate - 1)), retryAfter: 0 };
  }
  // Refused: when will the previous window's weight have fallen enough for one call (if this window alone
  // is not full), or when does this window end (if it is).
  let waitMs = w.start + windowMs - now;
  if (w.current + 1 <= limit.limit && w.previous > 0) {
    const coveredThen = (limit.limit - w.current - 1) / w.previous;
    waitMs = Math.min(waitMs, (1 - coveredThen) * windowMs - (now - w.start));
  }
  return { allowed: false, remaining: 0, retryAfter: Math.max(1, Math.ceil(waitMs / 1000)) };
}

export interface MemoryCheck {
  limit: RateLimit;
  subject: string;
}

/**
 * Counts one call against every check, or against none: refused (429 with Retry-After, the longest wait
 * of the windows that refuse) when any window is full; a refused call is not counted. Answers the first
 * check's rate-limit headers. `now` is for tests.
 */
export function enforceInMemory(checks: readonly MemoryCheck[], now = Date.now()): Record<string, string> {
  const seen = checks.map(({ limit, subject }) => {
    const key = `${limit.name}:${subject}`;
    const w = windowAt(key, limit.windowSeconds * 1000, now);
    return { key, limit, w, decision: decide(limit, w, now) };
  });
  const refused = seen.filter((s) => !s.decision.allowed);
  if (refused.length) {
    throw rateLimited(refused[0].limit, Math.max(...refused.map((s) => s.decision.retryAfter)), seen[0].limit);
  }
  for (const s of seen) windows().set(s.key, { ...s.w, current: s.w.current + 1 });
  return rateLimitHeaders(seen[0].limit, seen[0].decision.remaining);
}
