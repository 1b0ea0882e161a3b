import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/lib/errors';
import { enforceInMemory, type MemoryCheck } from './memory-rate-limit';

const MINUTE = 60_000;
let n = 0;
/** A check of `limit` a minute on a subject no other test uses. */
const check = (limit: number, name = 'test-limit'): MemoryCheck => ({
  limit: { name, limit, windowSeconds: 60, scope: 'for the test' },
  subject: `s${++n}-${Math.random()}`,
});

/** The 429 `enforceInMemory` throws, or null when the call is admitted. */
function refusal(checks: MemoryCheck[], now: number): AppError | null {
  try {
    enforceInMemory(checks, now);
    return null;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

describe('the in-memory limiter (sliding window counter)', () => {
  it('admits `limit` calls in a window, refuses the next with Retry-After until the window slides on', () => {
    const c = check(4);
    const t0 = 10 * MINUTE; // the start of a fixed window
    const remaining = [0, 1, 2, 3].map((i) => enforceInMemory([c], t0 + i * 1000)['x-ratelimit-remaining']);
    expect(remaining).toEqual(['3', '2', '1', '0']);
    const refused = refusal([c], t0 + 5000);
    expect(refused?.code).toBe('RATE_LIMITED');
    expect(refused?.message).toContain('at most 4 requests per minute for the test');
    // The window is full until it ends (55 s on); then its 4 calls weigh on the next as it slides.
    expect(refused?.headers?.['retry-after']).toBe('55');
    // At the next window's start the previous one counts whole (4): still refused.
    expect(refusal([c], t0 + MINUTE)).not.toBeNull();
    // A quarter into it, it counts 3 (4 × 0.75): one call fits, and the next does not.
    expect(refusal([c], t0 + MINUTE + 15_000)).toBeNull();
    const again = refusal([c], t0 + MINUTE + 15_001);
    // 4 × (1 − f) + 1 ≤ 3 once f ≥ 0.5: 15 s more.
    expect(again?.headers?.['retry-after']).toBe('15');
    // Two windows later nothing of it is left.
    expect(enforceInMemory([c], t0 + 3 * MINUTE)['x-ratelimit-remaining']).toBe('3');
  });

  it('counts a call against every check or none: a call one window refuses is not counted in the others', () => {
    const client = check(10, 'client');
    const site = check(2, 'site');
    const t = 20 * MINUTE;
    enforceInMemory([client, site], t);
    enforceInMemory([client, site], t + 1);
    expect(refusal([client, site], t + 2)?.message).toContain('at most 2 requests');
    // The client's window holds the two admitted calls only.
    expect(enforceInMemory([client], t + 3)['x-ratelimit-remaining']).toBe('7');
  });

  it('keeps subjects apart', () => {
    const a = check(1);
    const b = { ...a, subject: `${a.subject}-other` };
    const t = 30 * MINUTE;
    enforceInMemory([a], t);
    expect(refusal([a], t + 1)).not.toBeNull();
    expect(refusal([b], t + 1)).toBeNull();
  });
});
