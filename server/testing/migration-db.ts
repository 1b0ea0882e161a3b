import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { expect } from 'vitest';
import { MIGRATIONS_DIR } from '@/db';
import { createScratchDatabase } from './scratch-db';

/**
 * A database for the test of migration `tag` (`0028_webhook_due`), migrated up to the migration before it:
 * the scratch database is migrated to the end, so this is a database of its own on the scratch database's
 * server (the machine's, with DATABASE_URL), migrated from a copy of the migrations whose journal stops
 * before `tag`. The test migrates it to the end itself (`MIGRATIONS_DIR`). `drop` ends `sql` and drops this
 * database, then the scratch one; a set-up that fails half-way drops what it made.
 */
export async function databaseBeforeMigration(tag: string): Promise<{ sql: postgres.Sql; drop: () => Promise<void> }> {
  const label = `mig${tag.split('_')[0]}`;
  const name = `${label}_${Date.now()}_${process.pid}`;
  let scratch: { url: string; drop: () => Promise<void> } | undefined;
  let sql: postgres.Sql | undefined;
  let before = '';
  const drop = async () => {
    await sql?.end();
    if (before) rmSync(before, { recursive: true, force: true });
    if (scratch) {
      const admin = postgres(scratch.url, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
      await scratch.drop();
    }
  };
  try {
    scratch = await createScratchDatabase(label);
    const admin = postgres(scratch.url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    const u = new URL(scratch.url);
    u.pathname = `/${name}`;
    sql = postgres(u.toString(), { max: 2, onnotice: () => {} });

    before = mkdtempSync(path.join(os.tmpdir(), 'encore-mig-'));
    cpSync(MIGRATIONS_DIR, before, { recursive: true });
    const journalPath = path.join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag === tag);
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    writeFileSync(journalPath, JSON.stringify(journal));
    await migrate(drizzle(sql), { migrationsFolder: before });
    return { sql, drop };
  } catch (err) {
    await drop();
    throw err;
  }
}
