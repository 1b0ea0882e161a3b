import { afterEach, describe, expect, it, vi } from 'vitest';
import { shortCache } from './short-cache';

afterEach(() => vi.useRealTimers());

describe('shortCache', () => {
  it('shares one read between concurrent askers and keeps its answer for the ttl only', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = shortCache<number>('test-ttl', 1000);
    let reads = 0;
    const read = async () => ++reads;
    expect(await Promise.all(Array.from({ length: 20 }, () => cache.get('k', read)))).toEqual(Array(20).fill(1));
    vi.advanceTimersByTime(999);
    expect(await cache.get('k', read)).toBe(1);
    vi.advanceTimersByTime(1);
    expect(await cache.get('k', read)).toBe(2);
    expect(await cache.get('other', read)).toBe(3);
  });

  it('forget() drops every answer at once, in every copy of the cache of that name', async () => {
    const a = shortCache<number>('test-forget', 60_000);
    const b = shortCache<number>('test-forget', 60_000); // another bundle's copy
    let reads = 0;
    const read = async () => ++reads;
    expect(await a.get('k', read)).toBe(1);
    expect(await b.get('k', read)).toBe(1);
    b.forget();
    expect(await a.get('k', read)).toBe(2);
  });

  it('does not keep a failed read', async () => {
    const cache = shortCache<number>('test-fail', 60_000);
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', async () => 7)).toBe(7);
  });
});
