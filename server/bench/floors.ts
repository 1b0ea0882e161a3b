import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Each case's floor ratio, as recorded in the repository (server/bench/floors.json). */
export function readFloors(file = path.join(process.cwd(), 'server', 'bench', 'floors.json')): Record<string, number> {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const floors: Record<string, number> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (name.startsWith('$')) continue;
    if (typeof value !== 'number' || !(value > 0)) throw new Error(`floors.json: ${name} must be a positive number`);
    floors[name] = value;
  }
  return floors;
}

export interface FloorVerdict {
  name: string;
  ratio: number;
  floor: number | undefined;
  ok: boolean;
  line: string;
}

/**
 * `npm run bench -- --check`: each measured case's ratio against its floor. A case without a floor fails
 * too (a new case declares its floor when it lands).
 */
export function checkFloors(ratios: Record<string, number>, floors: Record<string, number>): FloorVerdict[] {
  return Object.entries(ratios).map(([name, ratio]) => {
    const floor = floors[name];
    const ok = floor !== undefined && ratio >= floor;
    const line =
      floor === undefined
        ? `check ${name}: ratio ${ratio.toFixed(2)}, no floor in server/bench/floors.json: FAIL`
        : `check ${name}: ratio ${ratio.toFixed(2)} ${ok ? '≥' : '<'} floor ${floor.toFixed(2)}: ${ok ? 'ok' : 'FAIL (a regression: profile it before it lands)'}`;
    return { name, ratio, floor, ok, line };
  });
}
