import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFloors, readFloors } from './floors';

describe('the bench regression guard (npm run bench -- --check)', () => {
  it('passes a case at or above its floor and fails one below it or without a floor', () => {
    const verdicts = checkFloors({ a: 0.5, b: 0.29, c: 0.3, d: 1 }, { a: 0.3, b: 0.3, c: 0.3 });
    expect(verdicts.map((v) => [v.name, v.ok])).toEqual([
      ['a', true],
      ['b', false],
      ['c', true],
      ['d', false],
    ]);
    expect(verdicts[1].line).toBe('check b: ratio 0.29 < floor 0.30: FAIL (a regression: profile it before it lands)');
    expect(verdicts[3].line).toContain('no floor');
  });

  it('has a floor for every case the bench runs, each a positive number', async () => {
    const floors = readFloors();
    const run = await import('node:fs').then((fs) => fs.readFileSync(path.join('server', 'bench', 'run.ts'), 'utf8'));
    const cases = [...run.matchAll(/^ {2}'([a-z-]+)': \(\) => import\(/gm)].map((m) => m[1]);
    expect(cases.length).toBeGreaterThan(5);
    expect(Object.keys(floors).sort()).toEqual([...cases].sort());
  });

  it('refuses a floor that is not a positive number', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'floors-'));
    const file = path.join(dir, 'floors.json');
    writeFileSync(file, JSON.stringify({ $comment: 'x', a: 0 }));
    expect(() => readFloors(file)).toThrow('a must be a positive number');
  });
});
