import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleTable, readOnlyModules, sourceFiles } from '@/server/testing/module-table';
import { envVariableNames } from './env';

/*
 * The README is the page a newcomer trusts first, so what it says about the code is checked against the
 * code: its module table against server/modules (folders, imports, owned tables), its length, its links.
 */
const root = process.cwd();
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const readme = read('README.md');

const modulesDir = path.join(root, 'server', 'modules');
const moduleFolders = readdirSync(modulesDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

/** The other modules a module's code imports (static, re-export or dynamic import, types included). */
function importedModules(module: string): string[] {
  const found = new Set<string>();
  for (const file of sourceFiles(path.join(modulesDir, module))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]@\/server\/modules\/([a-z-]+)/g)) {
      if (m[1] !== module) found.add(m[1]);
    }
  }
  return [...found].sort();
}

/** OWNED_TABLES of eslint.config.mjs: module → the db/schema files it alone reads and writes. */
function ownedSchemaFiles(): Record<string, string[]> {
  const config = read('eslint.config.mjs');
  const literal = /const OWNED_TABLES = (\{[\s\S]*?\n\});/.exec(config);
  expect(literal, 'eslint.config.mjs defines OWNED_TABLES').not.toBeNull();
  // A plain object literal of string arrays, from this repository's own file.
  return new Function(`return ${literal![1]};`)() as Record<string, string[]>;
}

/** The PostgreSQL table names a db/schema file defines. */
function tablesOf(schemaFile: string): string[] {
  const text = read(path.join('db', 'schema', `${schemaFile}.ts`));
  return [...text.matchAll(/pgTable\(\s*['"]([a-z0-9_]+)['"]/g)].map((m) => m[1]);
}

describe("the README's module table", () => {
  const rows = moduleTable();

  it('has one row for each folder of server/modules, and no other', () => {
    const listed = rows.map((r) => r.module);
    expect(new Set(listed).size, 'no module listed twice').toBe(listed.length);
    expect([...listed].sort()).toEqual(moduleFolders);
  });

  it('says which modules each one imports, as its code does (tests left out)', () => {
    for (const row of rows) {
      expect([...row.dependsOn].sort(), `"depends on" of ${row.module}`).toEqual(importedModules(row.module));
    }
  });

  it('says which tables each one owns, as OWNED_TABLES in eslint.config.mjs does', () => {
    const owned = ownedSchemaFiles();
    const readOnly = readOnlyModules();
    expect([...Object.keys(owned), ...readOnly].sort(), 'OWNED_TABLES and READ_ONLY_MODULES name every module').toEqual(
      moduleFolders,
    );
    for (const row of rows) {
      if (readOnly.includes(row.module)) {
        expect(row.owns, `${row.module} reads only: it owns no table`).toEqual([]);
        continue;
      }
      const tables = (owned[row.module] ?? []).flatMap(tablesOf).sort();
      // Only a read-only module (OWNED_TABLES: []) owns none: ops, staff reporting.
      if (owned[row.module]?.length !== 0)
        expect(tables.length, `${row.module} owns at least one table`).toBeGreaterThan(0);
      expect([...row.owns].sort(), `"owns" of ${row.module}`).toEqual(tables);
    }
  });
});

describe('the README', () => {
  it('is one page: at most 200 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });

  it('names only npm scripts that exist', () => {
    const scripts = Object.keys(JSON.parse(read('package.json')).scripts as Record<string, string>);
    const named = [...readme.matchAll(/\bnpm run ([a-z][a-z0-9:-]*)/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((s) => !scripts.includes(s))).toEqual([]);
  });

  it('names in its configuration table only variables server/env.ts reads', () => {
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## A partner'));
    const named = section
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .flatMap((line) => [...line.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((name) => !envVariableNames.includes(name))).toEqual([]);
  });

  it('and the docs link only to files that exist', () => {
    const pages = ['README.md', ...readdirSync(path.join(root, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
      f.endsWith('.md'),
    );
    const broken: string[] = [];
    for (const page of pages) {
      for (const m of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1].split('#')[0];
        if (!target || /^[a-z]+:/.test(target)) continue;
        const full = path.join(root, path.dirname(page), target);
        if (!existsSync(full) || !(statSync(full).isFile() || statSync(full).isDirectory())) {
          broken.push(`${page} → ${m[1]}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
