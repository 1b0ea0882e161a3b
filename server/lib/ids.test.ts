import { describe, expect, it } from 'vitest';
import { newId, randomBase62 } from './ids';

describe('newId', () => {
  it('answers the prefix and 20 base62 characters, distinct across many pool refills', () => {
    // 20,000 ids use ~100 refills of the 4 KiB pool.
    const ids = Array.from({ length: 20_000 }, () => newId('tkt'));
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^tkt_[0-9A-Za-z]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Every character of the alphabet shows up, about equally often (400,000 draws, ~6,450 each).
    const counts = new Map<string, number>();
    for (const id of ids) for (const ch of id.slice(4)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const n of counts.values()) expect(Math.abs(n - 400_000 / 62)).toBeLessThan(600);
  });

  it('leaves secrets to randomBase62, which still answers the length asked', () => {
    expect(randomBase62(32)).toMatch(/^[0-9A-Za-z]{32}$/);
  });
});
