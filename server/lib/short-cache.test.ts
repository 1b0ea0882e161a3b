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

  it('10,000 one-off keys do not evict the page everyone asks for: the least recently asked go first', async () => {
    const cache = shortCache<string>('test-flood', 60_000, { maxEntries: 200 });
    let hotReads = 0;
    const hot = () => cache.get('/market/evt_hot', async () => `page ${++hotReads}`);
    expect(await hot()).toBe('page 1');
    for (let i = 0; i < 10_000; i += 1) {
      await cache.get(`/market/evt_hot?utm_source=${i}`, async () => `one-off ${i}`);
      // The fans keep asking for the hot page meanwhile, as in a rush.
      if (i % 50 === 0) expect(await hot()).toBe('page 1');
    }
    expect(hotReads).toBe(1);
    // The oldest one-off keys went, one by one; the newest are kept.
    let reread = 0;
    await cache.get('/market/evt_hot?utm_source=0', async () => `again ${++reread}`);
    await cache.get('/market/evt_hot?utm_source=9999', async () => `again ${++reread}`);
    expect(reread).toBe(1);
  });

  it('is bounded by bytes too: big answers push out the least recent, one bigger than the budget is not kept', async () => {
    const cache = shortCache<string>('test-bytes', 60_000, { maxBytes: 1000, sizeOf: (v) => v.length });
    const reads: string[] = [];
    const get = (key: string, size: number) =>
      cache.get(key, async () => {
        reads.push(key);
        return 'x'.repeat(size);
      });
    await get('a', 400);
    await get('b', 400);
    await get('a', 400); // a is now the most recent
    await get('c', 400); // over 1,000 bytes: b, the least recent, goes
    await get('a', 400);
    await get('c', 400);
    expect(reads).toEqual(['a', 'b', 'c']);
    await get('b', 400);
    expect(reads).toEqual(['a', 'b', 'c', 'b']);
    await get('huge', 5000);
    await get('huge', 5000);
    expect(reads.filter((k) => k === 'huge')).toHaveLength(2);
  });
});
