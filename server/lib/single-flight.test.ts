import { describe, expect, it } from 'vitest';
import { singleFlight } from './single-flight';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('singleFlight', () => {
  it('shares one call among the callers of a key while it is in flight, and starts anew after it settles', async () => {
    const flight = singleFlight<number>();
    const calls: string[] = [];
    const first = deferred<number>();
    const a = flight('page-1', () => (calls.push('page-1'), first.promise));
    const b = flight('page-1', () => (calls.push('page-1 again'), Promise.resolve(2)));
    const other = flight('page-2', () => (calls.push('page-2'), Promise.resolve(3)));
    expect([a.joined, b.joined, other.joined]).toEqual([false, true, false]);
    expect(calls).toEqual(['page-1', 'page-2']);
    first.resolve(1);
    expect(await Promise.all([a.answer, b.answer, other.answer])).toEqual([1, 1, 3]);

    const later = flight('page-1', () => (calls.push('page-1 later'), Promise.resolve(4)));
    expect([later.joined, await later.answer]).toEqual([false, 4]);
    expect(calls).toEqual(['page-1', 'page-2', 'page-1 later']);
  });

  it('gives a failure to the callers who shared it, and does not keep it', async () => {
    const flight = singleFlight<number>();
    const failing = deferred<number>();
    const a = flight('k', () => failing.promise);
    const b = flight('k', () => Promise.resolve(9));
    failing.reject(new Error('render failed'));
    await expect(a.answer).rejects.toThrow('render failed');
    await expect(b.answer).rejects.toThrow('render failed');
    expect(await flight('k', () => Promise.resolve(5)).answer).toBe(5);
  });

  it('turns a call that throws at once into a rejected answer', async () => {
    const flight = singleFlight<number>();
    const thrown = flight('k', () => {
      throw new Error('no model');
    });
    await expect(thrown.answer).rejects.toThrow('no model');
    expect(await flight('k', () => Promise.resolve(1)).answer).toBe(1);
  });
});
