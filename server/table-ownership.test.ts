import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleTable, readOnlyModules, sourceFiles } from '@/server/testing/module-table';

/*
 * A table is read and written only by the module that owns it, raw SQL included (README, "Architecture");
 * another module reads it through a function of its owner or a view the owner defines (db/schema, pgView).
 * ESLint checks the drizzle table imports; this checks the SQL text: every table a module's statements
 * name (from, join, update, into) is one of its own. The read-only modules (READ_ONLY_MODULES in
 * eslint.config.mjs: staff reporting) may read any table and write none.
 */
const root = process.cwd();

/** Each module's tables, from the README's module table (server/readme.test.ts keeps it true). */
const ownedTables = () => new Map(moduleTable().map((row) => [row.module, row.owns]));

/** The file without its comments, TypeScript's and SQL's (a comment may say "from channels" without reading it). */
const code = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
    .replace(/--\s.*$/gm, '');

/** The tables a file's SQL names, each with how: read (from, join) or written (update, insert into, delete from). */
function tablesNamed(text: string, tables: ReadonlySet<string>): { table: string; write: boolean }[] {
  const found: { table: string; write: boolean }[] = [];
  const stripped = code(text);
  for (const m of stripped.matchAll(/\b(from|join|update|into)\s+(?:public\.)?"?([a-z_]+)"?/gi)) {
    const table = m[2];
    if (!tables.has(table)) continue;
    const write = /^(update|into)$/i.test(m[1]) || /\bdelete\s+$/i.test(stripped.slice(0, m.index));
    found.push({ table, write });
  }
  return found;
}

describe('table ownership in SQL', () => {
  const owned = ownedTables();
  const readOnly = new Set(readOnlyModules());
  const every = new Set([...owned.values()].flat());

  it('finds tables in statements, and tells reads from writes', () => {
    const tables = new Set(['listings', 'channels', 'shows']);
    expect(
      tablesNamed('select * from listings l join shows s on true -- from channels\n/* join channels */', tables),
    ).toEqual([
      { table: 'listings', write: false },
      { table: 'shows', write: false },
    ]);
    expect(tablesNamed('update channels set x = 1; delete from shows; insert into "listings"', tables)).toEqual([
      { table: 'channels', write: true },
      { table: 'shows', write: true },
      { table: 'listings', write: true },
    ]);
  });

  it("no module's SQL names another module's table; read-only modules only read", () => {
    const problems: string[] = [];
    for (const [module, tables] of owned) {
      for (const file of sourceFiles(path.join(root, 'server', 'modules', module))) {
        for (const { table, write } of tablesNamed(readFileSync(file, 'utf8'), every)) {
          const where = `${path.relative(root, file)}: ${write ? 'writes' : 'reads'} ${table}`;
          if (readOnly.has(module)) {
            if (write) problems.push(`${where} (a read-only module writes nothing)`);
          } else if (!tables.includes(table)) {
            problems.push(`${where}, a table of another module: use its owner's function or a view it defines`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
