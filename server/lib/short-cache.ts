/**
 * A short cache shared by the requests of one process, with single flight: concurrent askers of one key
 * share one read, and its answer is kept `ttlMs` from when the read started. `forget()` drops every entry
 * at once (a write in this process that could change an answer). Kept on globalThis by name: Next.js
 * bundles route handlers and pages separately, and a write through /v1 must clear what a page keeps.
 */
export interface ShortCache<T> {
  get(key: string, read: () => Promise<T>): Promise<T>;
  forget(): void;
}

interface Entry<T> {
  at: number;
  value: Promise<T>;
}

const MAX_ENTRIES = 1000;
const store = globalThis as typeof globalThis & { __encoreShortCaches?: Map<string, Map<string, Entry<unknown>>> };

/** `maxEntries`: past it the cache starts again empty (bounds the memory of many keys). */
export function shortCache<T>(name: string, ttlMs: number, maxEntries = MAX_ENTRIES): ShortCache<T> {
  const entries = (): Map<string, Entry<T>> => {
    store.__encoreShortCaches ??= new Map();
    let map = store.__encoreShortCaches.get(name);
    if (!map) store.__encoreShortCaches.set(name, (map = new Map()));
    return map as Map<string, Entry<T>>;
  };
  return {
    get(key, read) {
      const map = entries();
      const now = Date.now();
      const hit = map.get(key);
      if (hit && now - hit.at < ttlMs) return hit.value;
      if (map.size >= maxEntries) map.clear();
      const entry: Entry<T> = { at: now, value: read() };
      map.set(key, entry);
      // A failed read is not kept: the next asker reads again.
      entry.value.catch(() => {
        if (map.get(key) === entry) map.delete(key);
      });
      return entry.value;
    },
    forget() {
      entries().clear();
    },
  };
}
