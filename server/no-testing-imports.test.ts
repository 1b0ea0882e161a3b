import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Production code imports nothing from server/testing/: what the running app needs (the e2e server's
 * error capture, the test-only set-up calls) lives under server/lib or server/http, named for what it does.
 * Only tests (*.test.ts), the test helpers themselves (server/testing/), the benchmarks (server/bench/), the
 * fault runs (server/chaos/), the browser suite (e2e/) and the test runner's own configuration reach into
 * server/testing/.
 */
const root = process.cwd();

/** Folders that may import from server/testing/, or hold no source of ours (builds, dependencies, data). */
const SKIPPED_DIRS = new Set([
  'server/testing',
  'server/bench',
  'server/chaos',
  'e2e',
  'node_modules',
  '.git',
  '.data',
  'test-results',
  'playwright-report',
  'client/dist',
  'client/src/generated',
]);
/** Vitest's configuration names its global set-up, set-up file and sequencer in server/testing/. */
const ALLOWED_FILES = new Set(['vitest.config.mts']);

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const TEST = /\.test\.tsx?$/;

/** Every source file that is not a test, outside the skipped folders, relative to the repository. */
function productionFiles(dir = ''): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (SKIPPED_DIRS.has(relative) || entry.name === 'node_modules' || entry.name.startsWith('.next')) return [];
      return productionFiles(relative);
    }
    if (!entry.isFile() || !SOURCE.test(entry.name) || TEST.test(entry.name) || ALLOWED_FILES.has(relative)) return [];
    return [relative];
  });
}

/** What a file imports: `import … from`, `export … from`, bare `import '…'`, `import('…')` and `require('…')`. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\b(?:from|import|require)\s*\(?\s*(['"])([^'"\n]+)\1/g)) found.push(m[2]);
  return found;
}

/** Whether a specifier of `file` leads into server/testing/ (the `@/` alias is the repository's root). */
function intoTesting(file: string, specifier: string): boolean {
  let target: string;
  if (specifier.startsWith('@/')) target = specifier.slice(2);
  else if (specifier.startsWith('.')) target = path.posix.join(path.posix.dirname(file), specifier);
  else return false;
  return target === 'server/testing' || target.startsWith('server/testing/');
}

describe('production code imports nothing from server/testing/', () => {
  it('finds imports of every form, through the alias and relative paths', () => {
    const text = [
      "import { a } from '@/server/testing/fixtures';",
      "export { b } from '../testing/race';",
      "import './testing/setup';",
      "const c = await import('@/server/testing/market');",
      "import { d } from '@/server/lib/testing-words';",
    ].join('\n');
    const hits = specifiers(text).filter((s) => intoTesting('server/lib/x.ts', s));
    expect(hits).toEqual(['@/server/testing/fixtures', '../testing/race', '@/server/testing/market']);
    expect(intoTesting('server/x.ts', './testing/setup')).toBe(true);
  });

  it('in server, app, components, db, client, the proxy, instrumentation and the tools around them', () => {
    const files = productionFiles();
    expect(files).toContain('server/instrumentation-node.ts');
    expect(files).toContain('app/api/test-hooks/[action]/route.ts');
    expect(files.some((f) => f.startsWith('server/testing/'))).toBe(false);
    const offenders = files.flatMap((file) =>
      specifiers(readFileSync(path.join(root, file), 'utf8'))
        .filter((s) => intoTesting(file, s))
        .map((s) => `${file} imports ${s}`),
    );
    expect(offenders).toEqual([]);
  });
});
