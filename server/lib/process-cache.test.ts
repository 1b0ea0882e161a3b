import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// Each module's cache is made when the module loads.
import '@/server/modules/partners';
import '@/server/modules/fan-pages';
import '@/server/modules/webhooks';
import '@/server/lib/outbound';
import '@/server/lib/i18n/format';
import '@/server/http/client-package';
import { processCache, processCaches, shortCache } from './short-cache';

const CACHES = [
  'checked-keys',
  'return-origins',
  'partner-modes',
  'framed-page-partner',
  'fan-brand-partner-of-id',
  'fan-brand-brands',
  'webhook-signing-keys',
  'outbound-targets',
  'show-date-formats',
  'client-package',
];

/** Ten times the cache's capacity of one-off keys, the hot key asked for all along. */
function flood(name: string) {
  const cache = processCaches().get(name)!;
  const max = cache.max;
  cache.set(`hot ${name}`, { hot: true });
  for (let i = 0; i < 10 * max; i++) {
    cache.set(`one-off ${name} ${i}`, { i });
    if (i % 50 === 0) expect(cache.get(`hot ${name}`)).toEqual({ hot: true });
  }
  return cache;
}

describe('every in-process cache degrades, never empties', () => {
  it.each(CACHES)('%s: the hot entry survives ten times its capacity of one-off keys', (name) => {
    const cache = flood(name);
    expect(cache.max).toBeGreaterThan(0);
    expect(cache.get(`hot ${name}`)).toEqual({ hot: true });
    expect(cache.size).toBe(cache.max);
    // The oldest one-offs went first, one by one.
    expect(cache.has(`one-off ${name} 0`)).toBe(false);
    expect(cache.has(`one-off ${name} ${10 * cache.max - 1}`)).toBe(true);
  });

  it("the short caches (the buy page's layers) too, bounded by bytes as well", async () => {
    const cache = shortCache<string>(`flood-${Date.now()}`, 60_000, {
      maxEntries: 100,
      maxBytes: 10_000,
      sizeOf: (v) => v.length,
    });
    await cache.get('hot', async () => 'hot page');
    let reads = 0;
    for (let i = 0; i < 1000; i++) {
      await cache.get(`one-off ${i}`, async () => 'x'.repeat(200));
      await cache.get('hot', async () => {
        reads += 1;
        return 'read again';
      });
    }
    expect(reads).toBe(0);
  });

  it('one cache per name in the process, with the first limits', () => {
    const name = `same-${Date.now()}`;
    const a = processCache<string>(name, { max: 3 });
    const b = processCache<string>(name, { max: 99 });
    expect(b).toBe(a);
    expect(b.max).toBe(3);
  });

  it('no code empties a cache because it is full', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) {
          const text = readFileSync(file, 'utf8');
          if (/\.size\s*>=?\s*[\w_]+\)\s*[\w.()]*\.clear\(\)/.test(text)) offenders.push(file);
        }
      }
    };
    for (const dir of ['server', 'app', 'components']) walk(dir);
    expect(offenders).toEqual([]);
  });
});
