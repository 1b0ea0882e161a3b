import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

/*
 * What the architecture's checks read from the repository itself: the README's module table (module, the
 * tables it owns, the modules it depends on), eslint.config.mjs's READ_ONLY_MODULES, and a module's code.
 * server/readme.test.ts and server/table-ownership.test.ts share it.
 */
const root = process.cwd();
const readRepoFile = (file: string) => readFileSync(path.join(root, file), 'utf8');

export type ModuleRow = { module: string; owns: string[]; dependsOn: string[] };

/** A cell's comma-separated names; `—` is none. */
const names = (cell: string) =>
  cell
    .replaceAll('`', '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && s !== '—');

/** The README's module table, a row per module. */
export function moduleTable(): ModuleRow[] {
  const lines = readRepoFile('README.md').split('\n');
  const header = lines.findIndex((l) => /^\|\s*module\s*\|/.test(l));
  expect(header, 'README has a table whose first column is "module"').toBeGreaterThan(-1);
  expect(lines[header]).toMatch(/\|\s*owns \(tables\)\s*\|\s*depends on[^|]*\|/);
  const rows: ModuleRow[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').slice(1, -1);
    expect(cells, `a row of four cells: ${line}`).toHaveLength(4);
    const [module, owns, dependsOn] = cells.map((c) => c.trim());
    // A second separator row inside the table reads as a module called "-----".
    expect(module, `a module name, not a separator: ${line}`).toMatch(/^`?[a-z][a-z-]*`?$/);
    rows.push({ module: module.replaceAll('`', ''), owns: names(owns), dependsOn: names(dependsOn) });
  }
  return rows;
}

/** READ_ONLY_MODULES of eslint.config.mjs: modules that own no table and only read others' (ops, fan-pages). */
export function readOnlyModules(): string[] {
  const literal = /const READ_ONLY_MODULES = (\[[^\]]*\]);/.exec(readRepoFile('eslint.config.mjs'));
  return literal ? (new Function(`return ${literal[1]};`)() as string[]) : [];
}

/** Every non-test .ts/.tsx file under a folder. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}
