import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from './index';

const run = promisify(execFile);
// drizzle-kit's own entry, run by this Node (npx would first resolve the package: seconds per call).
const DRIZZLE_KIT = path.join(process.cwd(), 'node_modules', 'drizzle-kit', 'bin.cjs');

describe('migrations', () => {
  it('match the drizzle table files: drizzle-kit finds nothing left to migrate', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'encore-migrations-'));
    try {
      cpSync(MIGRATIONS_DIR, dir, { recursive: true });
      const before = readdirSync(dir).length;
      // drizzle-kit takes `--out` relative to the working directory.
      const out = path.relative(process.cwd(), dir);
      const { stdout } = await run(
        process.execPath,
        [
          DRIZZLE_KIT,
          'generate',
          '--dialect',
          'postgresql',
          '--schema',
          './db/schema/index.ts',
          '--out',
          out,
          '--casing',
          'snake_case',
        ],
        { env: { ...process.env, NO_COLOR: '1' } },
      );
      expect(stdout).toContain('No schema changes');
      expect(readdirSync(dir).length).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** Tables, columns, indexes and foreign keys of a drizzle snapshot, in a form two snapshots can be compared in. */
interface SnapshotTable {
  columns: Record<string, { type: string; notNull: boolean; primaryKey: boolean }>;
  indexes: Record<string, { isUnique: boolean; columns: { expression: string }[]; where?: string }>;
  foreignKeys: Record<string, { tableTo: string; columnsFrom: string[]; onDelete?: string }>;
  compositePrimaryKeys: Record<string, { columns: string[] }>;
  uniqueConstraints: Record<string, { columns: string[] }>;
}
function shape(snapshot: { tables: Record<string, SnapshotTable> }) {
  const out: Record<string, unknown> = {};
  for (const [name, t] of Object.entries(snapshot.tables)) {
    if (!name.startsWith('public.')) continue;
    out[name] = {
      columns: Object.fromEntries(
        Object.entries(t.columns).map(([c, v]) => [
          c,
          `${v.type}${v.notNull ? ' not null' : ''}${v.primaryKey ? ' pk' : ''}`,
        ]),
      ),
      indexes: Object.fromEntries(
        Object.entries(t.indexes).map(([i, v]) => [
          i,
          `${v.isUnique ? 'unique ' : ''}(${v.columns.map((c) => c.expression).join(', ')})${v.where ? ' partial' : ''}`,
        ]),
      ),
      foreignKeys: Object.values(t.foreignKeys)
        .map((f) => `${f.columnsFrom.join(',')} -> ${f.tableTo} ${f.onDelete ?? ''}`)
        .sort(),
      // Introspection lists key columns in table order, not key order: compare them as sets.
      primaryKeys: Object.values(t.compositePrimaryKeys).map((p) => [...p.columns].sort().join(',')),
      uniques: Object.values(t.uniqueConstraints).map((u) => u.columns.join(',')),
    };
  }
  return out;
}

describe('the migrated database', () => {
  it('has exactly the tables, columns, indexes and keys of the drizzle table files', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'encore-introspect-'));
    try {
      await run(
        process.execPath,
        [
          DRIZZLE_KIT,
          'pull',
          '--dialect',
          'postgresql',
          '--url',
          process.env.DATABASE_URL!,
          '--out',
          path.relative(process.cwd(), dir),
          '--schemaFilters',
          'public',
        ],
        { env: { ...process.env, NO_COLOR: '1' } },
      );
      const live = JSON.parse(readFileSync(path.join(dir, 'meta', '0000_snapshot.json'), 'utf8'));
      const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
        entries: { idx: number; tag: string }[];
      };
      const snapshots = readdirSync(path.join(MIGRATIONS_DIR, 'meta'))
        .filter((f) => f.endsWith('_snapshot.json'))
        .sort();
      const latest = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', snapshots.at(-1)!), 'utf8'));
      expect(snapshots.at(-1)).toBe(`${String(journal.entries.at(-1)!.idx).padStart(4, '0')}_snapshot.json`);
      expect(shape(live)).toEqual(shape(latest));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
