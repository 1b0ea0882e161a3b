import { LRUCache } from 'lru-cache';

/**
 * A short cache shared by the requests of one process, with single flight: concurrent askers of one key
 * share one read, and its answer is kept `ttlMs` from when the read started. `forget()` drops every entry
 * at once (a write in this process that could change an answer). Kept on globalThis by name: Next.js
 * bundles route handlers and pages separately, and a write through /v1 must clear what a page keeps.
 *
 * Bounded by entries and by bytes as a least-recently-used cache (`lru-cache`): when it is full the
 * entries asked for least lately go first, one by one, so a flood of one-off keys (links with `utm_*`
 * or `?x=1…10000`) never throws out the page every fan is asking for (it degrades; it never empties).
 */
export interface ShortCache<T> {
  get(key: string, read: () => Promise<T>): Promise<T>;
  forget(): void;
}

export interface ShortCacheLimits<T> {
  /** Most entries kept (default 1,000). */
  maxEntries?: number;
  /** Most bytes kept, as `sizeOf` counts them (default 64 MB). */
  maxBytes?: number;
  /** An answer's size in bytes, once it is read (default 1 KB: a cache of small answers counts entries). */
  sizeOf?: (value: T) => number;
}

interface Entry<T> {
  at: number;
  value: Promise<T>;
  /** Bytes, as `sizeOf` counted them once the read answered (a read in flight counts 1). */
  size: number;
}

const DEFAULTS = { maxEntries: 1000, maxBytes: 64 * 1024 * 1024, sizeOf: () => 1024 };

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- lru-cache's own bound for values
type AnyCache = LRUCache<string, {}>;
const store = globalThis as typeof globalThis & { __encoreProcessCaches?: Map<string, AnyCache> };

/**
 * Every in-process cache of the app: a least-recently-used cache (`lru-cache`) bounded by entries (and by
 * bytes where its values vary), kept on globalThis by name so every Next.js bundle of the process shares
 * it (a change made from the dashboard clears what the partner API or the proxy remembers). When full, the
 * entries asked for least lately go, one by one: a flood of one-off keys never empties it, and the hot
 * entry stays. The first caller of a name sets its limits.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- lru-cache's own bound for values
export function processCache<V extends {}>(
  name: string,
  options: LRUCache.Options<string, V, unknown>,
): LRUCache<string, V> {
  store.__encoreProcessCaches ??= new Map();
  let cache = store.__encoreProcessCaches.get(name);
  if (!cache) {
    cache = new LRUCache<string, V>(options) as unknown as AnyCache;
    store.__encoreProcessCaches.set(name, cache);
  }
  return cache as unknown as LRUCache<string, V>;
}

/** The process's caches by name (the test that floods each one). */
export function processCaches(): ReadonlyMap<string, AnyCache> {
  return store.__encoreProcessCaches ?? new Map();
}

/** The first caller of a name sets its limits; later copies (other bundles) share that cache. */
export function shortCache<T>(name: string, ttlMs: number, limits: ShortCacheLimits<T> = {}): ShortCache<T> {
  const { maxEntries, maxBytes, sizeOf } = { ...DEFAULTS, ...limits };
  const entries = () =>
    processCache<Entry<T>>(`short:${name}`, {
      max: maxEntries,
      maxSize: maxBytes,
      sizeCalculation: (entry) => Math.max(1, entry.size),
    });
  return {
    get(key, read) {
      const cache = entries();
      const now = Date.now();
      const hit = cache.get(key);
      if (hit && now - hit.at < ttlMs) return hit.value;
      const entry: Entry<T> = { at: now, value: read(), size: 1 };
      cache.set(key, entry);
      entry.value.then(
        (value) => {
          // Counted at its size once it is known (an answer bigger than the whole budget is not kept).
          if (cache.peek(key) !== entry) return;
          const size = sizeOf(value);
          // A new entry object: lru-cache counts a size again only when the value it holds changes.
          if (size > maxBytes) cache.delete(key);
          else cache.set(key, { ...entry, size }, { noUpdateTTL: true });
        },
        // A failed read is not kept: the next asker reads again.
        () => {
          if (cache.peek(key) === entry) cache.delete(key);
        },
      );
      return entry.value;
    },
    forget() {
      // Nothing to forget before the first read (and no cache made here with this copy's limits).
      store.__encoreProcessCaches?.get(`short:${name}`)?.clear();
    },
  };
}
